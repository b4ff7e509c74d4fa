/* int_alu: every RV64I integer instruction (the M extension lives in muldiv.c)
 * over edge operands.  All inline asm is assembled with `.option norvc` so the
 * 32-bit encodings are exercised (compressed.c covers RVC).
 * Exit status 0; each section ends with a checksum line. */
#include "common.h"
#include <string.h>

/* ---- register-register ops ---- */
RR(add) RR(sub) RR(sll) RR(srl) RR(sra) RR(slt) RR(sltu) RR(xor) RR(or) RR(and)
RR(addw) RR(subw) RR(sllw) RR(srlw) RR(sraw)

typedef u64 (*rrfn)(u64, u64);
typedef struct { const char *name; rrfn f; } rrop;
static const rrop RROPS[] = {
    {"add", rr_add},   {"sub", rr_sub},   {"slt", rr_slt},   {"sltu", rr_sltu},
    {"xor", rr_xor},   {"or", rr_or},     {"and", rr_and},   {"addw", rr_addw},
    {"subw", rr_subw},
};
static const rrop SHOPS[] = {
    {"sll", rr_sll},   {"srl", rr_srl},   {"sra", rr_sra},
    {"sllw", rr_sllw}, {"srlw", rr_srlw}, {"sraw", rr_sraw},
};
/* Shift amounts: only the low 6 (or 5 for *w) bits may be used. */
static const u64 SHAMT[] = {0, 1, 2, 31, 32, 33, 63, 64, 65, 127,
                            0xffffffffffffffffull, 0xffffffffffffffe0ull,
                            0x8000000000000020ull};

/* Each of the n ops over every EDGE row and every one of the ncol column operands (printed first
 * as what), with a checksum line per op. */
static void cross(const char *what, const rrop *ops, unsigned n, const u64 *col, unsigned ncol) {
    header(what, col, ncol);
    for (unsigned k = 0; k < n; k++) {
        for (unsigned i = 0; i < NELEM(EDGE); i++) {
            row_begin(ops[k].name, EDGE[i]);
            for (unsigned j = 0; j < ncol; j++) row_item(ops[k].f(EDGE[i], col[j]));
            row_end();
        }
        psum(ops[k].name);
    }
}

static void test_rr(void) {
    cross("rs2", RROPS, NELEM(RROPS), EDGE, NELEM(EDGE));
    cross("shamt", SHOPS, NELEM(SHOPS), SHAMT, NELEM(SHAMT));
}

