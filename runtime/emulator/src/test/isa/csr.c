/* csr: user-level CSRs and instruction-stream coherence.
 *  - cycle/time/instret (rdcycle/rdtime/rdinstret and csrrs/csrrc/csrrsi/csrrci
 *    forms with x0/zero immediates, which must not count as writes) exist and
 *    are monotonic; only monotonicity is printed, never values;
 *  - fflags/frm/fcsr read/write round trips through every Zicsr form
 *    (csrrw/csrrs/csrrc and the immediate forms), masking of unused bits,
 *    accrued exception flags from real FP operations, and dynamic rounding
 *    under each frm value;
 *  - fence.i: code written into an RWX mmap, executed, overwritten,
 *    fence.i, executed again (decode-cache invalidation); plus the JIT-style
 *    RW -> mprotect RX flow, and rewriting an instruction in the middle of a
 *    function that was already executed many times.
 * Exit status 0. */
#include "common.h"
#include <string.h>
#include <sys/mman.h>

#define CSRR(name, v) __asm__ volatile("csrr %0, " name : "=r"(v))

static void test_counters(void) {
    u64 c0, t0, i0, c1, t1, i1, c2, t2, i2;
    __asm__ volatile("rdcycle %0\n\trdtime %1\n\trdinstret %2" : "=r"(c0), "=r"(t0), "=r"(i0));
    volatile u64 sink = 0;
    for (int i = 0; i < 100000; i++) sink += i;
    __asm__ volatile("csrrs %0, cycle, zero\n\tcsrrs %1, time, zero\n\tcsrrs %2, instret, zero"
                     : "=r"(c1), "=r"(t1), "=r"(i1));
    for (int i = 0; i < 100000; i++) sink += i;
    __asm__ volatile("csrrc %0, cycle, zero\n\tcsrrsi %1, time, 0\n\tcsrrci %2, instret, 0"
                     : "=r"(c2), "=r"(t2), "=r"(i2));
    printf("cycle monotonic: %d\n", c0 <= c1 && c1 <= c2);
    printf("time monotonic: %d\n", t0 <= t1 && t1 <= t2);
    printf("instret monotonic: %d\n", i0 <= i1 && i1 <= i2);
    printf("instret advanced: %d\n", i2 > i0);
    /* many back-to-back reads */
    int ok = 1;
    u64 prev;
    __asm__ volatile("rdtime %0" : "=r"(prev));
    for (int i = 0; i < 1000; i++) {
        u64 now;
        __asm__ volatile("rdtime %0" : "=r"(now));
        if (now < prev) ok = 0;
        prev = now;
    }
    printf("time monotonic x1000: %d\n", ok);
}

static void show_fp_csrs(const char *what) {
    u64 fcsr, frm, fflags;
    CSRR("fcsr", fcsr);
    CSRR("frm", frm);
    CSRR("fflags", fflags);
    printf("%-34s fcsr=%02llx frm=%llx fflags=%02llx\n", what, (unsigned long long)fcsr,
           (unsigned long long)frm, (unsigned long long)fflags);
    mix(fcsr);
}

/* One Zicsr instruction (or F pseudo-instruction) on the FP CSRs, with the register source v or
 * without one, its old value in old; then the FP CSRs as it left them, labelled after. */
#define FP_CSR_R(insn, v, after)                                  \
    do {                                                          \
        __asm__ volatile(insn : "=r"(old) : "r"(v));              \
        show_fp_csrs(after);                                      \
    } while (0)
#define FP_CSR_I(insn, after)                                     \
    do {                                                          \
        __asm__ volatile(insn : "=r"(old));                       \
        show_fp_csrs(after);                                      \
    } while (0)

