/*
 * Floating-point reference vectors for org.dise.runtime.cpu.Fpu.
 *
 * Runs every RISC-V F/D computational instruction (and the conversions) on a deterministic set of
 * operands in all five static rounding modes and prints one line per case:
 *
 *     op rm a [b [c]] -> result flags
 *
 * all in hex (no 0x). rm is 0..4 (rne rtz rdn rup rmm) or '-' for instructions without rounding.
 * Single-precision operands/results are 8 hex digits; double and integer register values 16.
 * Build: riscv64-linux-gnu-gcc -O2 -static -o ../resources/isa/fp_vectors.elf fp_vectors.c -lm
 * Run:   qemu-riscv64 ../resources/isa/fp_vectors.elf > ../resources/isa/fp_vectors.expected
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef uint64_t u64;
typedef uint32_t u32;

static inline double u2d(u64 v) { double d; memcpy(&d, &v, 8); return d; }
static inline u64 d2u(double d) { u64 v; memcpy(&v, &d, 8); return v; }
static inline float u2f(u32 v) { float f; memcpy(&f, &v, 4); return f; }
static inline u32 f2u(float f) { u32 v; memcpy(&v, &f, 4); return v; }

static inline void clrflags(void) { asm volatile("csrw fflags, zero"); }
static inline unsigned getflags(void) {
  unsigned long f;
  asm volatile("csrr %0, fflags" : "=r"(f));
  return (unsigned)f;
}

#define RMCASES(INSN, OUT, ...)                                      \
  switch (rm) {                                                      \
    case 0: asm volatile(INSN ",rne" : OUT : __VA_ARGS__); break;    \
    case 1: asm volatile(INSN ",rtz" : OUT : __VA_ARGS__); break;    \
    case 2: asm volatile(INSN ",rdn" : OUT : __VA_ARGS__); break;    \
    case 3: asm volatile(INSN ",rup" : OUT : __VA_ARGS__); break;    \
    default: asm volatile(INSN ",rmm" : OUT : __VA_ARGS__); break;   \
  }

/* ---- op wrappers: all take/return raw bits in u64 ---- */
#define BIN_D(fn, insn)                                              \
  static u64 fn(int rm, u64 a, u64 b, u64 c, unsigned *fl) {         \
    double x = u2d(a), y = u2d(b), r; (void)c;                       \
    clrflags();                                                      \
    RMCASES(insn " %0,%1,%2", "=f"(r), "f"(x), "f"(y));              \
    *fl = getflags(); return d2u(r); }
#define BIN_S(fn, insn)                                              \
  static u64 fn(int rm, u64 a, u64 b, u64 c, unsigned *fl) {         \
    float x = u2f((u32)a), y = u2f((u32)b), r; (void)c;              \
    clrflags();                                                      \
    RMCASES(insn " %0,%1,%2", "=f"(r), "f"(x), "f"(y));              \
    *fl = getflags(); return f2u(r); }
#define TER_D(fn, insn)                                              \
  static u64 fn(int rm, u64 a, u64 b, u64 c, unsigned *fl) {         \
    double x = u2d(a), y = u2d(b), z = u2d(c), r;                    \
    clrflags();                                                      \
    RMCASES(insn " %0,%1,%2,%3", "=f"(r), "f"(x), "f"(y), "f"(z));   \
    *fl = getflags(); return d2u(r); }
#define TER_S(fn, insn)                                              \
  static u64 fn(int rm, u64 a, u64 b, u64 c, unsigned *fl) {         \
    float x = u2f((u32)a), y = u2f((u32)b), z = u2f((u32)c), r;      \
    clrflags();                                                      \
    RMCASES(insn " %0,%1,%2,%3", "=f"(r), "f"(x), "f"(y), "f"(z));   \
    *fl = getflags(); return f2u(r); }
/* no rounding mode, fp result */
#define BINN_D(fn, insn)                                             \
  static u64 fn(int rm, u64 a, u64 b, u64 c, unsigned *fl) {         \
    double x = u2d(a), y = u2d(b), r; (void)c; (void)rm;             \
    clrflags();                                                      \
    asm volatile(insn " %0,%1,%2" : "=f"(r) : "f"(x), "f"(y));       \
    *fl = getflags(); return d2u(r); }
