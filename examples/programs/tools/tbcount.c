/* tbcount: counts guest instructions executed under qemu-riscv64 by reading
 * the "-d in_asm,exec,nochain" log on stdin: in_asm gives the number of
 * instructions of each translated block (keyed by its start pc), exec logs
 * one "Trace" line per block execution.  Prints the total (and optionally the
 * top functions).  Host tool: build with the host cc, see count-insns.sh. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HBITS 20
#define HSIZE (1u << HBITS)
typedef struct { unsigned long pc; long n; int fn; unsigned long execs; } Ent;
static Ent *tab;
static char fnames[8192][64];
static int nfn;

static Ent *lookup(unsigned long pc) {
    unsigned long h = (pc * 0x9E3779B97F4A7C15UL) >> (64 - HBITS);
    for (;;) {
        Ent *e = &tab[h];
        if (e->pc == pc || e->pc == 0) { e->pc = pc; return e; }
        h = (h + 1) & (HSIZE - 1);
    }
}

static int fn_id(const char *name) {
    for (int i = 0; i < nfn; i++) if (!strcmp(fnames[i], name)) return i;
    if (nfn < 8192) { strncpy(fnames[nfn], name, 63); return nfn++; }
    return 0;
}

int main(int argc, char **argv) {
    int top = argc > 1 ? atoi(argv[1]) : 0;
    static char line[4096];
    tab = calloc(HSIZE, sizeof(Ent));
    unsigned long total = 0, tbs = 0, unknown = 0;
    int in_block = 0; Ent *cur = NULL; int curfn = 0;
    while (fgets(line, sizeof line, stdin)) {
        if (line[0] == 'I' && !strncmp(line, "IN:", 3)) {
            char *p = line + 3; while (*p == ' ') p++;
            p[strcspn(p, "\n")] = 0;
            curfn = fn_id(p);
            in_block = 1; cur = NULL;
        } else if (in_block && line[0] == '0' && line[1] == 'x') {
            unsigned long pc = strtoul(line, NULL, 16);
            if (!cur) { cur = lookup(pc); cur->n = 0; cur->fn = curfn; }
            cur->n++;
        } else if (line[0] == 'T' && !strncmp(line, "Trace", 5)) {
            in_block = 0;
            char *b = strchr(line, '[');
            if (!b) continue;
            char *s = strchr(b, '/');
            if (!s) continue;
            unsigned long pc = strtoul(s + 1, NULL, 16);
            Ent *e = lookup(pc);
            if (e->n == 0) unknown++;
            total += e->n; e->execs++; tbs++;
        } else {
            in_block = in_block && line[0] != '\n';
        }
    }
    printf("instructions=%lu blocks=%lu unknown_blocks=%lu\n", total, tbs, unknown);
    if (top > 0) {
        static unsigned long per[8192];
        for (unsigned i = 0; i < HSIZE; i++) if (tab[i].pc) per[tab[i].fn] += tab[i].n * tab[i].execs;
        for (int k = 0; k < top; k++) {
            int best = -1;
            for (int i = 0; i < nfn; i++) if (per[i] && (best < 0 || per[i] > per[best])) best = i;
            if (best < 0) break;
            printf("  %5.1f%%  %s\n", 100.0 * per[best] / (total ? total : 1), fnames[best][0] ? fnames[best] : "?");
            per[best] = 0;
        }
    }
    return 0;
}
