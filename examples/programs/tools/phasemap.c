/* phasemap: a qemu TCG plugin that prints, for every fixed-length interval of
 * executed guest instructions, the functions that ran most in it: a quick
 * look at a workload's phase behaviour.
 * Build (host): cc -shared -fPIC -O2 -o /tmp/libphasemap.so phasemap.c
 * Use: qemu-riscv64 -plugin /tmp/libphasemap.so,interval=10000000 PROGRAM ARGS
 * Output on stderr, one line per interval: "phasemap: <k> fn1 NN% fn2 NN% ...".
 * Declares the plugin-API entry points it uses itself (QEMU 7.x, version 1). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
typedef struct qemu_info_t qemu_info_t;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS };
typedef void (*tb_trans_cb)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*udata_cb)(qemu_plugin_id_t id, void *userdata);
typedef void (*vcpu_udata_cb)(unsigned int vcpu_index, void *userdata);

extern void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, tb_trans_cb cb);
extern size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
extern struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
extern const char *qemu_plugin_insn_symbol(const struct qemu_plugin_insn *insn);
extern void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb, vcpu_udata_cb cb, enum qemu_plugin_cb_flags flags, void *userdata);
extern void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, udata_cb cb, void *userdata);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

#define MAXSYM 4096
#define TOP 4
static const char *syms[MAXSYM];
static int nsyms;
static uint64_t counts[MAXSYM];
static uint64_t interval = 10000000, in_interval, total;
static long index_no;

typedef struct { uint32_t sym, n; } TbInfo;

static uint32_t sym_id(const char *s) {
    if (!s) s = "?";
    for (int i = 0; i < nsyms; i++) if (syms[i] == s || !strcmp(syms[i], s)) return (uint32_t)i;
    if (nsyms == MAXSYM) return 0;
    syms[nsyms] = s;
    return (uint32_t)nsyms++;
}

static void report(void) {
    if (!in_interval) return;
    fprintf(stderr, "phasemap: %4ld", index_no++);
    for (int k = 0; k < TOP; k++) {
        int best = -1;
        for (int i = 0; i < nsyms; i++) if (counts[i] && (best < 0 || counts[i] > counts[best])) best = i;
        if (best < 0 || counts[best] * 100 < in_interval) break;   /* skip < 1% */
        fprintf(stderr, " %s %d%%", syms[best], (int)(100 * counts[best] / in_interval));
        counts[best] = 0;
    }
    fprintf(stderr, "\n");
    memset(counts, 0, sizeof counts);
    in_interval = 0;
}

static void on_exec(unsigned int vcpu, void *ud) {
    const TbInfo *t = ud;
    counts[t->sym] += t->n;
    in_interval += t->n;
    total += t->n;
    if (in_interval >= interval) report();
}

static void on_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
    TbInfo *t = malloc(sizeof *t);                 /* lives as long as the block */
    t->n = (uint32_t)qemu_plugin_tb_n_insns(tb);
    t->sym = sym_id(qemu_plugin_insn_symbol(qemu_plugin_tb_get_insn(tb, 0)));
    qemu_plugin_register_vcpu_tb_exec_cb(tb, on_exec, QEMU_PLUGIN_CB_NO_REGS, t);
}

static void at_end(qemu_plugin_id_t id, void *p) {
    report();
    fprintf(stderr, "phasemap: total instructions=%" PRIu64 "\n", total);
}

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv) {
    for (int i = 0; i < argc; i++)
        if (!strncmp(argv[i], "interval=", 9)) interval = strtoull(argv[i] + 9, NULL, 10);
    if (!interval) interval = 10000000;
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_trans);
    qemu_plugin_register_atexit_cb(id, at_end, NULL);
    return 0;
}