#define BINN_S(fn, insn)                                             \
  static u64 fn(int rm, u64 a, u64 b, u64 c, unsigned *fl) {         \
    float x = u2f((u32)a), y = u2f((u32)b), r; (void)c; (void)rm;    \
    clrflags();                                                      \
    asm volatile(insn " %0,%1,%2" : "=f"(r) : "f"(x), "f"(y));       \
    *fl = getflags(); return f2u(r); }
/* compare: integer result */
#define CMP_D(fn, insn)                                              \
  static u64 fn(int rm, u64 a, u64 b, u64 c, unsigned *fl) {         \
    double x = u2d(a), y = u2d(b); u64 r; (void)c; (void)rm;         \
    clrflags();                                                      \
    asm volatile(insn " %0,%1,%2" : "=r"(r) : "f"(x), "f"(y));       \
    *fl = getflags(); return r; }
#define CMP_S(fn, insn)                                              \
  static u64 fn(int rm, u64 a, u64 b, u64 c, unsigned *fl) {         \
    float x = u2f((u32)a), y = u2f((u32)b); u64 r; (void)c; (void)rm;\
    clrflags();                                                      \
    asm volatile(insn " %0,%1,%2" : "=r"(r) : "f"(x), "f"(y));       \
    *fl = getflags(); return r; }
/* unary fp->fp with rm */
#define UN_DD(fn, insn)                                              \
  static u64 fn(int rm, u64 a, u64 b, u64 c, unsigned *fl) {         \
    double x = u2d(a), r; (void)b; (void)c;                          \
    clrflags();                                                      \
    RMCASES(insn " %0,%1", "=f"(r), "f"(x));                         \
    *fl = getflags(); return d2u(r); }
#define UN_SS(fn, insn)                                              \
  static u64 fn(int rm, u64 a, u64 b, u64 c, unsigned *fl) {         \
    float x = u2f((u32)a), r; (void)b; (void)c;                      \
    clrflags();                                                      \
    RMCASES(insn " %0,%1", "=f"(r), "f"(x));                         \
    *fl = getflags(); return f2u(r); }
/* fp -> int with rm */
#define UN_DX(fn, insn)                                              \
  static u64 fn(int rm, u64 a, u64 b, u64 c, unsigned *fl) {         \
    double x = u2d(a); u64 r; (void)b; (void)c;                      \
    clrflags();                                                      \
    RMCASES(insn " %0,%1", "=r"(r), "f"(x));                         \
    *fl = getflags(); return r; }
#define UN_SX(fn, insn)                                              \
  static u64 fn(int rm, u64 a, u64 b, u64 c, unsigned *fl) {         \
    float x = u2f((u32)a); u64 r; (void)b; (void)c;                  \
    clrflags();                                                      \
    RMCASES(insn " %0,%1", "=r"(r), "f"(x));                         \
    *fl = getflags(); return r; }
/* int -> fp with rm */
#define UN_XD(fn, insn)                                              \
  static u64 fn(int rm, u64 a, u64 b, u64 c, unsigned *fl) {         \
    double r; (void)b; (void)c;                                      \
    clrflags();                                                      \
    RMCASES(insn " %0,%1", "=f"(r), "r"(a));                         \
    *fl = getflags(); return d2u(r); }
/* int -> double, exact (the assembler accepts no rounding mode) */
#define UN_XDN(fn, insn)                                             \
  static u64 fn(int rm, u64 a, u64 b, u64 c, unsigned *fl) {         \
    double r; (void)b; (void)c; (void)rm;                            \
    clrflags();                                                      \
    asm volatile(insn " %0,%1" : "=f"(r) : "r"(a));                  \
    *fl = getflags(); return d2u(r); }
#define UN_XS(fn, insn)                                              \
  static u64 fn(int rm, u64 a, u64 b, u64 c, unsigned *fl) {         \
    float r; (void)b; (void)c;                                       \
    clrflags();                                                      \
    RMCASES(insn " %0,%1", "=f"(r), "r"(a));                         \
    *fl = getflags(); return f2u(r); }

