/* fpmisc: floating point as ordinary C programs use it (complements the
 * exhaustive fp_vectors test): arithmetic printed with %a / %.17g, libm
 * (sqrt, fabs, floor/ceil/round/trunc/rint/nearbyint, fmod, fmin/fmax, fma,
 * copysign, frexp/ldexp/modf, exp/log/pow/sin/cos/atan2/hypot/cbrt),
 * NaN printing (RISC-V's canonical NaN is positive: "nan", where x86 hosts
 * would produce "-nan"), float<->int conversions in C and, for out-of-range
 * inputs, through fcvt directly (saturation, NaN -> max), NaN-boxing of
 * single-precision values in the 64-bit FP registers, <fenv.h> exception
 * flags and rounding modes, strtod/printf round trips.  Exit status 0. */
#include "common.h"
#include <fenv.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static volatile double D[] = {0.0, -0.0, 1.0, -1.0, 0.1, 1.0 / 3, 1e308, -1e-308,
                              4.9406564584124654e-324, 2.2250738585072014e-308,
                              3.5, -2.5, 1e16 + 1, 123456.789};
static volatile float F[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.1f, 1.0f / 3, 3.4e38f,
                             1.4e-45f, 1.17549435e-38f, 2.5f, -3.5f, 16777217.0f};

static u64 dbits(double d) { u64 b; memcpy(&b, &d, 8); return b; }
static u32 fbits(float f) { u32 b; memcpy(&b, &f, 4); return b; }

static void pd(const char *what, double d) {
    printf("%-22s %-26a %.17g [%016llx]\n", what, d, d, (unsigned long long)dbits(d));
    mix(dbits(d));
}
static void pf(const char *what, float f) {
    printf("%-22s %-26a %.9g [%08x]\n", what, (double)f, (double)f, fbits(f));
    mix(fbits(f));
}

static void test_arith(void) {
    for (unsigned i = 0; i < NELEM(D); i++) {
        double a = D[i], b = D[(i + 5) % NELEM(D)];
        printf("d a=%a b=%a\n", a, b);
        pd("  a+b", a + b);
        pd("  a-b", a - b);
        pd("  a*b", a * b);
        pd("  a/b", a / b);
        pd("  sqrt(|a|)", sqrt(fabs(a)));
        pd("  fma(a,b,-1)", fma(a, b, -1.0));
    }
    for (unsigned i = 0; i < NELEM(F); i++) {
        float a = F[i], b = F[(i + 4) % NELEM(F)];
        printf("f a=%a b=%a\n", (double)a, (double)b);
        pf("  a+b", a + b);
        pf("  a*b", a * b);
        pf("  a/b", a / b);
        pf("  sqrtf(|a|)", sqrtf(fabsf(a)));
        pf("  fmaf(a,b,a)", fmaf(a, b, a));
        pd("  (double)a", (double)a);
    }
    psum("arith");
}

static void test_special(void) {
    volatile double z = 0.0, one = 1.0, inf = INFINITY;
    double qnan = z / z;
    pd("0/0", qnan);
    printf("0/0 prints as %f, signbit=%d\n", qnan, signbit(qnan) != 0);
    pd("-(0/0)", -qnan);
    printf("-(0/0) prints as %f\n", -qnan);
    pd("inf-inf", inf - inf);
    pd("0*inf", z * inf);
    pd("sqrt(-1)", sqrt(-one));
    pd("1/0", one / z);
    pd("-1/0", -one / z);
    pd("1/-0", one / -z);
    pd("nan(\"0x123\")", nan("0x123"));
    pd("nan payload + 1", nan("0x123") + one); /* result canonical */
    float fq = (float)(z / z);
    pf("(float)nan", fq);
    volatile float nf7 = nanf("7");
    pd("(double)nanf(\"7\") runtime", (double)nf7); /* fcvt.d.s canonicalizes */
    pd("(double)nanf(\"7\") folded", (double)nanf("7")); /* GCC folds, keeps payload */
    printf("isnan=%d isinf=%d isfinite(1e308*10)=%d\n", isnan(qnan), isinf(one / z),
           isfinite(1e308 * (one * 10)));
    printf("fpclassify: %d %d %d %d %d\n", fpclassify(z), fpclassify(one),
           fpclassify(4.9e-324 * one), fpclassify(inf), fpclassify(qnan));
    printf("nan==nan %d, nan<1 %d, nan!=nan %d, -0==0 %d\n", qnan == qnan, qnan < one,
           qnan != qnan, -z == z);
    psum("special");
}

