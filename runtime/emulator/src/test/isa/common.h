/* Shared helpers for the ISA differential test programs.
 * Everything is printed in hex with fixed widths so that a diff against
 * qemu-riscv64's output points at the exact operation and operands. */
#ifndef ISA_COMMON_H
#define ISA_COMMON_H
#include <stdint.h>
#include <stdio.h>

typedef uint64_t u64;
typedef int64_t  s64;
typedef uint32_t u32;
typedef int32_t  s32;

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* Inline asm assembled with its 32-bit encodings (compressed.c covers RVC). */
#define NORVC(s) ".option push\n\t.option norvc\n\t" s "\n\t.option pop\n"

/* rr_NAME(a, b): the register-register instruction NAME on a and b. */
#define RR(name)                                                              \
    static u64 rr_##name(u64 a, u64 b) {                                      \
        u64 r;                                                                \
        __asm__ volatile(NORVC(#name " %0, %1, %2") : "=r"(r) : "r"(a), "r"(b)); \
        return r;                                                             \
    }

/* Edge operands shared by the integer tests. */
static const u64 EDGE[] = {
    0x0000000000000000ull, 0x0000000000000001ull, 0xffffffffffffffffull,
    0x000000007fffffffull, 0xffffffff80000000ull, 0x0000000080000000ull,
    0x00000000ffffffffull, 0x7fffffffffffffffull, 0x8000000000000000ull,
    0x0000000000000002ull, 0xfffffffffffffffeull, 0x123456789abcdef0ull,
    0xfedcba9876543210ull, 0x00000000deadbeefull, 0x5555555555555555ull,
};

/* Rolling checksum so long sections can end with one summary line. */
static u64 g_sum = 0xcbf29ce484222325ull;
static inline void mix(u64 v) {
    for (int i = 0; i < 8; i++) {
        g_sum ^= (v >> (8 * i)) & 0xff;
        g_sum *= 0x100000001b3ull;
    }
}

static inline void p2(const char *op, u64 a, u64 r) {
    printf("%-8s %016llx -> %016llx\n", op, (unsigned long long)a, (unsigned long long)r);
    mix(r);
}
static inline void p3(const char *op, u64 a, u64 b, u64 r) {
    printf("%-8s %016llx %016llx -> %016llx\n", op, (unsigned long long)a,
           (unsigned long long)b, (unsigned long long)r);
    mix(r);
}
/* Row format for cross products: the column operands are printed once with
 * header(), then each row is "op a: r(a,b0) r(a,b1) ...". */
static inline void header(const char *what, const u64 *b, unsigned n) {
    printf("columns %s:", what);
    for (unsigned j = 0; j < n; j++) printf(" %016llx", (unsigned long long)b[j]);
    printf("\n");
}
static inline void row_begin(const char *op, u64 a) {
    printf("%-6s %016llx:", op, (unsigned long long)a);
}
static inline void row_item(u64 r) {
    printf(" %016llx", (unsigned long long)r);
    mix(r);
}
static inline void row_end(void) { printf("\n"); }
static inline void psum(const char *what) {
    printf("checksum %s %016llx\n", what, (unsigned long long)g_sum);
}

#endif