BIN_D(fadd_d, "fadd.d") BIN_D(fsub_d, "fsub.d") BIN_D(fmul_d, "fmul.d") BIN_D(fdiv_d, "fdiv.d")
BIN_S(fadd_s, "fadd.s") BIN_S(fsub_s, "fsub.s") BIN_S(fmul_s, "fmul.s") BIN_S(fdiv_s, "fdiv.s")
TER_D(fmadd_d, "fmadd.d") TER_D(fmsub_d, "fmsub.d") TER_D(fnmsub_d, "fnmsub.d") TER_D(fnmadd_d, "fnmadd.d")
TER_S(fmadd_s, "fmadd.s") TER_S(fmsub_s, "fmsub.s") TER_S(fnmsub_s, "fnmsub.s") TER_S(fnmadd_s, "fnmadd.s")
BINN_D(fmin_d, "fmin.d") BINN_D(fmax_d, "fmax.d") BINN_S(fmin_s, "fmin.s") BINN_S(fmax_s, "fmax.s")
CMP_D(feq_d, "feq.d") CMP_D(flt_d, "flt.d") CMP_D(fle_d, "fle.d")
CMP_S(feq_s, "feq.s") CMP_S(flt_s, "flt.s") CMP_S(fle_s, "fle.s")
UN_DD(fsqrt_d, "fsqrt.d") UN_SS(fsqrt_s, "fsqrt.s")
UN_DX(fcvt_w_d, "fcvt.w.d") UN_DX(fcvt_wu_d, "fcvt.wu.d") UN_DX(fcvt_l_d, "fcvt.l.d") UN_DX(fcvt_lu_d, "fcvt.lu.d")
UN_SX(fcvt_w_s, "fcvt.w.s") UN_SX(fcvt_wu_s, "fcvt.wu.s") UN_SX(fcvt_l_s, "fcvt.l.s") UN_SX(fcvt_lu_s, "fcvt.lu.s")
UN_XDN(fcvt_d_w, "fcvt.d.w") UN_XDN(fcvt_d_wu, "fcvt.d.wu") UN_XD(fcvt_d_l, "fcvt.d.l") UN_XD(fcvt_d_lu, "fcvt.d.lu")
UN_XS(fcvt_s_w, "fcvt.s.w") UN_XS(fcvt_s_wu, "fcvt.s.wu") UN_XS(fcvt_s_l, "fcvt.s.l") UN_XS(fcvt_s_lu, "fcvt.s.lu")

static u64 fcvt_s_d(int rm, u64 a, u64 b, u64 c, unsigned *fl) {
  double x = u2d(a); float r; (void)b; (void)c;
  clrflags();
  RMCASES("fcvt.s.d %0,%1", "=f"(r), "f"(x));
  *fl = getflags(); return f2u(r);
}
static u64 fcvt_d_s(int rm, u64 a, u64 b, u64 c, unsigned *fl) {
  float x = u2f((u32)a); double r; (void)b; (void)c; (void)rm;
  clrflags();
  asm volatile("fcvt.d.s %0,%1" : "=f"(r) : "f"(x));
  *fl = getflags(); return d2u(r);
}
static u64 fclass_d(int rm, u64 a, u64 b, u64 c, unsigned *fl) {
  double x = u2d(a); u64 r; (void)b; (void)c; (void)rm;
  clrflags();
  asm volatile("fclass.d %0,%1" : "=r"(r) : "f"(x));
  *fl = getflags(); return r;
}
static u64 fclass_s(int rm, u64 a, u64 b, u64 c, unsigned *fl) {
  float x = u2f((u32)a); u64 r; (void)b; (void)c; (void)rm;
  clrflags();
  asm volatile("fclass.s %0,%1" : "=r"(r) : "f"(x));
  *fl = getflags(); return r;
}

typedef u64 (*opfn)(int, u64, u64, u64, unsigned *);

/* ---- output ---- */
static void emit(const char *name, opfn fn, int rm, int nargs, int aw, int rw, u64 a, u64 b, u64 c) {
  unsigned fl;
  u64 r = fn(rm < 0 ? 0 : rm, a, b, c, &fl);
  char rms[2] = {(char)(rm < 0 ? '-' : '0' + rm), 0};
  if (rw == 8) r &= 0xffffffffu;
  if (nargs == 1)
    printf("%s %s %0*lx -> %0*lx %02x\n", name, rms, aw, a, rw, r, fl);
  else if (nargs == 2)
    printf("%s %s %0*lx %0*lx -> %0*lx %02x\n", name, rms, aw, a, aw, b, rw, r, fl);
  else
    printf("%s %s %0*lx %0*lx %0*lx -> %0*lx %02x\n", name, rms, aw, a, aw, b, aw, c, rw, r, fl);
}
static void emit_rms(const char *name, opfn fn, int nargs, int aw, int rw, u64 a, u64 b, u64 c) {
  for (int rm = 0; rm < 5; rm++) emit(name, fn, rm, nargs, aw, rw, a, b, c);
}

