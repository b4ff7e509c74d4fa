/* phases: a synthetic workload with a KNOWN phase schedule, for testing the
 * phase tracker.  Four kernels with disjoint code and different behaviour:
 *
 *   A  int_mix     integer hashing through a lookup table (ALU + loads)
 *   B  fp_power    power iteration on a 48x48 double matrix (FP multiply-add)
 *   C  tree_churn  recursive binary search tree insert/lookup/free (calls, pointers)
 *   D  text_scan   character-class state machine over generated text (switch)
 *
 * They run in blocks following a schedule (default AABBACCADDBA); each block
 * executes a fixed amount of work, calibrated to about SIZE million RISC-V
 * instructions (argv[1], default 20), so with a 10M-instruction interval each
 * block spans about two intervals.  The schedule can be changed with argv[2]
 * (letters A-D, e.g. "ABAB").  The schedule and a per-block result line are
 * printed, then a checksum.
 */
#include "common.h"

/* work units per million instructions, measured with tools/count-insns.sh */
#define A_UNITS_PER_M 244
#define B_UNITS_PER_M 68
#define C_UNITS_PER_M 34
#define D_UNITS_PER_M 82

/* ---- A: integer mixing ---- */
#define A_TAB 4096
static uint32_t a_tab[A_TAB];
static uint32_t a_state = 12345;

STAGE static uint32_t int_mix(long units) {
    uint32_t x = a_state;
    for (long u = 0; u < units; u++) {
        for (int i = 0; i < 256; i++) {
            x = a_tab[(x >> 7) & (A_TAB - 1)] ^ (x * 2654435761u) ^ (uint32_t)i;
            x = (x << 5) | (x >> 27);
        }
        a_tab[u & (A_TAB - 1)] ^= x;
    }
    a_state = x;
    return x;
}

/* ---- B: floating point power iteration ---- */
#define BN 48
static double b_m[BN][BN], b_v[BN];

STAGE static double fp_power(long units) {
    double lambda = 0;
    for (long u = 0; u < units; u++) {
        double w[BN], norm = 0;
        for (int i = 0; i < BN; i++) {
            double s = 0;
            for (int j = 0; j < BN; j++) s += b_m[i][j] * b_v[j];
            w[i] = s;
            norm += s * s;
        }
        norm = 1.0 / (norm > 0 ? __builtin_sqrt(norm) : 1.0);
        lambda = 0;
        for (int i = 0; i < BN; i++) { lambda += w[i] * b_v[i]; b_v[i] = w[i] * norm; }
    }
    return lambda;
}

/* ---- C: binary search tree churn ---- */
typedef struct Node { uint32_t key; uint32_t count; struct Node *l, *r; } Node;
static Node *c_pool;
static int c_used;
static Rng c_rng;

static Node *tree_insert(Node *t, uint32_t key) {
    if (!t) {
        Node *n = &c_pool[c_used++];
        n->key = key; n->count = 1; n->l = n->r = NULL;
        return n;
    }
    if (key < t->key) t->l = tree_insert(t->l, key);
    else if (key > t->key) t->r = tree_insert(t->r, key);
    else t->count++;
    return t;
}

STAGE static uint32_t tree_find(const Node *t, uint32_t key) {
    while (t) {
        if (key == t->key) return t->count;
        t = key < t->key ? t->l : t->r;
    }
    return 0;
}

static uint64_t tree_sum(const Node *t, int depth) {
    if (!t) return 0;
    return (uint64_t)t->key * (uint64_t)(depth + 1) + tree_sum(t->l, depth + 1) + tree_sum(t->r, depth + 1);
}

STAGE static uint64_t tree_churn(long units) {
    uint64_t acc = 0;
    for (long u = 0; u < units; u++) {
        Node *root = NULL;
        c_used = 0;
        for (int i = 0; i < 128; i++) root = tree_insert(root, (uint32_t)rng_below(&c_rng, 4096));
        for (int i = 0; i < 128; i++) acc += tree_find(root, (uint32_t)rng_below(&c_rng, 4096));
        acc += tree_sum(root, 0);
    }
    return acc;
}