static void test_fcsr(void) {
    u64 old;
    show_fp_csrs("initial");
    __asm__ volatile("csrrw %0, fcsr, %1" : "=r"(old) : "r"(0xffull));
    printf("csrrw fcsr 0xff old=%llx\n", (unsigned long long)old);
    show_fp_csrs("after fcsr=0xff");
    FP_CSR_R("csrrw %0, fcsr, %1", 0xffffffffffffffffull, "after fcsr=~0 (upper bits dropped)");
    FP_CSR_R("csrrw %0, fcsr, %1", 0x1234ull, "after fcsr=0x1234");
    FP_CSR_I("csrrwi %0, fcsr, 0", "after csrrwi fcsr 0");
    FP_CSR_I("csrrwi %0, frm, 3", "after csrrwi frm 3");
    FP_CSR_R("csrrw %0, frm, %1", 0xfdull, "after csrrw frm 0xfd");
    __asm__ volatile("csrrw %0, fflags, %1" : "=r"(old) : "r"(0xeaull));
    printf("csrrw fflags 0xea old=%llx\n", (unsigned long long)old);
    show_fp_csrs("after fflags=0xea");
    FP_CSR_I("csrrsi %0, fflags, 0x15", "after csrrsi fflags 0x15");
    FP_CSR_I("csrrci %0, fflags, 0x3", "after csrrci fflags 0x3");
    FP_CSR_R("csrrs %0, fcsr, %1", 0x20ull, "after csrrs fcsr 0x20");
    FP_CSR_R("csrrc %0, fcsr, %1", 0xe1ull, "after csrrc fcsr 0xe1");
    __asm__ volatile("csrrs %0, frm, zero" : "=r"(old));
    printf("csrrs frm zero -> %llx\n", (unsigned long long)old);
    FP_CSR_R("fsrm %0, %1", 1ull, "after fsrm 1");
    FP_CSR_R("fsflags %0, %1", 0ull, "after fsflags 0");
    FP_CSR_R("fscsr %0, %1", 0ull, "after fscsr 0");
    /* rd == x0 with csrrw: write without read */
    __asm__ volatile("csrw fflags, %0" : : "r"(0x11ull));
    show_fp_csrs("after csrw fflags 0x11");
    __asm__ volatile("csrwi fcsr, 0");
    psum("fcsr");
}

/* Accrued flags from real operations (fp_vectors.c covers results in depth). */
static void flags_of(const char *what, double a, double b, int op) {
    double r;
    u64 fl;
    __asm__ volatile("csrwi fflags, 0");
    switch (op) {
    case 0: __asm__ volatile("fdiv.d %0, %1, %2" : "=f"(r) : "f"(a), "f"(b)); break;
    case 1: __asm__ volatile("fmul.d %0, %1, %2" : "=f"(r) : "f"(a), "f"(b)); break;
    default: __asm__ volatile("fsqrt.d %0, %1" : "=f"(r) : "f"(a)); break;
    }
    CSRR("fflags", fl);
    u64 bits;
    memcpy(&bits, &r, 8);
    printf("flags %-18s -> %016llx fflags=%02llx\n", what, (unsigned long long)bits,
           (unsigned long long)fl);
    mix(bits); mix(fl);
}

static void test_flags_and_rounding(void) {
    volatile double one = 1.0, zero = 0.0, three = 3.0, big = 1e300, tiny = 1e-300, neg = -1.0;
    flags_of("1/0", one, zero, 0);
    flags_of("0/0", zero, zero, 0);
    flags_of("1/3", one, three, 0);
    flags_of("1e300*1e300", big, big, 1);
    flags_of("1e-300*1e-300", tiny, tiny, 1);
    flags_of("1*3 exact", one, three, 1);
    flags_of("sqrt(-1)", neg, 0, 2);
    /* dynamic rounding mode: 1/3 and -1/3 in single precision under each frm */
    static const char *const RM[] = {"RNE", "RTZ", "RDN", "RUP", "RMM"};
    volatile float f1 = 1.0f, f3 = 3.0f, fm1 = -1.0f, f2 = 2.0f;
    for (u64 rm = 0; rm < 5; rm++) {
        float p, n, h;
        __asm__ volatile("fsrm %0" : : "r"(rm));
        __asm__ volatile("fdiv.s %0, %1, %2" : "=f"(p) : "f"(f1), "f"(f3));
        __asm__ volatile("fdiv.s %0, %1, %2" : "=f"(n) : "f"(fm1), "f"(f3));
        /* 2.5 -> int: ties behave differently under RNE and RMM */
        float t = 2.5f * f1;
        long ti;
        __asm__ volatile("fcvt.l.s %0, %1" : "=r"(ti) : "f"(t));
        (void)f2;
        h = p + n; /* exact, just keep it used */
        u32 pb, nb;
        memcpy(&pb, &p, 4);
        memcpy(&nb, &n, 4);
        printf("frm=%s 1/3=%08x -1/3=%08x fcvt.l.s(2.5)=%ld sum=%a\n", RM[rm], pb, nb, ti, h);
        mix(pb); mix(nb); mix(ti);
    }
    __asm__ volatile("fsrm %0" : : "r"(0ull));
    /* static rounding modes in the instruction override frm */
    __asm__ volatile("fsrm %0" : : "r"(3ull)); /* RUP */
    float a, b;
    __asm__ volatile("fdiv.s %0, %1, %2, rtz" : "=f"(a) : "f"(f1), "f"(f3));
    __asm__ volatile("fdiv.s %0, %1, %2, dyn" : "=f"(b) : "f"(f1), "f"(f3));
    u32 ab, bb;
    memcpy(&ab, &a, 4);
    memcpy(&bb, &b, 4);
    printf("static rtz under frm=RUP: %08x, dyn: %08x\n", ab, bb);
    mix(ab); mix(bb);
    __asm__ volatile("fscsr zero");
    psum("flags-rounding");
}