/* ---- deterministic pseudo-random numbers ---- */
static u64 lcg = 0x2545F4914F6CDD1DULL;
static u32 rnd32(void) {
  lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
  return (u32)(lcg >> 32);
}
static u64 rnd64(void) { u64 hi = rnd32(); return (hi << 32) | rnd32(); }
static u32 rndn(u32 n) { return rnd32() % n; }

/* ---- special values ---- */
static const u64 SPEC_D[] = {
    0x0000000000000000ULL, /* +0 */
    0x0000000000000001ULL, /* min subnormal */
    0x000fffffffffffffULL, /* max subnormal */
    0x0008000000000000ULL, /* subnormal 2^-1023 */
    0x0010000000000000ULL, /* min normal */
    0x0010000000000001ULL, /* min normal + ulp */
    0x7fefffffffffffffULL, /* max */
    0x7fe0000000000000ULL, /* 2^1023 */
    0x3ff0000000000000ULL, /* 1 */
    0x3ff0000000000001ULL, /* 1 + ulp */
    0x3fefffffffffffffULL, /* 1 - ulp/2 */
    0x3ff8000000000000ULL, /* 1.5 */
    0x4008000000000000ULL, /* 3 */
    0x3ca0000000000000ULL, /* 2^-53 (half ulp of 1) */
    0x1ff0000000000000ULL, /* 2^-512 */
    0x5fe0000000000000ULL, /* 2^511 */
    0x7ff0000000000000ULL, /* inf */
    0x7ff8000000000000ULL, /* canonical qNaN */
    0x7ff0000000000001ULL, /* sNaN */
    0x7ffc000000000123ULL, /* qNaN with payload */
};
static const u32 SPEC_S[] = {
    0x00000000u, 0x00000001u, 0x007fffffu, 0x00400000u, 0x00800000u, 0x00800001u, 0x7f7fffffu,
    0x7f000000u, 0x3f800000u, 0x3f800001u, 0x3f7fffffu, 0x3fc00000u, 0x40400000u, 0x33800000u,
    0x1f800000u, 0x5f000000u, 0x7f800000u, 0x7fc00000u, 0x7f800001u, 0x7fe00123u,
};
#define NSPEC 20

/* A random "interesting" double. */
static u64 rand_d(void) {
  u64 sign = (u64)(rnd32() & 1) << 63;
  u64 man = rnd64() & 0x000fffffffffffffULL;
  u64 e;
  switch (rndn(12)) {
    case 0: return rnd64();
    case 1: e = 1023 - 4 + rndn(9); break;
    case 2: e = rndn(4); break;                  /* subnormal / smallest normals */
    case 3: e = 2043 + rndn(4); break;           /* near max */
    case 4: e = 1023 - 511 - 4 + rndn(9); break; /* products near underflow */
    case 5: e = 1023 + 511 - 4 + rndn(9); break; /* products near overflow */
    case 6: e = 1023 - 60 + rndn(121); man &= ~0ULL << (52 - rndn(9)); break; /* short mantissa */
    case 7: e = 1023 - 60 + rndn(121); man = 0x000fffffffffffffULL - rndn(4); break;
    case 8: return SPEC_D[rndn(NSPEC)] | sign;
    case 9: e = 1023 - 540 + rndn(40); break;    /* sqrt / div near underflow */
    default: e = 1023 - 60 + rndn(121); break;
  }
  return sign | (e << 52) | man;
}

static u64 rand_s(void) {
  u32 sign = (rnd32() & 1) << 31;
  u32 man = rnd32() & 0x007fffffu;
  u32 e;
  switch (rndn(12)) {
    case 0: return rnd32();
    case 1: e = 127 - 4 + rndn(9); break;
    case 2: e = rndn(4); break;
    case 3: e = 251 + rndn(4); break;
    case 4: e = 127 - 63 - 4 + rndn(9); break;
    case 5: e = 127 + 63 - 4 + rndn(9); break;
    case 6: e = 127 - 30 + rndn(61); man &= ~0u << (23 - rndn(9)); break;
    case 7: e = 127 - 30 + rndn(61); man = 0x007fffffu - rndn(4); break;
    case 8: return SPEC_S[rndn(NSPEC)] | sign;
    case 9: e = 127 - 80 + rndn(20); break;
    default: e = 127 - 30 + rndn(61); break;
  }
  return sign | (e << 23) | man;
}