static void test_libm(void) {
    static const double X[] = {2.5, -2.5, 3.5, -0.5, 0.49999999999999994, 1e300, -7.75, 0.0};
    for (unsigned i = 0; i < NELEM(X); i++) {
        volatile double x = X[i];
        printf("x=%a floor=%a ceil=%a round=%a trunc=%a rint=%a nearbyint=%a lround=%ld\n", x,
               floor(x), ceil(x), round(x), trunc(x), rint(x), nearbyint(x),
               fabs(x) < 1e18 ? lround(x) : 0L);
        mix(dbits(floor(x)) ^ dbits(rint(x)));
    }
    volatile double a = 10.5, b = -3.0, nn = NAN;
    pd("fmod(10.5,-3)", fmod(a, b));
    pd("remainder(10.5,-3)", remainder(a, b));
    pd("fmin(nan,-3)", fmin(nn, b));
    pd("fmax(-3,nan)", fmax(b, nn));
    pd("fmin(-0,0)", fmin(-0.0 * a, 0.0 * a));
    pd("fmax(-0,0)", fmax(-0.0 * a, 0.0 * a));
    pd("copysign(3,-0)", copysign(3.0 * (a / a), -0.0 * a));
    pd("fabs(-nan)", fabs(-nn));
    int e;
    double m = frexp(a * 1000, &e);
    printf("frexp(10500) = %a * 2^%d\n", m, e);
    pd("ldexp(1,-1074)", ldexp(a / a, -1074));
    pd("ldexp(1,1024)", ldexp(a / a, 1024));
    double ip;
    double fr = modf(-a, &ip);
    printf("modf(-10.5) = %a + %a\n", ip, fr);
    pd("exp(1)", exp(a / a));
    pd("log(10.5)", log(a));
    pd("log(-1)", log(b / 3));
    pd("log(0)", log(0.0 * a));
    pd("pow(10.5,-3)", pow(a, b));
    pd("pow(-3,0.5)", pow(b, 0.5));
    pd("sin(10.5)", sin(a));
    pd("cos(10.5)", cos(a));
    pd("atan2(-3,10.5)", atan2(b, a));
    pd("hypot(-3,10.5)", hypot(b, a));
    pd("cbrt(-3)", cbrt(b));
    pf("sqrtf(2)", sqrtf((float)a / 5.25f));
    pf("floorf(-2.5)", floorf(-(float)a / 4.2f));
    psum("libm");
}

/* x through fcvt.{w,wu,l,lu}.d with static RTZ (what C casts use; defined for any input),
 * printed with fmt (x, then the four results). */
static void cvt_rtz(double v, const char *fmt) {
    volatile double x = v;
    long w = 0, wu = 0, l = 0, lu = 0;
    __asm__ volatile("fcvt.w.d %0, %1, rtz" : "=r"(w) : "f"(x));
    __asm__ volatile("fcvt.wu.d %0, %1, rtz" : "=r"(wu) : "f"(x));
    __asm__ volatile("fcvt.l.d %0, %1, rtz" : "=r"(l) : "f"(x));
    __asm__ volatile("fcvt.lu.d %0, %1, rtz" : "=r"(lu) : "f"(x));
    printf(fmt, (double)x, w, wu, l, lu);
    mix(w); mix(wu); mix(l); mix(lu);
}

static void test_conversions(void) {
    static const double CV[] = {3.9, -3.9, 0.5, -0.5, 2147483647.5, -2147483648.9, 1e10, -1e10,
                                9.2e18, 1.8e19, -1.0};
    for (unsigned i = 0; i < NELEM(CV); i++) {
        cvt_rtz(CV[i], "cvt %-22.17g w=%016lx wu=%016lx l=%016lx lu=%016lx\n");
    }
    volatile double nn = NAN, pinf = INFINITY;
    double specials[3] = {nn, pinf, -pinf};
    for (int i = 0; i < 3; i++) {
        cvt_rtz(specials[i], "cvt %-22f w=%016lx wu=%016lx l=%016lx lu=%016lx\n");
    }
    volatile float fx = -1.5f, fbig = 3e9f;
    long a, b;
    __asm__ volatile("fcvt.w.s %0, %1, rtz" : "=r"(a) : "f"(fbig));
    __asm__ volatile("fcvt.wu.s %0, %1, rtz" : "=r"(b) : "f"(fbig));
    printf("fcvt.w.s(3e9)=%016lx fcvt.wu.s(3e9)=%016lx\n", a, b);
    __asm__ volatile("fcvt.wu.s %0, %1, rtz" : "=r"(a) : "f"(fx));
    printf("fcvt.wu.s(-1.5)=%016lx\n", a);
    /* C conversions within range */
    volatile double d = -7.999;
    printf("(int)-7.999=%d (long)1e15=%ld (unsigned)4e9=%u (float)1/3=%a\n", (int)d,
           (long)(d * -1.25e14), (unsigned)(d * -5e8), (double)(float)(1.0 / (d * -3 / 7.999)));
    /* integer -> float rounding */
    volatile long big = (1L << 53) + 1, i24 = 16777217;
    volatile unsigned long umax = ~0UL, u63 = (1UL << 63) + 1025;
    pd("(double)(2^53+1)", (double)big);
    pf("(float)16777217", (float)i24);
    pd("(double)UINT64_MAX", (double)umax);
    pf("(float)UINT64_MAX", (float)umax);
    pd("(double)(2^63+1025)", (double)u63);
    pd("(double)INT64_MIN", (double)(long)(1UL << 63));
    volatile int neg = -123456789;
    pf("(float)-123456789", (float)neg);
    pd("(double)(unsigned)-1", (double)(unsigned)neg);
    pf("(float)1e40", (float)(D[6] * 0 + 1e40));
    pf("(float)1e-50", (float)(D[6] * 0 + 1e-50));
    pf("(float)0.1", (float)D[4]);
    psum("conversions");
}

