/* misaligned: loads and stores of halves, words and doubles (integer,
 * float and compressed forms) at every misalignment, including accesses that
 * straddle a 4 KiB page boundary inside a two-page anonymous mapping.  Linux
 * (and qemu-user) perform these transparently, so every access must succeed
 * with little-endian byte semantics.  Exit status 0.
 * (Misaligned AMOs/LR are NOT transparent: see bad/misaligned_amo.c.) */
#include "common.h"
#include <string.h>
#include <sys/mman.h>

#define LOADFN(insn)                                                          \
    static u64 ld_##insn(const unsigned char *p) {                            \
        u64 r;                                                                \
        __asm__ volatile(NORVC(#insn " %0, 0(%1)") : "=r"(r) : "r"(p) : "memory"); \
        return r;                                                             \
    }
#define STOREFN(insn)                                                         \
    static void st_##insn(unsigned char *p, u64 v) {                          \
        __asm__ volatile(NORVC(#insn " %1, 0(%0)") : : "r"(p), "r"(v) : "memory"); \
    }
LOADFN(lh) LOADFN(lhu) LOADFN(lw) LOADFN(lwu) LOADFN(ld)
STOREFN(sh) STOREFN(sw) STOREFN(sd)

static u64 ld_flw(const unsigned char *p) {
    u64 r;
    __asm__ volatile(NORVC("flw ft0, 0(%1)\n\tfmv.x.w %0, ft0") : "=r"(r) : "r"(p) : "ft0", "memory");
    return r; /* fmv.x.w sign-extends the 32-bit pattern */
}
static u64 ld_fld(const unsigned char *p) {
    u64 r;
    __asm__ volatile(NORVC("fld ft0, 0(%1)\n\tfmv.x.d %0, ft0") : "=r"(r) : "r"(p) : "ft0", "memory");
    return r;
}
static void st_fsw(unsigned char *p, u64 v) {
    __asm__ volatile(NORVC("fmv.w.x ft0, %1\n\tfsw ft0, 0(%0)") : : "r"(p), "r"(v) : "ft0", "memory");
}
static void st_fsd(unsigned char *p, u64 v) {
    __asm__ volatile(NORVC("fmv.d.x ft0, %1\n\tfsd ft0, 0(%0)") : : "r"(p), "r"(v) : "ft0", "memory");
}
/* compressed forms: c.lw / c.ld / c.sw / c.sd need x8-x15 */
static u64 ld_clw(const unsigned char *p) {
    register const unsigned char *a0 __asm__("a0") = p;
    register u64 a1 __asm__("a1");
    __asm__ volatile("c.lw a1, 0(a0)" : "=r"(a1) : "r"(a0) : "memory");
    return a1;
}
static u64 ld_cld(const unsigned char *p) {
    register const unsigned char *a0 __asm__("a0") = p;
    register u64 a1 __asm__("a1");
    __asm__ volatile("c.ld a1, 0(a0)" : "=r"(a1) : "r"(a0) : "memory");
    return a1;
}
static void st_csw(unsigned char *p, u64 v) {
    register unsigned char *a0 __asm__("a0") = p;
    register u64 a1 __asm__("a1") = v;
    __asm__ volatile("c.sw a1, 0(a0)" : : "r"(a0), "r"(a1) : "memory");
}
static void st_csd(unsigned char *p, u64 v) {
    register unsigned char *a0 __asm__("a0") = p;
    register u64 a1 __asm__("a1") = v;
    __asm__ volatile("c.sd a1, 0(a0)" : : "r"(a0), "r"(a1) : "memory");
}

static const struct { const char *name; u64 (*f)(const unsigned char *); int size; } LOADS[] = {
    {"lh", ld_lh, 2},   {"lhu", ld_lhu, 2}, {"lw", ld_lw, 4},   {"lwu", ld_lwu, 4},
    {"ld", ld_ld, 8},   {"flw", ld_flw, 4}, {"fld", ld_fld, 8}, {"c.lw", ld_clw, 4},
    {"c.ld", ld_cld, 8},
};
static const struct { const char *name; void (*f)(unsigned char *, u64); int size; } STORES[] = {
    {"sh", st_sh, 2},   {"sw", st_sw, 4},   {"sd", st_sd, 8},   {"fsw", st_fsw, 4},
    {"fsd", st_fsd, 8}, {"c.sw", st_csw, 4}, {"c.sd", st_csd, 8},
};

static unsigned char *buf; /* two pages */
#define PG 4096

static void fill(void) {
    for (int i = 0; i < 2 * PG; i++) buf[i] = (unsigned char)(i * 7 + 0x81);
}

static void test_loads(const char *where, int base) {
    fill();
    for (unsigned k = 0; k < NELEM(LOADS); k++) {
        printf("%-5s %s:", LOADS[k].name, where);
        for (int off = 0; off < 8; off++) {
            u64 r = LOADS[k].f(buf + base + off);
            printf(" %016llx", (unsigned long long)r);
            mix(r);
        }
        printf("\n");
    }
}

static void test_stores(const char *where, int base) {
    const u64 v = 0xf1e2d3c4b5a69788ull;
    for (unsigned k = 0; k < NELEM(STORES); k++) {
        for (int off = 1; off < 8; off++) {
            fill();
            STORES[k].f(buf + base + off, v);
            printf("%-5s %s+%d:", STORES[k].name, where, off);
            for (int q = base - 2; q < base + 18; q++) { printf(" %02x", buf[q]); mix(buf[q]); }
            /* read back with the matching-width load */
            u64 back = 0;
            memcpy(&back, buf + base + off, STORES[k].size);
            printf(" | %016llx\n", (unsigned long long)back);
        }
    }
}

int main(void) {
    buf = mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (buf == MAP_FAILED) { printf("mmap failed\n"); return 1; }
    printf("columns: offsets +0 .. +7 from the base\n");
    test_loads("base=16", 16);
    psum("loads-in-page");
    /* base 4089: offsets +0..+7 cover every way a 2/4/8-byte access can cross */
    test_loads("base=4089", PG - 7);
    psum("loads-across-page");
    test_stores("base=16", 16);
    psum("stores-in-page");
    test_stores("base=4088", PG - 8);
    psum("stores-across-page");
    /* memcpy/memmove between misaligned addresses (libc uses its own strategy) */
    fill();
    memmove(buf + PG - 13, buf + PG - 100, 77);
    u64 s = 0;
    for (int i = PG - 120; i < PG + 80; i++) s = s * 31 + buf[i];
    printf("memmove across page: %016llx\n", (unsigned long long)s);
    mix(s);
    psum("misaligned");
    munmap(buf, 2 * PG);
    return 0;
}