/* b related to a: same magnitude region, nearby exponent or nearly equal */
static u64 related_d(u64 a) {
  u64 b;
  switch (rndn(4)) {
    case 0: b = a ^ ((u64)rndn(16)); break;                       /* few ulps away */
    case 1: b = (a ^ (1ULL << 63)) + rndn(5) - 2; break;          /* near cancellation */
    case 2: {                                                     /* exponent shift */
      int64_t e = (int64_t)((a >> 52) & 0x7ff) + (int64_t)rndn(121) - 60;
      if (e < 0) e = 0;
      if (e > 2046) e = 2046;
      b = (a & 0x800fffffffffffffULL) | ((u64)e << 52);
      b ^= (u64)(rnd32() & 1) << 63;
      b ^= rnd64() & ((1ULL << rndn(53)) - 1);
      break;
    }
    default: b = rand_d();
  }
  return b;
}
static u64 related_s(u64 a) {
  u32 b, x = (u32)a;
  switch (rndn(4)) {
    case 0: b = x ^ rndn(16); break;
    case 1: b = (x ^ 0x80000000u) + rndn(5) - 2; break;
    case 2: {
      int e = (int)((x >> 23) & 0xff) + (int)rndn(61) - 30;
      if (e < 0) e = 0;
      if (e > 254) e = 254;
      b = (x & 0x807fffffu) | ((u32)e << 23);
      b ^= (rnd32() & 1) << 31;
      b ^= rnd32() & ((1u << rndn(24)) - 1);
      break;
    }
    default: b = (u32)rand_s();
  }
  return b;
}

struct op { const char *name; opfn fn; };