static void test_nanbox(void) {
    u64 r;
    volatile float one = 1.0f;
    /* a single in a double register is NaN-boxed: upper 32 bits all ones */
    __asm__ volatile("fmv.x.d %0, %1" : "=r"(r) : "f"(one));
    printf("nan-boxed 1.0f in f-reg: %016llx\n", (unsigned long long)r);
    /* an improperly boxed value is read as the canonical NaN by .s ops */
    double improper;
    u64 bits = 0x000000003f800000ull;
    memcpy(&improper, &bits, 8);
    float res;
    __asm__ volatile("fadd.s %0, %1, %1" : "=f"(res) : "f"(improper));
    printf("fadd.s of unboxed 1.0f: %08x\n", fbits(res));
    __asm__ volatile("fmv.x.w %0, %1" : "=r"(r) : "f"(improper));
    printf("fmv.x.w of unboxed (no check): %016llx\n", (unsigned long long)r);
    __asm__ volatile("fsgnj.s %0, %1, %1" : "=f"(res) : "f"(improper));
    printf("fsgnj.s of unboxed: %08x\n", fbits(res));
    mix(r);
    psum("nanbox");
}

static void test_fenv(void) {
    volatile double one = 1.0, three = 3.0, zero = 0.0, big = 1e308, nn = NAN;
    feclearexcept(FE_ALL_EXCEPT);
    volatile double r = one / three;
    printf("1/3 inexact=%d\n", fetestexcept(FE_INEXACT) != 0);
    feclearexcept(FE_ALL_EXCEPT);
    r = one / zero;
    printf("1/0 divbyzero=%d\n", fetestexcept(FE_DIVBYZERO) != 0);
    feclearexcept(FE_ALL_EXCEPT);
    r = big * big;
    printf("overflow=%d inexact=%d\n", fetestexcept(FE_OVERFLOW) != 0, fetestexcept(FE_INEXACT) != 0);
    feclearexcept(FE_ALL_EXCEPT);
    r = 1e-308 / big;
    printf("underflow=%d\n", fetestexcept(FE_UNDERFLOW) != 0);
    feclearexcept(FE_ALL_EXCEPT);
    long lt; /* flt on a quiet NaN signals invalid (GCC's `<` hides this with frflags/fsflags) */
    __asm__ volatile("flt.d %0, %1, %2" : "=r"(lt) : "f"(nn), "f"(one));
    printf("flt.d nan,1 -> %ld invalid=%d\n", lt, fetestexcept(FE_INVALID) != 0);
    feclearexcept(FE_ALL_EXCEPT);
    long eq; /* feq on a quiet NaN does not */
    __asm__ volatile("feq.d %0, %1, %2" : "=r"(eq) : "f"(nn), "f"(one));
    printf("feq.d nan,1 -> %ld invalid=%d\n", eq, fetestexcept(FE_INVALID) != 0);
    static const int modes[] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
    static const char *const names[] = {"nearest", "towardzero", "downward", "upward"};
    for (int i = 0; i < 4; i++) {
        fesetround(modes[i]);
        volatile double q = one / three, nq = -one / three;
        volatile double s = sqrt(2.0 * one);
        long li = lrint(2.5 * one), ln = lrint(-2.5 * one);
        int got = fegetround();
        fesetround(FE_TONEAREST);
        printf("round %-10s 1/3=%a -1/3=%a sqrt2=%a lrint(2.5)=%ld lrint(-2.5)=%ld ok=%d\n",
               names[i], q, nq, s, li, ln, got == modes[i]);
        mix(dbits(q)); mix(dbits(nq)); mix(dbits(s));
    }
    (void)r;
    psum("fenv");
}

static void test_strings(void) {
    static const char *const S[] = {"0.1", "1e-320", "0x1.fffffffffffffp+1023", "1e309",
                                    "-0", "nan", "-inf", "2.2250738585072011e-308", "123.456e2"};
    for (unsigned i = 0; i < NELEM(S); i++) {
        double d = strtod(S[i], NULL);
        float f = strtof(S[i], NULL);
        printf("strtod(%s) = %.17g / %a [%016llx]  strtof = %.9g [%08x]\n", S[i], d, d,
               (unsigned long long)dbits(d), (double)f, fbits(f));
        mix(dbits(d)); mix(fbits(f));
    }
    printf("%.20f %.3e %g %g %G\n", 0.1, 6.02214076e23, 1e-5, 123456789.0, 1e100);
    printf("%08.3f|%-10.2f|%+.0f|%.0f|%.0f\n", 3.14159, 2.5, 2.5, 3.5, -0.5);
    psum("strings");
}

int main(void) {
    test_arith();
    test_special();
    test_libm();
    test_conversions();
    test_nanbox();
    test_fenv();
    test_strings();
    printf("fpmisc done\n");
    return 0;
}