/* ---- register-immediate ops ---- */
#define RI(insn, imm)                                                         \
    do {                                                                      \
        for (unsigned i = 0; i < NELEM(EDGE); i++) {                          \
            u64 r;                                                            \
            __asm__ volatile(NORVC(insn " %0, %1, " #imm) : "=r"(r) : "r"(EDGE[i])); \
            p3(insn, EDGE[i], (u64)(s64)(imm), r);                            \
        }                                                                     \
    } while (0)

static void test_ri(void) {
    RI("addi", 0); RI("addi", 1); RI("addi", -1); RI("addi", 2047); RI("addi", -2048);
    psum("addi");
    RI("slti", 0); RI("slti", 1); RI("slti", -1); RI("slti", 2047); RI("slti", -2048);
    psum("slti");
    RI("sltiu", 0); RI("sltiu", 1); RI("sltiu", -1); RI("sltiu", 2047); RI("sltiu", -2048);
    psum("sltiu");
    RI("xori", -1); RI("xori", 0x555); RI("xori", -2048); RI("xori", 0);
    psum("xori");
    RI("ori", -1); RI("ori", 0x555); RI("ori", -2048); RI("ori", 0);
    psum("ori");
    RI("andi", -1); RI("andi", 0x555); RI("andi", -2048); RI("andi", 0); RI("andi", 2047);
    psum("andi");
    RI("slli", 0); RI("slli", 1); RI("slli", 31); RI("slli", 32); RI("slli", 63);
    psum("slli");
    RI("srli", 0); RI("srli", 1); RI("srli", 31); RI("srli", 32); RI("srli", 63);
    psum("srli");
    RI("srai", 0); RI("srai", 1); RI("srai", 31); RI("srai", 32); RI("srai", 63);
    psum("srai");
    RI("addiw", 0); RI("addiw", 1); RI("addiw", -1); RI("addiw", 2047); RI("addiw", -2048);
    psum("addiw");
    RI("slliw", 0); RI("slliw", 1); RI("slliw", 31);
    psum("slliw");
    RI("srliw", 0); RI("srliw", 1); RI("srliw", 31);
    psum("srliw");
    RI("sraiw", 0); RI("sraiw", 1); RI("sraiw", 31);
    psum("sraiw");
}

/* ---- lui / auipc ---- */
#define LUI(imm)                                                              \
    do {                                                                      \
        u64 r;                                                                \
        __asm__ volatile(NORVC("lui %0, " #imm) : "=r"(r));                   \
        p2("lui", (u64)(imm), r);                                             \
    } while (0)
/* auipc result relative to the pc of the following instruction (pc+4). */
#define AUIPC(imm)                                                            \
    do {                                                                      \
        u64 r, t;                                                             \
        __asm__ volatile(NORVC("auipc %0, " #imm "\n\tauipc %1, 0\n\tsub %0, %0, %1") \
                         : "=&r"(r), "=&r"(t));                               \
        p2("auipc-pc", (u64)(imm), r);                                        \
    } while (0)

static void test_upper(void) {
    LUI(0); LUI(1); LUI(0x7ffff); LUI(0x80000); LUI(0xfffff); LUI(0x12345); LUI(0xabcde);
    AUIPC(0); AUIPC(1); AUIPC(0x7ffff); AUIPC(0x80000); AUIPC(0xfffff); AUIPC(0x12345);
    psum("upper");
}

/* ---- branches ---- */
#define BR(name)                                                              \
    static int br_##name(u64 a, u64 b) {                                      \
        int r;                                                                \
        __asm__ volatile(NORVC("li %0, 1\n\t" #name " %1, %2, 1f\n\tli %0, 0\n1:") \
                         : "=&r"(r) : "r"(a), "r"(b));                        \
        return r;                                                             \
    }
BR(beq) BR(bne) BR(blt) BR(bge) BR(bltu) BR(bgeu)

/* Backward branches: count down a loop using each condition. */
static u64 loop_back(u64 n) {
    u64 cnt = 0;
    __asm__ volatile(NORVC("1: addi %0, %0, 1\n\taddi %1, %1, -1\n\tbne %1, zero, 1b")
                     : "+r"(cnt), "+r"(n));
    return cnt;
}
static u64 loop_back_bltu(u64 n) {
    u64 i = 0;
    __asm__ volatile(NORVC("1: addi %0, %0, 3\n\tbltu %0, %1, 1b") : "+r"(i) : "r"(n));
    return i;
}

static void test_branches(void) {
    for (unsigned i = 0; i < NELEM(EDGE); i++)
        for (unsigned j = 0; j < NELEM(EDGE); j++) {
            u64 a = EDGE[i], b = EDGE[j];
            int m = br_beq(a, b) << 5 | br_bne(a, b) << 4 | br_blt(a, b) << 3 |
                    br_bge(a, b) << 2 | br_bltu(a, b) << 1 | br_bgeu(a, b);
            printf("br %016llx %016llx eq=%d ne=%d lt=%d ge=%d ltu=%d geu=%d\n",
                   (unsigned long long)a, (unsigned long long)b, m >> 5 & 1, m >> 4 & 1,
                   m >> 3 & 1, m >> 2 & 1, m >> 1 & 1, m & 1);
            mix(m);
        }
    /* same register on both sides */
    int same;
    __asm__ volatile(NORVC("li %0, 0\n\tbeq %0, %0, 1f\n\tli %0, 9\n1:\tbge %0, %0, 2f\n\tli %0, 8\n2:\tbltu %0, %0, 3f\n\taddi %0, %0, 1\n3:")
                     : "=&r"(same));
    printf("br-same-reg %d\n", same);
    printf("loop-back 1000 -> %llu\n", (unsigned long long)loop_back(1000));
    printf("loop-back-bltu 100 -> %llu\n", (unsigned long long)loop_back_bltu(100));
    psum("branches");
}

/* ---- jal / jalr ---- */
static void pj(const char *n, u64 r) {
    printf("%s %016llx\n", n, (unsigned long long)r);
    mix(r);
}
/* A jump that `jump` computes from the address of label 1 (in %1) and must land there:
 * %0 = 0x600d when it does, 0xbad when it falls through. */
#define LANDS_AT_1(jump) \
    NORVC("lla %1, 1f\n\t" jump "\n\tli %0, 0xbad\n\tj 2f\n1:\tli %0, 0x600d\n2:")

static void test_jumps(void) {
    u64 r, t;
    /* jal link register = address of next instruction */
    __asm__ volatile(NORVC("jal %0, 1f\n2:\tnop\n1:\tlla %1, 2b\n\tsub %0, %0, %1")
                     : "=&r"(r), "=&r"(t));
    pj("jal link-next", r);
    /* jal backwards */
    __asm__ volatile(NORVC("li %0, 0\n\tj 2f\n1:\taddi %0, %0, 5\n\tj 3f\n2:\taddi %0, %0, 1\n\tjal zero, 1b\n3:")
                     : "=&r"(r));
    pj("jal backward", r);
    /* jalr to an odd address: bit 0 is cleared */
    __asm__ volatile(LANDS_AT_1("addi %1, %1, 1\n\tjalr %1, 0(%1)") : "=&r"(r), "=&r"(t));
    pj("jalr odd-reg", r);
    /* odd sum of even register and odd immediate, base - 3 + 4 = target + 1 */
    __asm__ volatile(LANDS_AT_1("addi %1, %1, -3\n\tjalr ra, 4(%1)") : "=&r"(r), "=&r"(t) : : "ra");
    pj("jalr odd-sum", r);
    /* negative immediate */
    __asm__ volatile(LANDS_AT_1("addi %1, %1, 2047\n\tjalr zero, -2047(%1)")
                     : "=&r"(r), "=&r"(t));
    pj("jalr neg-imm", r);
    /* rd == rs1: target uses the old value, rd gets the link */
    __asm__ volatile(NORVC("lla %0, 1f\n\tjalr %0, 0(%0)\n2:\tnop\n1:\tlla %1, 2b\n\tsub %0, %0, %1")
                     : "=&r"(r), "=&r"(t));
    pj("jalr rd==rs1 link-next", r);
    /* call / return through a real function via jalr */
    __asm__ volatile(NORVC("li %0, 0\n\tlla %1, 3f\n\tjalr ra, %1\n\taddi %0, %0, 0x10\n\tj 4f\n3:\taddi %0, %0, 1\n\tret\n4:")
                     : "=&r"(r), "=&r"(t) : : "ra");
    pj("jalr call-ret", r);
    psum("jumps");
}

/* ---- loads and stores ---- */
static unsigned char mem[64] __attribute__((aligned(16)));

#define LD(insn, off)                                                         \
    do {                                                                      \
        u64 r;                                                                \
        __asm__ volatile(NORVC(insn " %0, " #off "(%1)") : "=r"(r) : "r"(mem + 32) : "memory"); \
        printf("%-4s %+4d -> %016llx\n", insn, off, (unsigned long long)r);   \
        mix(r);                                                               \
    } while (0)
#define ST(insn, off, val)                                                    \
    do {                                                                      \
        memset(mem, 0, sizeof mem);                                           \
        __asm__ volatile(NORVC(insn " %0, " #off "(%1)") : : "r"((u64)(val)), "r"(mem + 32) : "memory"); \
        printf("%-4s %+4d %016llx ->", insn, off, (unsigned long long)(val)); \
        for (int q = 16; q < 48; q++) { printf(" %02x", mem[q]); mix(mem[q]); } \
        printf("\n");                                                         \
    } while (0)

static void test_mem(void) {
    for (int i = 0; i < 64; i++) mem[i] = (unsigned char)(0x70 + i * 3);
    mem[32] = 0x80; mem[33] = 0xff; mem[34] = 0x7f; mem[35] = 0x80;
    mem[36] = 0xff; mem[37] = 0xff; mem[38] = 0xff; mem[39] = 0x7f;
    LD("lb", 0); LD("lb", 1); LD("lb", 2); LD("lb", -1); LD("lb", -32); LD("lb", 31);
    LD("lbu", 0); LD("lbu", 1); LD("lbu", 2); LD("lbu", -1); LD("lbu", 31);
    LD("lh", 0); LD("lh", 2); LD("lh", 4); LD("lh", 6); LD("lh", -2); LD("lh", 30);
    LD("lhu", 0); LD("lhu", 2); LD("lhu", 4); LD("lhu", 6); LD("lhu", -2);
    LD("lw", 0); LD("lw", 4); LD("lw", -4); LD("lw", 8); LD("lw", 28);
    LD("lwu", 0); LD("lwu", 4); LD("lwu", -4); LD("lwu", 8);
    LD("ld", 0); LD("ld", 8); LD("ld", -8); LD("ld", -32); LD("ld", 24);
    psum("loads");
    ST("sb", 0, 0xfedcba9876543210ull); ST("sb", -1, 0x80); ST("sb", 15, 0xffffffffffffff7full);
    ST("sh", 0, 0xfedcba9876543210ull); ST("sh", -2, 0x8001); ST("sh", 14, 0xffff);
    ST("sw", 0, 0xfedcba9876543210ull); ST("sw", -4, 0x80000001); ST("sw", 12, 0xffffffffu);
    ST("sd", 0, 0xfedcba9876543210ull); ST("sd", -8, 0x8000000000000001ull); ST("sd", 8, -1);
    psum("stores");
    /* store then load back through every width, sign vs zero extension */
    u64 back[7];
    __asm__ volatile(NORVC("li t0, -1\n\tsd t0, 0(%1)\n\tli t0, 0x81\n\tsb t0, 0(%1)\n\t"
                           "li t0, 0x8182\n\tsh t0, 2(%1)\n\tli t0, 0x80000000\n\tsw t0, 4(%1)\n\t"
                           "lb t0, 0(%1)\n\tsd t0, 0(%0)\n\tlbu t0, 0(%1)\n\tsd t0, 8(%0)\n\t"
                           "lh t0, 2(%1)\n\tsd t0, 16(%0)\n\tlhu t0, 2(%1)\n\tsd t0, 24(%0)\n\t"
                           "lw t0, 4(%1)\n\tsd t0, 32(%0)\n\tlwu t0, 4(%1)\n\tsd t0, 40(%0)\n\t"
                           "ld t0, 0(%1)\n\tsd t0, 48(%0)")
                     : : "r"(back), "r"(mem) : "t0", "memory");
    const char *nm[7] = {"lb", "lbu", "lh", "lhu", "lw", "lwu", "ld"};
    for (int i = 0; i < 7; i++) p2(nm[i], i, back[i]);
    psum("store-load");
}

/* ---- x0 and hints ---- */
static void test_x0(void) {
    u64 r;
    __asm__ volatile(NORVC("addi x0, x0, 5\n\tlui x0, 0x12345\n\tadd x0, %1, %1\n\tlw x0, 0(%1)\n\t"
                           "slli x0, x0, 3\n\tjal x0, 1f\n1:\tmv %0, x0")
                     : "=r"(r) : "r"(mem) : "memory");
    p2("x0", 0, r);
    /* fence variants and the pause hint (fence w,0) are no-ops here */
    __asm__ volatile(NORVC("fence\n\tfence rw, rw\n\tfence i, o\n\tfence.tso\n\t.word 0x0100000f\n\tnop"));
    printf("fences ok\n");
    /* chained dependencies through the same register */
    __asm__ volatile(NORVC("li %0, 1\n\tadd %0, %0, %0\n\tadd %0, %0, %0\n\tslli %0, %0, 60\n\tsrai %0, %0, 3\n\taddiw %0, %0, -1")
                     : "=r"(r));
    p2("chain", 0, r);
    psum("x0");
}

int main(void) {
    test_rr();
    test_ri();
    test_upper();
    test_branches();
    test_jumps();
    test_mem();
    test_x0();
    printf("int_alu done\n");
    return 0;
}