static void arith(int dbl, int nrand) {
  const struct op bins_d[] = {{"fadd.d", fadd_d}, {"fsub.d", fsub_d}, {"fmul.d", fmul_d}, {"fdiv.d", fdiv_d}};
  const struct op bins_s[] = {{"fadd.s", fadd_s}, {"fsub.s", fsub_s}, {"fmul.s", fmul_s}, {"fdiv.s", fdiv_s}};
  const struct op *bins = dbl ? bins_d : bins_s;
  int w = dbl ? 16 : 8;
  u64 spec[2 * NSPEC];
  for (int i = 0; i < NSPEC; i++) {
    spec[2 * i] = dbl ? SPEC_D[i] : SPEC_S[i];
    spec[2 * i + 1] = dbl ? SPEC_D[i] | (1ULL << 63) : (u64)(SPEC_S[i] | 0x80000000u);
  }
  /* specials x specials (skip the payload NaN on one side to keep the size down) */
  for (int o = 0; o < 4; o++)
    for (int i = 0; i < 2 * NSPEC; i++)
      for (int j = 0; j < 2 * NSPEC - 2; j++) emit_rms(bins[o].name, bins[o].fn, 2, w, w, spec[i], spec[j], 0);
  /* random pairs */
  for (int k = 0; k < nrand; k++) {
    u64 a = dbl ? rand_d() : rand_s();
    u64 b = dbl ? related_d(a) : related_s(a);
    for (int o = 0; o < 4; o++) emit_rms(bins[o].name, bins[o].fn, 2, w, w, a, b, 0);
  }
  /* exact-halfway cases for add: a + b where b is half an ulp of a (ties), both signs */
  for (int k = 0; k < 200; k++) {
    u64 a = dbl ? (((u64)(1023 - 30 + rndn(61)) << 52) | (rnd64() & 0x000fffffffffffffULL))
                : (u64)(((127 - 20 + rndn(41)) << 23) | (rnd32() & 0x7fffffu));
    u64 e = dbl ? (a >> 52) : (a >> 23);
    u64 b = dbl ? ((e - 53) << 52) | (rnd32() & 1 ? 0 : (rnd64() & 0x000fffffffffffffULL))
                : ((e - 24) << 23) | (rnd32() & 1 ? 0 : (rnd32() & 0x7fffffu));
    if (rnd32() & 1) a |= dbl ? 1ULL << 63 : 0x80000000u;
    if (rnd32() & 1) b |= dbl ? 1ULL << 63 : 0x80000000u;
    emit_rms(bins[0].name, bins[0].fn, 2, w, w, a, b, 0);
  }
  /* min/max/compare */
  const struct op nr_d[] = {{"fmin.d", fmin_d}, {"fmax.d", fmax_d}, {"feq.d", feq_d}, {"flt.d", flt_d}, {"fle.d", fle_d}};
  const struct op nr_s[] = {{"fmin.s", fmin_s}, {"fmax.s", fmax_s}, {"feq.s", feq_s}, {"flt.s", flt_s}, {"fle.s", fle_s}};
  const struct op *nr = dbl ? nr_d : nr_s;
  for (int o = 0; o < 5; o++) {
    int rw = o < 2 ? w : 16;
    for (int i = 0; i < 2 * NSPEC; i++)
      for (int j = 0; j < 2 * NSPEC; j++) emit(nr[o].name, nr[o].fn, -1, 2, w, rw, spec[i], spec[j], 0);
    for (int k = 0; k < 300; k++) {
      u64 a = dbl ? rand_d() : rand_s();
      u64 b = dbl ? related_d(a) : related_s(a);
      emit(nr[o].name, nr[o].fn, -1, 2, w, rw, a, b, 0);
    }
  }
  /* sqrt and class */
  opfn sq = dbl ? fsqrt_d : fsqrt_s;
  const char *sqn = dbl ? "fsqrt.d" : "fsqrt.s";
  opfn cl = dbl ? fclass_d : fclass_s;
  const char *cln = dbl ? "fclass.d" : "fclass.s";
  for (int i = 0; i < 2 * NSPEC; i++) {
    emit_rms(sqn, sq, 1, w, w, spec[i], 0, 0);
    emit(cln, cl, -1, 1, w, 16, spec[i], 0, 0);
  }
  for (int k = 0; k < 600; k++) {
    u64 a = dbl ? rand_d() : rand_s();
    if (k & 1) a &= dbl ? ~(1ULL << 63) : 0x7fffffffu;
    emit_rms(sqn, sq, 1, w, w, a, 0, 0);
    if (k < 200) emit(cln, cl, -1, 1, w, 16, a, 0, 0);
  }
  /* perfect squares and near squares */
  for (int k = 0; k < 100; k++) {
    if (dbl) {
      double r = (double)(rnd32() & 0x3ffffff) * ldexp(1.0, (int)rndn(200) - 100);
      u64 a = d2u(r * r) + rndn(3) - 1;
      emit_rms(sqn, sq, 1, w, w, a, 0, 0);
    } else {
      float r = (float)(rnd32() & 0xfff) * ldexpf(1.0f, (int)rndn(60) - 30);
      u64 a = f2u(r * r) + rndn(3) - 1;
      emit_rms(sqn, sq, 1, w, w, a, 0, 0);
    }
  }
}

static void fused(int dbl, int nrand) {
  const struct op f_d[] = {{"fmadd.d", fmadd_d}, {"fmsub.d", fmsub_d}, {"fnmsub.d", fnmsub_d}, {"fnmadd.d", fnmadd_d}};
  const struct op f_s[] = {{"fmadd.s", fmadd_s}, {"fmsub.s", fmsub_s}, {"fnmsub.s", fnmsub_s}, {"fnmadd.s", fnmadd_s}};
  const struct op *f = dbl ? f_d : f_s;
  int w = dbl ? 16 : 8;
  u64 sd[] = {0, 1ULL << 63, 0x3ff0000000000000ULL, 0xbff0000000000000ULL, 0x7ff0000000000000ULL,
              0xfff0000000000000ULL, 0x7ff8000000000000ULL, 0x7ff0000000000001ULL, 0x0000000000000001ULL,
              0x7fefffffffffffffULL};
  u64 ss[] = {0, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0x7f800001u,
              0x00000001u, 0x7f7fffffu};
  u64 *sp = dbl ? sd : ss;
  for (int o = 0; o < 4; o++)
    for (int i = 0; i < 10; i++)
      for (int j = 0; j < 10; j++)
        for (int k = 0; k < 10; k++) {
          emit(f[o].name, f[o].fn, 0, 3, w, w, sp[i], sp[j], sp[k]);
          emit(f[o].name, f[o].fn, 2, 3, w, w, sp[i], sp[j], sp[k]);
        }
  for (int n = 0; n < nrand; n++) {
    u64 a = dbl ? rand_d() : rand_s();
    u64 b = dbl ? rand_d() : rand_s();
    u64 c;
    switch (rndn(3)) {
      case 0:
        c = dbl ? rand_d() : rand_s();
        break;
      case 1: /* cancellation: c ~ -(a*b) */
        if (dbl) c = d2u(-(u2d(a) * u2d(b))) + rndn(9) - 4;
        else c = f2u(-(u2f((u32)a) * u2f((u32)b))) + rndn(9) - 4;
        break;
      default: /* addend near the product's magnitude */
        if (dbl) c = related_d(d2u(u2d(a) * u2d(b)));
        else c = related_s(f2u(u2f((u32)a) * u2f((u32)b)));
    }
    for (int o = 0; o < 4; o++) emit_rms(f[o].name, f[o].fn, 3, w, w, a, b, c);
  }
}