/* ---- fence.i ---- */
#define ADDI_A0(imm) (0x00000513u | ((u32)(imm) & 0xfff) << 20) /* addi a0, zero, imm */
#define ADDI_A0A0(imm) (0x00050513u | ((u32)(imm) & 0xfff) << 20) /* addi a0, a0, imm */
#define RET 0x00008067u                                             /* jalr zero, 0(ra) */

static void test_fence_i(void) {
    u32 *code = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (code == MAP_FAILED) { printf("mmap rwx failed\n"); return; }
    long (*fn)(long) = (long (*)(long))code;
    code[0] = ADDI_A0(0x111);
    code[1] = RET;
    __asm__ volatile("fence.i" ::: "memory");
    long r1 = fn(0);
    code[0] = ADDI_A0(0x222);
    __asm__ volatile("fence.i" ::: "memory");
    long r2 = fn(0);
    printf("rwx: first=%lx second=%lx\n", r1, r2);
    /* grow the function: a loop body executed many times, then patched */
    code[0] = ADDI_A0A0(1);
    code[1] = ADDI_A0A0(2);
    code[2] = RET;
    __asm__ volatile("fence.i" ::: "memory");
    long acc = 0;
    for (int i = 0; i < 1000; i++) acc = fn(acc);
    code[1] = ADDI_A0A0(-7); /* patch the middle instruction only */
    __asm__ volatile("fence.i" ::: "memory");
    long acc2 = fn(0);
    for (int i = 0; i < 999; i++) acc2 = fn(acc2);
    printf("rwx hot loop: before=%ld after-patch=%ld\n", acc, acc2);
    /* compressed code words written as halfwords: c.li a0, 5 ; c.jr ra */
    unsigned short *h = (unsigned short *)&code[16];
    h[0] = 0x4515; /* c.li a0, 5 */
    h[1] = 0x8082; /* c.jr ra */
    __asm__ volatile("fence.i" ::: "memory");
    long r3 = ((long (*)(long))h)(0);
    h[0] = 0x4525; /* c.li a0, 9 */
    __asm__ volatile("fence.i" ::: "memory");
    long r4 = ((long (*)(long))h)(0);
    printf("rwx rvc: first=%ld second=%ld\n", r3, r4);
    munmap(code, 4096);

    /* JIT style: write while RW, flip to RX, run, flip back, patch, flip, run */
    u32 *jit = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (jit == MAP_FAILED) { printf("mmap rw failed\n"); return; }
    jit[0] = ADDI_A0(-1);
    jit[1] = RET;
    mprotect(jit, 4096, PROT_READ | PROT_EXEC);
    __asm__ volatile("fence.i" ::: "memory");
    long j1 = ((long (*)(long))jit)(0);
    mprotect(jit, 4096, PROT_READ | PROT_WRITE);
    jit[0] = ADDI_A0(0x7ff);
    mprotect(jit, 4096, PROT_READ | PROT_EXEC);
    __asm__ volatile("fence.i" ::: "memory");
    long j2 = ((long (*)(long))jit)(0);
    printf("jit rw->rx: first=%ld second=%ld\n", j1, j2);
    munmap(jit, 4096);
}

int main(void) {
    test_counters();
    test_fcsr();
    test_flags_and_rounding();
    test_fence_i();
    printf("csr done\n");
    return 0;
}
