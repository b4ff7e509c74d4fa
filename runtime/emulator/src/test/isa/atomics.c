/* atomics: the A extension.  Every AMO (swap/add/xor/and/or/min/max/minu/maxu)
 * in .w and .d form with each ordering suffix (none, .aq, .rl, .aqrl), over a
 * grid of memory values x register operands; each cell prints the value
 * returned in rd (for .w: sign-extended 32-bit old value) and the new memory
 * value.  The neighbouring word of every .w target is checked for corruption.
 * LR/SC: success, forced failures (SC with no reservation, SC after an SC,
 * SC to a different address than the LR), ordering variants, and a CAS loop.
 * Exit status 0. */
#include "common.h"


typedef u64 (*amofn)(void *, u64);
#define AMO(id, insn)                                                          \
    static u64 id(void *p, u64 v) {                                            \
        u64 r;                                                                 \
        __asm__ volatile(NORVC(insn " %0, %2, (%1)") : "=&r"(r) : "r"(p), "r"(v) : "memory"); \
        return r;                                                              \
    }
#define AMO4(op, w)                                                            \
    AMO(op##_##w, #op "." #w) AMO(op##_##w##_aq, #op "." #w ".aq")             \
    AMO(op##_##w##_rl, #op "." #w ".rl") AMO(op##_##w##_aqrl, #op "." #w ".aqrl")
#define AMOBOTH(op) AMO4(op, w) AMO4(op, d)
AMOBOTH(amoswap) AMOBOTH(amoadd) AMOBOTH(amoxor) AMOBOTH(amoand) AMOBOTH(amoor)
AMOBOTH(amomin) AMOBOTH(amomax) AMOBOTH(amominu) AMOBOTH(amomaxu)

#define ENT(op, w)                                                             \
    {#op "." #w, op##_##w, 0}, {#op "." #w ".aq", op##_##w##_aq, 1},           \
    {#op "." #w ".rl", op##_##w##_rl, 1}, {#op "." #w ".aqrl", op##_##w##_aqrl, 1}
static const struct { const char *name; amofn f; int small; } WOPS[] = {
    ENT(amoswap, w), ENT(amoadd, w), ENT(amoxor, w), ENT(amoand, w), ENT(amoor, w),
    ENT(amomin, w), ENT(amomax, w), ENT(amominu, w), ENT(amomaxu, w),
}, DOPS[] = {
    ENT(amoswap, d), ENT(amoadd, d), ENT(amoxor, d), ENT(amoand, d), ENT(amoor, d),
    ENT(amomin, d), ENT(amomax, d), ENT(amominu, d), ENT(amomaxu, d),
};

/* 32-bit memory values and register operands (upper register bits must be
 * ignored by .w operations, so some operands carry junk there). */
static const u32 WMEM[] = {0, 1, 0x7fffffff, 0x80000000, 0xffffffff, 0x12345678, 0xfffffffe};
static const u64 WREG[] = {0, 1, 0xffffffffffffffffull, 0x7fffffff, 0xffffffff80000000ull,
                           0x0000000180000000ull, 0xabcdef0012345679ull, 0x00000000fffffffeull};
static const u64 DMEM[] = {0, 1, 0xffffffffffffffffull, 0x7fffffffffffffffull,
                           0x8000000000000000ull, 0x00000000ffffffffull, 0x123456789abcdef0ull};
static const u64 DREG[] = {0, 1, 0xffffffffffffffffull, 0x7fffffffffffffffull,
                           0x8000000000000000ull, 0x0000000080000000ull, 0xfedcba9876543210ull,
                           0x00000000ffffffffull};

static u64 slot[4] __attribute__((aligned(16)));

static void test_amo(void) {
    header("rs2 (.w)", WREG, NELEM(WREG));
    for (unsigned k = 0; k < NELEM(WOPS); k++) {
        for (unsigned i = 0; i < NELEM(WMEM); i++) {
            /* the plain form over the full grid, the ordered forms over the
             * first three memory values only */
            if (WOPS[k].small && i >= 3) break;
            for (int half = 0; half < 2; half++) {
                /* half 0: low word of the slot, half 1: high word */
                row_begin(WOPS[k].name, WMEM[i]);
                printf(half ? " hi" : " lo");
                for (unsigned j = 0; j < NELEM(WREG); j++) {
                    u32 *w = (u32 *)&slot[1];
                    w[0] = w[1] = 0xa5a5a5a5;
                    w[half] = WMEM[i];
                    u64 r = WOPS[k].f(&w[half], WREG[j]);
                    printf(" %016llx/%08x", (unsigned long long)r, w[half]);
                    mix(r); mix(w[half]);
                    if (w[!half] != 0xa5a5a5a5 || slot[0] || slot[2])
                        printf("!neighbour-clobbered");
                }
                printf("\n");
            }
        }
        psum(WOPS[k].name);
    }
    header("rs2 (.d)", DREG, NELEM(DREG));
    for (unsigned k = 0; k < NELEM(DOPS); k++) {
        for (unsigned i = 0; i < NELEM(DMEM); i++) {
            if (DOPS[k].small && i >= 3) break;
            row_begin(DOPS[k].name, DMEM[i]);
            for (unsigned j = 0; j < NELEM(DREG); j++) {
                slot[0] = slot[2] = 0;
                slot[1] = DMEM[i];
                u64 r = DOPS[k].f(&slot[1], DREG[j]);
                printf(" %016llx/%016llx", (unsigned long long)r, (unsigned long long)slot[1]);
                mix(r); mix(slot[1]);
                if (slot[0] || slot[2]) printf("!neighbour-clobbered");
            }
            printf("\n");
        }
        psum(DOPS[k].name);
    }
}

static void test_amo_regs(void) {
    /* rd == x0: only memory changes */
    slot[1] = 5;
    __asm__ volatile(NORVC("amoadd.d x0, %1, (%0)") : : "r"(&slot[1]), "r"(7ull) : "memory");
    p2("amoadd.d-rd=x0", 5, slot[1]);
    /* rd == rs2: the register operand must be read before rd is written */
    u64 v = 0x1111;
    slot[1] = 0x2222;
    __asm__ volatile(NORVC("amoswap.d %0, %0, (%1)") : "+r"(v) : "r"(&slot[1]) : "memory");
    printf("amoswap.d rd==rs2: rd=%016llx mem=%016llx\n", (unsigned long long)v,
           (unsigned long long)slot[1]);
    v = 0x80000000;
    *(u32 *)&slot[1] = 0x7fffffff;
    __asm__ volatile(NORVC("amoadd.w %0, %0, (%1)") : "+r"(v) : "r"(&slot[1]) : "memory");
    printf("amoadd.w rd==rs2: rd=%016llx mem=%08x\n", (unsigned long long)v, *(u32 *)&slot[1]);
    /* rd == rs1: the address must be read before rd is written */
    u64 p = (u64)&slot[1];
    slot[1] = 0x3333;
    __asm__ volatile(NORVC("amoor.d %0, %1, (%0)") : "+r"(p) : "r"(0x4ull) : "memory");
    printf("amoor.d rd==rs1: rd=%016llx mem=%016llx\n", (unsigned long long)p,
           (unsigned long long)slot[1]);
    /* plain load x0 dependency: amoswap with x0 operand writes zero */
    slot[1] = 0xdead;
    __asm__ volatile(NORVC("amoswap.d %0, x0, (%1)") : "=r"(v) : "r"(&slot[1]) : "memory");
    printf("amoswap.d rs2=x0: rd=%016llx mem=%016llx\n", (unsigned long long)v,
           (unsigned long long)slot[1]);
    psum("amo-regs");
}

/* ---- LR/SC ---- */
#define LRSC(lr, sc, ty, fmt)                                                 \
    do {                                                                      \
        u64 old, rc;                                                          \
        __asm__ volatile(NORVC(lr " %0, (%2)\n\t" sc " %1, %3, (%2)")         \
                         : "=&r"(old), "=&r"(rc) : "r"(p), "r"(nv) : "memory"); \
        printf("%s/%s: old=%016llx sc=%llu mem=" fmt "\n", lr, sc,            \
               (unsigned long long)old, (unsigned long long)rc, (unsigned long long)*(ty *)p);    \
        mix(old); mix(rc);                                                    \
    } while (0)

static void test_lrsc(void) {
    void *p = &slot[1];
    u64 nv;
    slot[1] = 0x0123456789abcdefull;
    nv = 0xffffffff80000001ull;
    /* lr.w sign-extends; sc.w stores only the low word */
    LRSC("lr.w", "sc.w", u32, "%08llx");
    *(u32 *)p = 0x80000000; nv = 0x7fffffff;
    LRSC("lr.w.aq", "sc.w.rl", u32, "%08llx");
    *(u32 *)p = 0xfffffffe; nv = 0x12345678;
    LRSC("lr.w.aqrl", "sc.w.aqrl", u32, "%08llx");
    printf("slot high word after .w ops: %08x\n", ((u32 *)&slot[1])[1]);
    slot[1] = 0x8000000000000000ull; nv = 0xfedcba9876543210ull;
    LRSC("lr.d", "sc.d", u64, "%016llx");
    nv = 42;
    LRSC("lr.d.aq", "sc.d.rl", u64, "%016llx");
    nv = 43;
    LRSC("lr.d.aqrl", "sc.d.aqrl", u64, "%016llx");

    /* forced failures */
    u64 rc1, rc2, t;
    slot[1] = 100;
    /* SC after a successful SC: the reservation is gone */
    __asm__ volatile(NORVC("lr.d %2, (%3)\n\tsc.d %0, %4, (%3)\n\tsc.d %1, %5, (%3)")
                     : "=&r"(rc1), "=&r"(rc2), "=&r"(t) : "r"(p), "r"(101ull), "r"(999ull) : "memory");
    printf("sc after sc: first=%llu second=%llu mem=%llu\n", (unsigned long long)rc1,
           (unsigned long long)rc2, (unsigned long long)slot[1]);
    mix(rc1); mix(rc2); mix(slot[1]);
    /* SC to a different address than the LR */
    slot[1] = 200; slot[2] = 300;
    __asm__ volatile(NORVC("lr.d %1, (%2)\n\tsc.d %0, %4, (%3)")
                     : "=&r"(rc1), "=&r"(t) : "r"(p), "r"(&slot[2]), "r"(777ull) : "memory");
    printf("sc other address: rc=%llu mem=%llu other=%llu\n", (unsigned long long)rc1,
           (unsigned long long)slot[1], (unsigned long long)slot[2]);
    mix(rc1); mix(slot[2]);
    /* sc.w with no LR at all since the last SC */
    __asm__ volatile(NORVC("sc.w %0, %2, (%1)") : "=&r"(rc1) : "r"(p), "r"(555ull) : "memory");
    printf("sc.w without lr: rc=%llu mem=%llu\n", (unsigned long long)rc1,
           (unsigned long long)slot[1]);
    mix(rc1); mix(slot[1]);
    /* an lr.w whose reservation is consumed by an intervening failed sc */
    slot[1] = 1;
    __asm__ volatile(NORVC("lr.w %2, (%3)\n\tsc.w %0, %4, (%5)\n\tsc.w %1, %4, (%3)")
                     : "=&r"(rc1), "=&r"(rc2), "=&r"(t)
                     : "r"(p), "r"(9ull), "r"(&slot[2]) : "memory");
    printf("sc after failed sc: first=%llu second=%llu mem=%llu\n", (unsigned long long)rc1,
           (unsigned long long)rc2, (unsigned long long)slot[1]);
    mix(rc1); mix(rc2);

    /* the usual retry loop: atomic increment via lr/sc, 1000 times */
    slot[1] = 0;
    for (int i = 0; i < 1000; i++) {
        u64 tmp, fail;
        __asm__ volatile(NORVC("1: lr.d %0, (%2)\n\taddi %0, %0, 1\n\tsc.d %1, %0, (%2)\n\tbnez %1, 1b")
                         : "=&r"(tmp), "=&r"(fail) : "r"(p) : "memory");
    }
    printf("lr/sc increment loop: %llu\n", (unsigned long long)slot[1]);
    /* compare-and-swap built from lr.w/sc.w, as __atomic_compare_exchange does */
    u32 word = 0x80000000u;
    int ok = __atomic_compare_exchange_n(&word, &(u32){0x80000000u}, 0x7fffffffu, 0,
                                         __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    printf("cas.w match: ok=%d word=%08x\n", ok, word);
    u32 expect = 5;
    ok = __atomic_compare_exchange_n(&word, &expect, 6, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    printf("cas.w mismatch: ok=%d word=%08x expected-now=%08x\n", ok, word, expect);
    mix(slot[1]); mix(word);
    psum("lrsc");
}

int main(void) {
    test_amo();
    test_amo_regs();
    test_lrsc();
    printf("atomics done\n");
    return 0;
}