static void conversions(int nrand) {
  /* fp -> int: boundary values */
  static const double bd[] = {0.5, 1.0, 1.5, 2.5, 0.25, 0.75, 3.5, 2147483647.0, 2147483648.0, 4294967295.0,
                              4294967296.0, 9223372036854775808.0, 18446744073709551616.0, 4503599627370496.0,
                              1e300, 123456.5};
  u64 dv[512];
  int n = 0;
  for (int i = 0; i < NSPEC; i++) { dv[n++] = SPEC_D[i]; dv[n++] = SPEC_D[i] | (1ULL << 63); }
  for (unsigned i = 0; i < sizeof bd / sizeof bd[0]; i++) {
    double b = bd[i];
    double cands[] = {b, nextafter(b, 0), nextafter(b, INFINITY), b - 0.5, b + 0.5, b - 1, b + 1};
    for (int k = 0; k < 7; k++) { dv[n++] = d2u(cands[k]); dv[n++] = d2u(-cands[k]); }
  }
  const struct op dx[] = {{"fcvt.w.d", fcvt_w_d}, {"fcvt.wu.d", fcvt_wu_d}, {"fcvt.l.d", fcvt_l_d}, {"fcvt.lu.d", fcvt_lu_d}};
  const struct op sx[] = {{"fcvt.w.s", fcvt_w_s}, {"fcvt.wu.s", fcvt_wu_s}, {"fcvt.l.s", fcvt_l_s}, {"fcvt.lu.s", fcvt_lu_s}};
  for (int o = 0; o < 4; o++) {
    for (int i = 0; i < n; i++) emit_rms(dx[o].name, dx[o].fn, 1, 16, 16, dv[i], 0, 0);
    for (int k = 0; k < nrand; k++) {
      u64 a = rand_d();
      if (k & 1) a = (a & 0x800fffffffffffffULL) | ((u64)(1023 - 2 + rndn(68)) << 52);
      emit_rms(dx[o].name, dx[o].fn, 1, 16, 16, a, 0, 0);
    }
  }
  u64 sv[512];
  int m = 0;
  for (int i = 0; i < NSPEC; i++) { sv[m++] = SPEC_S[i]; sv[m++] = SPEC_S[i] | 0x80000000u; }
  for (unsigned i = 0; i < sizeof bd / sizeof bd[0]; i++) {
    float b = (float)bd[i];
    float cands[] = {b, nextafterf(b, 0), nextafterf(b, INFINITY), b - 0.5f, b + 0.5f};
    for (int k = 0; k < 5; k++) { sv[m++] = f2u(cands[k]); sv[m++] = f2u(-cands[k]); }
  }
  for (int o = 0; o < 4; o++) {
    for (int i = 0; i < m; i++) emit_rms(sx[o].name, sx[o].fn, 1, 8, 16, sv[i], 0, 0);
    for (int k = 0; k < nrand; k++) {
      u64 a = rand_s();
      if (k & 1) a = (a & 0x807fffffu) | ((u32)(127 - 2 + rndn(68)) << 23);
      emit_rms(sx[o].name, sx[o].fn, 1, 8, 16, a, 0, 0);
    }
  }
  /* int -> fp */
  static const u64 iv[] = {0, 1, 2, 3, 0xffffffffffffffffULL, 0xfffffffffffffffeULL, 0x7fffffff, 0x80000000ULL,
                           0xffffffff80000000ULL, 0xffffffff7fffffffULL, 0xffffffffULL, 0x80000001ULL,
                           0x1000001, 0x1000003, 0x2000002, 0x2000006, 0x2000001, 0x7fffffbf, 0x7fffffc0,
                           0x7fffffc1, 0xffffff7f, 0xffffff80, 0xffffff81, 0x20000000000001ULL,
                           0x20000000000003ULL, 0x40000000000002ULL, 0x40000000000006ULL, 0x7fffffffffffffffULL,
                           0x8000000000000000ULL, 0x8000000000000001ULL, 0x8000000000000400ULL,
                           0x8000000000000c00ULL, 0x7ffffffffffffe00ULL, 0x7ffffffffffffdffULL,
                           0xfffffffffffffc00ULL, 0xfffffffffffff800ULL, 0xfffffffffffffbffULL,
                           0x123456789abcdef0ULL, 0xfedcba9876543210ULL, 0x0000000180000001ULL};
  const struct op xd[] = {{"fcvt.d.w", fcvt_d_w}, {"fcvt.d.wu", fcvt_d_wu}, {"fcvt.d.l", fcvt_d_l}, {"fcvt.d.lu", fcvt_d_lu}};
  const struct op xs[] = {{"fcvt.s.w", fcvt_s_w}, {"fcvt.s.wu", fcvt_s_wu}, {"fcvt.s.l", fcvt_s_l}, {"fcvt.s.lu", fcvt_s_lu}};
  for (int o = 0; o < 4; o++) {
    for (unsigned i = 0; i < sizeof iv / sizeof iv[0]; i++) {
      if (o < 2) emit(xd[o].name, xd[o].fn, -1, 1, 16, 16, iv[i], 0, 0);
      else emit_rms(xd[o].name, xd[o].fn, 1, 16, 16, iv[i], 0, 0);
      emit_rms(xs[o].name, xs[o].fn, 1, 16, 8, iv[i], 0, 0);
    }
    for (int k = 0; k < nrand; k++) {
      u64 a = rnd64() >> rndn(64);
      if (rnd32() & 1) a = -a;
      if (o < 2) emit(xd[o].name, xd[o].fn, -1, 1, 16, 16, a, 0, 0);
      else emit_rms(xd[o].name, xd[o].fn, 1, 16, 16, a, 0, 0);
      emit_rms(xs[o].name, xs[o].fn, 1, 16, 8, a, 0, 0);
    }
  }
  /* double <-> single */
  for (int i = 0; i < 2 * NSPEC; i++) {
    u64 a = i & 1 ? SPEC_D[i / 2] | (1ULL << 63) : SPEC_D[i / 2];
    emit_rms("fcvt.s.d", fcvt_s_d, 1, 16, 8, a, 0, 0);
    u64 s = i & 1 ? SPEC_S[i / 2] | 0x80000000u : SPEC_S[i / 2];
    emit("fcvt.d.s", fcvt_d_s, -1, 1, 8, 16, s, 0, 0);
  }
  for (int k = 0; k < 3 * nrand; k++) {
    u64 a;
    switch (rndn(4)) {
      case 0: a = rand_d(); break;
      case 1: /* around the single range boundaries */
        a = ((u64)(rnd32() & 1) << 63) | ((u64)(1023 - 150 + rndn(30)) << 52) | (rnd64() & 0xfffffffffffffULL);
        break;
      case 2:
        a = ((u64)(rnd32() & 1) << 63) | ((u64)(1023 + 120 + rndn(10)) << 52) | (rnd64() & 0xfffffffffffffULL);
        break;
      default: { /* single value + small perturbation (ties, near-ties) */
        u64 s = rand_s();
        double d = (double)u2f((u32)s);
        a = d2u(d);
        if (rnd32() & 1) a += ((u64)1 << 28) - rndn(3) + 1;
      }
    }
    emit_rms("fcvt.s.d", fcvt_s_d, 1, 16, 8, a, 0, 0);
    if (k < nrand) emit("fcvt.d.s", fcvt_d_s, -1, 1, 8, 16, rand_s(), 0, 0);
  }
}

int main(void) {
  arith(1, 350);
  arith(0, 350);
  fused(1, 500);
  fused(0, 500);
  conversions(300);
  return 0;
}
