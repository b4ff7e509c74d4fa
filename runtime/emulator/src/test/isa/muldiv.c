/* muldiv: the RV64M extension -- mul, mulh, mulhsu, mulhu, mulw, div, divu,
 * rem, remu, divw, divuw, remw, remuw -- over edge operands, including
 * division by zero (quotient all ones / dividend as remainder) and the signed
 * overflow cases INT64_MIN / -1 and INT32_MIN / -1 (quotient = dividend,
 * remainder 0).  32-bit encodings only (.option norvc).  Exit status 0. */
#include "common.h"

RR(mul) RR(mulh) RR(mulhsu) RR(mulhu) RR(mulw)
RR(div) RR(divu) RR(rem) RR(remu) RR(divw) RR(divuw) RR(remw) RR(remuw)

typedef u64 (*rrfn)(u64, u64);
static const struct { const char *name; rrfn f; } OPS[] = {
    {"mul", rr_mul},   {"mulh", rr_mulh}, {"mulhsu", rr_mulhsu}, {"mulhu", rr_mulhu},
    {"mulw", rr_mulw}, {"div", rr_div},   {"divu", rr_divu},     {"rem", rr_rem},
    {"remu", rr_remu}, {"divw", rr_divw}, {"divuw", rr_divuw},   {"remw", rr_remw},
    {"remuw", rr_remuw},
};

/* Operands beyond EDGE: small divisors and values whose low 32 bits differ
 * in sign from the full 64-bit value (to catch *w forms using 64-bit inputs). */
static const u64 EXTRA[] = {
    0x0000000000000003ull, 0xfffffffffffffffdull, 0x0000000000000007ull,
    0x00000001fffffffdull, 0xffffffff00000003ull, 0x100000000ull,
    0x8000000000000001ull, 0x00000000fffffffeull,
};

int main(void) {
    u64 ops[NELEM(EDGE) + NELEM(EXTRA)];
    unsigned n = 0;
    for (unsigned i = 0; i < NELEM(EDGE); i++) ops[n++] = EDGE[i];
    for (unsigned i = 0; i < NELEM(EXTRA); i++) ops[n++] = EXTRA[i];

    header("rs2", ops, n);
    for (unsigned k = 0; k < NELEM(OPS); k++) {
        for (unsigned i = 0; i < n; i++) {
            row_begin(OPS[k].name, ops[i]);
            for (unsigned j = 0; j < n; j++) row_item(OPS[k].f(ops[i], ops[j]));
            row_end();
        }
        psum(OPS[k].name);
    }

    /* Named special cases, also printed on their own for readability. */
    printf("div  INT64_MIN/-1 = %016llx\n", (unsigned long long)rr_div(0x8000000000000000ull, -1));
    printf("rem  INT64_MIN/-1 = %016llx\n", (unsigned long long)rr_rem(0x8000000000000000ull, -1));
    printf("divw INT32_MIN/-1 = %016llx\n", (unsigned long long)rr_divw(0x80000000ull, -1));
    printf("remw INT32_MIN/-1 = %016llx\n", (unsigned long long)rr_remw(0x80000000ull, -1));
    printf("div  x/0 = %016llx\n", (unsigned long long)rr_div(12345, 0));
    printf("divu x/0 = %016llx\n", (unsigned long long)rr_divu(12345, 0));
    printf("rem  x/0 = %016llx\n", (unsigned long long)rr_rem(-12345, 0));
    printf("remu x/0 = %016llx\n", (unsigned long long)rr_remu(-12345, 0));
    printf("divw x/0 = %016llx\n", (unsigned long long)rr_divw(0x1234567880000000ull, 0));
    printf("divuw x/0 = %016llx\n", (unsigned long long)rr_divuw(0x1234567880000000ull, 0));
    printf("remw x/0 = %016llx\n", (unsigned long long)rr_remw(0x1234567880000000ull, 0));
    printf("remuw x/0 = %016llx\n", (unsigned long long)rr_remuw(0x1234567880000000ull, 0));
    /* rd aliasing an input register */
    u64 a = 0xfffffffffffffff9ull, b = 2;
    __asm__ volatile(NORVC("div %0, %0, %1") : "+r"(a) : "r"(b));
    printf("div rd==rs1 -7/2 = %016llx\n", (unsigned long long)a);
    a = 0xfffffffffffffff9ull;
    __asm__ volatile(NORVC("rem %0, %1, %0") : "+r"(b) : "r"(a));
    printf("rem rd==rs2 -7%%2 = %016llx\n", (unsigned long long)b);
    printf("muldiv done\n");
    return 0;
}