/* ---- D: text scanning state machine ---- */
#define D_LEN 1024
static char d_text[D_LEN];

STAGE static uint64_t text_scan(long units) {
    uint64_t words = 0, digits = 0, punct = 0, lines = 0, h = 0;
    for (long u = 0; u < units; u++) {
        int state = 0;
        for (int i = 0; i < D_LEN; i++) {
            unsigned char ch = (unsigned char)d_text[i];
            switch (ch) {
            case ' ': case '\t': state = 0; break;
            case '\n': state = 0; lines++; break;
            case '0': case '1': case '2': case '3': case '4':
            case '5': case '6': case '7': case '8': case '9':
                if (state != 2) { state = 2; digits++; }
                break;
            case '.': case ',': case ';': case '!': case '?':
                punct++; state = 0; break;
            default:
                if (state != 1) { state = 1; words++; }
                h = h * 31 + ch;
                break;
            }
        }
        d_text[u % D_LEN] ^= 0;  /* keep the loop from being hoisted */
    }
    return words * 1000003u + digits * 1009u + punct * 13u + lines + (h & 0xFFFF);
}

static void init_all(void) {
    Rng r; rng_seed(&r, 0xFACEFEED);
    for (int i = 0; i < A_TAB; i++) a_tab[i] = (uint32_t)rng_next(&r);
    for (int i = 0; i < BN; i++) {
        b_v[i] = 1.0;
        for (int j = 0; j < BN; j++) b_m[i][j] = (i == j ? 2.0 : 0.0) + rng_unit(&r) * 0.5;
    }
    c_pool = xmalloc(sizeof(Node) * 128);
    rng_seed(&c_rng, 777);
    static const char *words[] = { "the", "phase", "tracker", "sees", "branch", "vectors", "and", "intervals", "of", "code" };
    int p = 0;
    while (p < D_LEN - 1) {
        int k = (int)rng_below(&r, 14);
        const char *w = k < 10 ? words[k] : k == 10 ? "42" : k == 11 ? "," : k == 12 ? "." : "\n";
        for (const char *s = w; *s && p < D_LEN - 1; s++) d_text[p++] = *s;
        if (p < D_LEN - 1) d_text[p++] = ' ';
    }
    d_text[D_LEN - 1] = '\n';
}

int main(int argc, char **argv) {
    int size = scale_arg(argc, argv, 20, 100000);
    const char *sched = argc > 2 ? argv[2] : "AABBACCADDBA";
    for (const char *s = sched; *s; s++)
        if (*s < 'A' || *s > 'D') { fprintf(stderr, "schedule letters must be A-D\n"); return 2; }
    init_all();
    printf("phases: block ~%dM instructions, schedule", size);
    for (const char *s = sched; *s; s++) printf(" %c", *s);
    printf("\n");
    Sum sum; sum_init(&sum);
    int n = (int)strlen(sched);
    for (int b = 0; b < n; b++) {
        uint64_t r = 0;
        const char *name = "";
        switch (sched[b]) {
        case 'A': r = int_mix((long)size * A_UNITS_PER_M); name = "int_mix"; break;
        case 'B': { double l = fp_power((long)size * B_UNITS_PER_M); r = (uint64_t)(l * 1e6); name = "fp_power"; break; }
        case 'C': r = tree_churn((long)size * C_UNITS_PER_M); name = "tree_churn"; break;
        case 'D': r = text_scan((long)size * D_UNITS_PER_M); name = "text_scan"; break;
        }
        sum_u64(&sum, r);
        printf("block %2d %c %-10s result %llu\n", b, sched[b], name, (unsigned long long)r);
    }
    printf("checksum %016llx\n", (unsigned long long)sum.h);
    return 0;
}
