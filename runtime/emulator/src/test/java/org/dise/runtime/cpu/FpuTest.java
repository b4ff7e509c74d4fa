package org.dise.runtime.cpu;

import static com.google.common.truth.Truth.assertWithMessage;
import static org.dise.runtime.cpu.Fpu.DZ;
import static org.dise.runtime.cpu.Fpu.NV;
import static org.dise.runtime.cpu.Fpu.NX;
import static org.dise.runtime.cpu.Fpu.OF;
import static org.dise.runtime.cpu.Fpu.RDN;
import static org.dise.runtime.cpu.Fpu.RMM;
import static org.dise.runtime.cpu.Fpu.RNE;
import static org.dise.runtime.cpu.Fpu.RTZ;
import static org.dise.runtime.cpu.Fpu.RUP;
import static org.dise.runtime.cpu.Fpu.UF;

import java.util.function.ToLongFunction;
import org.junit.jupiter.api.Test;

/** Hand-worked expectations for the tricky corners of {@link Fpu}. */
class FpuTest {
  private static final long CANON_D = 0x7ff8000000000000L;
  private static final int CANON_S = 0x7fc00000;
  private static final long SNAN_D = 0x7ff0000000000001L;
  private static final long QNAN_D = 0x7ff8000000000123L;
  private static final int SNAN_S = 0x7f800001;
  private static final long INF_D = 0x7ff0000000000000L;
  private static final long NEG_INF_D = 0xfff0000000000000L;
  private static final long MAX_D = 0x7fefffffffffffffL;
  private static final long MIN_NORMAL_D = 0x0010000000000000L;
  private static final long NEG_ZERO_D = 0x8000000000000000L;

  private static long d(double v) {
    return Double.doubleToRawLongBits(v);
  }

  private static int s(float v) {
    return Float.floatToRawIntBits(v);
  }

  /** Runs op on a fresh Fpu and checks result bits and the exact fflags value. */
  private static void check(String what, ToLongFunction<Fpu> op, long expected, int flags) {
    Fpu f = new Fpu();
    long got = op.applyAsLong(f);
    assertWithMessage(
            "%s result: expected %s got %s",
            what, Long.toHexString(expected), Long.toHexString(got))
        .that(got)
        .isEqualTo(expected);
    assertWithMessage("%s flags", what).that(f.fflags).isEqualTo(flags);
  }

  @Test
  void rmmBreaksTiesAwayFromZero() {
    long half = d(0x1p-53); // half an ulp of 1.0
    check("1 + 2^-53 RNE (tie to even)", f -> f.addD(d(1), half, RNE), d(1), NX);
    check("1 + 2^-53 RMM", f -> f.addD(d(1), half, RMM), 0x3ff0000000000001L, NX);
    check("-1 - 2^-53 RMM", f -> f.addD(d(-1), half | NEG_ZERO_D, RMM), 0xbff0000000000001L, NX);
    // tie whose even neighbour is the larger one: RNE and RMM agree
    check(
        "(1+ulp) + 2^-53 RNE",
        f -> f.addD(0x3ff0000000000001L, half, RNE),
        0x3ff0000000000002L,
        NX);
    check(
        "(1+ulp) + 2^-53 RMM",
        f -> f.addD(0x3ff0000000000001L, half, RMM),
        0x3ff0000000000002L,
        NX);
    check(
        "1 + 2^-24 single RNE",
        f -> f.addS(s(1f), s(0x1p-24f), RNE) & 0xffffffffL,
        0x3f800000L,
        NX);
    check(
        "1 + 2^-24 single RMM",
        f -> f.addS(s(1f), s(0x1p-24f), RMM) & 0xffffffffL,
        0x3f800001L,
        NX);
    check("2.5 -> w RNE", f -> f.cvtWD(d(2.5), RNE), 2, NX);
    check("2.5 -> w RMM", f -> f.cvtWD(d(2.5), RMM), 3, NX);
    check("-2.5 -> w RMM", f -> f.cvtWD(d(-2.5), RMM), -3, NX);
    check("-2.5 -> l RNE", f -> f.cvtLD(d(-2.5), RNE), -2, NX);
    // 2^53+1 is a tie between 2^53 and 2^53+2
    check("2^53+1 -> d RNE", f -> f.cvtDL((1L << 53) + 1, RNE), d(0x1p53), NX);
    check("2^53+1 -> d RMM", f -> f.cvtDL((1L << 53) + 1, RMM), d(0x1p53 + 2), NX);
  }

  @Test
  void overflowResultDependsOnRoundingMode() {
    check("MAX*2 RNE", f -> f.mulD(MAX_D, d(2), RNE), INF_D, OF | NX);
    check("MAX*2 RTZ", f -> f.mulD(MAX_D, d(2), RTZ), MAX_D, OF | NX);
    check("MAX*2 RDN", f -> f.mulD(MAX_D, d(2), RDN), MAX_D, OF | NX);
    check("MAX*2 RUP", f -> f.mulD(MAX_D, d(2), RUP), INF_D, OF | NX);
    check("MAX*2 RMM", f -> f.mulD(MAX_D, d(2), RMM), INF_D, OF | NX);
    check("-MAX*2 RTZ", f -> f.mulD(MAX_D, d(-2), RTZ), MAX_D | NEG_ZERO_D, OF | NX);
    check("-MAX*2 RDN", f -> f.mulD(MAX_D, d(-2), RDN), NEG_INF_D, OF | NX);
    check("-MAX*2 RUP", f -> f.mulD(MAX_D, d(-2), RUP), MAX_D | NEG_ZERO_D, OF | NX);
    check("MAXs*2 RTZ", f -> f.mulS(0x7f7fffff, s(2f), RTZ) & 0xffffffffL, 0x7f7fffffL, OF | NX);
    check("MAXs*2 RNE", f -> f.mulS(0x7f7fffff, s(2f), RNE) & 0xffffffffL, 0x7f800000L, OF | NX);
    // MAX + half an ulp of MAX: RNE ties to the even "2^1024" -> overflow; RTZ stays at MAX, no OF
    check("MAX + ulp/2 RNE", f -> f.addD(MAX_D, d(0x1p970), RNE), INF_D, OF | NX);
    check("MAX + ulp/2 RTZ", f -> f.addD(MAX_D, d(0x1p970), RTZ), MAX_D, NX);
    check("MAX + ulp/4 RUP", f -> f.addD(MAX_D, d(0x1p969), RUP), INF_D, OF | NX);
    // cvt.s.d of a double beyond the single range
    check("1e300 -> s RTZ", f -> f.cvtSD(d(1e300), RTZ) & 0xffffffffL, 0x7f7fffffL, OF | NX);
  }

  @Test
  void tininessIsDetectedAfterRounding() {
    // (2^54-1) * 2^-1076 = 2^-1022 - 2^-1076: with an unbounded exponent it rounds (RNE) to
    // 2^-1022,
    // so it is not tiny; the delivered result is MIN_NORMAL, inexact, without UF.
    long x = d(134217727.0 * 0x1p-27); // 2^27-1 scaled
    long y = d(Math.scalb(134217729.0, -1049)); // (2^27+1) * 2^-1049, normal
    check("not tiny after rounding", f -> f.mulD(x, y, RNE), MIN_NORMAL_D, NX);
    // (2^53-1) * 2^-1075 = 2^-1022 - 2^-1075 is exactly representable with 53 bits below 2^-1022:
    // tiny after rounding; as a subnormal it is inexact (rounds up to MIN_NORMAL): UF and NX.
    check(
        "tiny, rounds to MIN_NORMAL",
        f -> f.mulD(0x3fffffffffffffffL, 0x0008000000000000L, RNE),
        MIN_NORMAL_D,
        UF | NX);
    // tiny but exact: no UF
    check("exact subnormal", f -> f.mulD(d(0.5), 0x0000000000000002L, RNE), 0x0000000000000001L, 0);
    check("min subnormal / 2 RNE", f -> f.mulD(d(0.5), 0x0000000000000001L, RNE), 0L, UF | NX);
    check("min subnormal / 2 RUP", f -> f.mulD(d(0.5), 0x0000000000000001L, RUP), 1L, UF | NX);
    check("min subnormal / 2 RMM", f -> f.mulD(d(0.5), 0x0000000000000001L, RMM), 1L, UF | NX);
    check(
        "-min subnormal / 2 RDN",
        f -> f.mulD(d(-0.5), 0x0000000000000001L, RDN),
        0x8000000000000001L,
        UF | NX);
    check(
        "-min subnormal / 2 RTZ",
        f -> f.mulD(d(-0.5), 0x0000000000000001L, RTZ),
        NEG_ZERO_D,
        UF | NX);
    // single: min subnormal * 0.75 rounds up to min subnormal in RNE
    check("single subnormal", f -> f.mulS(1, s(0.75f), RNE) & 0xffffffffL, 1L, UF | NX);
    // subtraction of normals giving an exact subnormal: no flags at all
    check(
        "exact subnormal difference",
        f -> Semantics.fsub_d(f, 0x0010000000000001L, MIN_NORMAL_D, RNE),
        1L,
        0);
  }

  @Test
  void minMaxAndCompareNaNRules() {
    check("min(sNaN, 1)", f -> f.minD(SNAN_D, d(1)), d(1), NV);
    check("max(1, sNaN)", f -> f.maxD(d(1), SNAN_D), d(1), NV);
    check("min(qNaN, 1)", f -> f.minD(QNAN_D, d(1)), d(1), 0);
    check("min(sNaN, qNaN)", f -> f.minD(SNAN_D, QNAN_D), CANON_D, NV);
    check("max(qNaN, qNaN)", f -> f.maxD(QNAN_D, QNAN_D), CANON_D, 0);
    check("min(+0, -0)", f -> f.minD(0, NEG_ZERO_D), NEG_ZERO_D, 0);
    check("max(-0, +0)", f -> f.maxD(NEG_ZERO_D, 0), 0, 0);
    check("min.s(sNaN, 2)", f -> f.minS(SNAN_S, s(2f)) & 0xffffffffL, s(2f), NV);
    check("max.s(-0, +0)", f -> f.maxS(0x80000000, 0), 0, 0);
    check("eq(qNaN, qNaN)", f -> f.eqD(QNAN_D, QNAN_D), 0, 0);
    check("eq(sNaN, 1)", f -> f.eqD(SNAN_D, d(1)), 0, NV);
    check("lt(qNaN, 1)", f -> f.ltD(QNAN_D, d(1)), 0, NV);
    check("le(-0, +0)", f -> f.leD(NEG_ZERO_D, 0), 1, 0);
    check("eq(-0, +0)", f -> f.eqD(NEG_ZERO_D, 0), 1, 0);
    check("lt(-0, +0)", f -> f.ltD(NEG_ZERO_D, 0), 0, 0);
  }

  @Test
  void conversionsAtIntegerBoundaries() {
    check(
        "2^31-0.5 -> w RNE (ties to 2^31)",
        f -> f.cvtWD(d(2147483647.5), RNE),
        Integer.MAX_VALUE,
        NV);
    check("2^31-0.5 -> w RTZ", f -> f.cvtWD(d(2147483647.5), RTZ), Integer.MAX_VALUE, NX);
    check("2^31 -> w", f -> f.cvtWD(d(0x1p31), RTZ), Integer.MAX_VALUE, NV);
    check("-2^31-0.5 -> w RNE", f -> f.cvtWD(d(-2147483648.5), RNE), Integer.MIN_VALUE, NX);
    check("-2^31-0.5 -> w RMM", f -> f.cvtWD(d(-2147483648.5), RMM), Integer.MIN_VALUE, NV);
    check(
        "2^32-1 -> wu (sign-extended)", f -> Semantics.fcvt_wu_d(f, d(4294967295.0), RNE), -1L, 0);
    check("2^32 -> wu", f -> Semantics.fcvt_wu_d(f, d(0x1p32), RNE), -1L, NV);
    check("-1 -> wu", f -> Semantics.fcvt_wu_d(f, d(-1), RNE), 0, NV);
    check("-0.5 -> lu RTZ", f -> f.cvtLUD(d(-0.5), RTZ), 0, NX);
    check("-0.5 -> lu RDN", f -> f.cvtLUD(d(-0.5), RDN), 0, NV);
    check("2^63 -> l", f -> f.cvtLD(d(0x1p63), RNE), Long.MAX_VALUE, NV);
    check("-2^63 -> l", f -> f.cvtLD(d(-0x1p63), RNE), Long.MIN_VALUE, 0);
    check("2^63 -> lu", f -> f.cvtLUD(d(0x1p63), RNE), Long.MIN_VALUE, 0);
    check("2^64-2048 -> lu", f -> f.cvtLUD(d(Math.nextDown(0x1p64)), RNE), 0xfffffffffffff800L, 0);
    check("2^64 -> lu", f -> f.cvtLUD(d(0x1p64), RNE), -1L, NV);
    check("NaN -> w", f -> f.cvtWD(QNAN_D | NEG_ZERO_D, RNE), Integer.MAX_VALUE, NV);
    check("NaN -> lu", f -> f.cvtLUD(CANON_D, RNE), -1L, NV);
    check("-inf -> l", f -> f.cvtLD(NEG_INF_D, RNE), Long.MIN_VALUE, NV);
    check("-inf -> wu", f -> Semantics.fcvt_wu_d(f, NEG_INF_D, RNE), 0, NV);
    check("single 2^31 -> w", f -> f.cvtWS(s(0x1p31f), RNE), Integer.MAX_VALUE, NV);
    check("single -2^31 -> w", f -> f.cvtWS(s(-0x1p31f), RNE), Integer.MIN_VALUE, 0);
    check("single 2^63 -> l", f -> f.cvtLS(s(0x1p63f), RNE), Long.MAX_VALUE, NV);
    check("2^64-1 -> d RNE", f -> f.cvtDLU(-1L, RNE), d(0x1p64), NX);
    check("2^64-1 -> d RTZ", f -> f.cvtDLU(-1L, RTZ), d(Math.nextDown(0x1p64)), NX);
    check("Long.MIN -> d", f -> f.cvtDL(Long.MIN_VALUE, RNE), d(-0x1p63), 0);
    check("w ignores upper bits", f -> Semantics.fcvt_d_w(f, 0x12345678ffffffffL, RNE), d(-1), 0);
    check(
        "wu ignores upper bits",
        f -> Semantics.fcvt_d_wu(f, 0x12345678ffffffffL, RNE),
        d(4294967295.0),
        0);
    check(
        "2^24+1 -> s RUP",
        f -> Semantics.fcvt_s_w(f, (1 << 24) + 1, RUP) & 0xffffffffL,
        s(0x1p24f + 2),
        NX);
  }

  @Test
  void negativeZeroConversions() {
    check("-0 -> w", f -> f.cvtWD(NEG_ZERO_D, RDN), 0, 0);
    check("-0 -> lu", f -> f.cvtLUD(NEG_ZERO_D, RNE), 0, 0);
    check("-0 -> wu (single)", f -> Semantics.fcvt_wu_s(f, Fpu.boxS(0x80000000), RNE), 0, 0);
    check("-0 -> s", f -> f.cvtSD(NEG_ZERO_D, RNE) & 0xffffffffL, 0x80000000L, 0);
    check("-0.0f -> d", f -> f.cvtDS(0x80000000), NEG_ZERO_D, 0);
    check("int 0 -> d is +0", f -> f.cvtDL(0, RDN), 0, 0);
    check("int 0 -> s is +0", f -> Semantics.fcvt_s_w(f, 0, RDN) & 0xffffffffL, 0, 0);
  }

  @Test
  void specialValuesAndCanonicalNaN() {
    check("qNaN + 1", f -> f.addD(QNAN_D, d(1), RNE), CANON_D, 0);
    check("sNaN + 1", f -> f.addD(SNAN_D, d(1), RNE), CANON_D, NV);
    check("inf - inf", f -> Semantics.fsub_d(f, INF_D, INF_D, RNE), CANON_D, NV);
    check("0 * inf", f -> f.mulD(0, INF_D, RNE), CANON_D, NV);
    check("0 / 0", f -> f.divD(0, 0, RNE), CANON_D, NV);
    check("1 / -0", f -> f.divD(d(1), NEG_ZERO_D, RNE), NEG_INF_D, DZ);
    check("inf / 0", f -> f.divD(INF_D, 0, RNE), INF_D, 0);
    check("sqrt(-1)", f -> f.sqrtD(d(-1), RNE), CANON_D, NV);
    check("sqrt(-0)", f -> f.sqrtD(NEG_ZERO_D, RNE), NEG_ZERO_D, 0);
    // the nearest double to sqrt(2) lies above it
    check("sqrt(2) RUP", f -> f.sqrtD(d(2), RUP), d(Math.sqrt(2)), NX);
    check("sqrt(2) RDN", f -> f.sqrtD(d(2), RDN), d(Math.sqrt(2)) - 1, NX);
    check("sqrt.s(sNaN)", f -> f.sqrtS(SNAN_S, RNE) & 0xffffffffL, CANON_S, NV);
    check("fma(inf, 0, qNaN)", f -> f.fmaddD(INF_D, 0, QNAN_D, RNE), CANON_D, NV);
    check("fma(inf, 1, -inf)", f -> f.fmaddD(INF_D, d(1), NEG_INF_D, RNE), CANON_D, NV);
    check("1*1 - 1 RNE", f -> Semantics.fmsub_d(f, d(1), d(1), d(1), RNE), 0, 0);
    check("1*1 - 1 RDN", f -> Semantics.fmsub_d(f, d(1), d(1), d(1), RDN), NEG_ZERO_D, 0);
    check("1 - 1 RDN", f -> f.addD(d(1), d(-1), RDN), NEG_ZERO_D, 0);
    check("-0 + -0", f -> f.addD(NEG_ZERO_D, NEG_ZERO_D, RNE), NEG_ZERO_D, 0);
    check("-(0*1) - 0 (fnmadd)", f -> Semantics.fnmadd_d(f, 0, d(1), 0, RNE), NEG_ZERO_D, 0);
    check("fma exact tiny addend RNE", f -> f.fmaddD(d(1), d(1), d(0x1p-60), RNE), d(1), NX);
    check(
        "fma tiny addend RUP", f -> f.fmaddD(d(1), d(1), d(0x1p-60), RUP), 0x3ff0000000000001L, NX);
    check(
        "fma single exact",
        f -> f.fmaddS(s(1f + 0x1p-12f), s(1f + 0x1p-12f), s(-1f), RNE) & 0xffffffffL,
        s(0x1p-11f + 0x1p-24f),
        0);
    // (1+2^-23)^2 - 1 = 2^-22 + 2^-46 is a tie between 2^-22 and 2^-22 + 2^-45
    check(
        "fma single tie RNE",
        f -> f.fmaddS(s(1f + 0x1p-23f), s(1f + 0x1p-23f), s(-1f), RNE) & 0xffffffffL,
        s(0x1p-22f),
        NX);
    check(
        "fma single tie RMM",
        f -> f.fmaddS(s(1f + 0x1p-23f), s(1f + 0x1p-23f), s(-1f), RMM) & 0xffffffffL,
        s(0x1p-22f + 0x1p-45f),
        NX);
    check("cvt.d.s(sNaN)", f -> f.cvtDS(SNAN_S), CANON_D, NV);
    check("cvt.s.d(qNaN payload)", f -> f.cvtSD(QNAN_D, RNE) & 0xffffffffL, CANON_S, 0);
  }

  @Test
  void classifyAndNanBoxing() {
    assertWithMessage("-inf").that(Fpu.classD(NEG_INF_D)).isEqualTo(1L << 0);
    assertWithMessage("-normal").that(Fpu.classD(d(-1))).isEqualTo(1L << 1);
    assertWithMessage("-subnormal").that(Fpu.classD(0x8000000000000001L)).isEqualTo(1L << 2);
    assertWithMessage("-0").that(Fpu.classD(NEG_ZERO_D)).isEqualTo(1L << 3);
    assertWithMessage("+0").that(Fpu.classD(0)).isEqualTo(1L << 4);
    assertWithMessage("+subnormal").that(Fpu.classD(1)).isEqualTo(1L << 5);
    assertWithMessage("+normal").that(Fpu.classD(d(1))).isEqualTo(1L << 6);
    assertWithMessage("+inf").that(Fpu.classD(INF_D)).isEqualTo(1L << 7);
    assertWithMessage("sNaN").that(Fpu.classD(SNAN_D)).isEqualTo(1L << 8);
    assertWithMessage("qNaN").that(Fpu.classD(QNAN_D)).isEqualTo(1L << 9);
    assertWithMessage("single sNaN").that(Fpu.classS(SNAN_S)).isEqualTo(1L << 8);
    assertWithMessage("single -subnormal").that(Fpu.classS(0x80000001)).isEqualTo(1L << 2);
    assertWithMessage("box").that(Fpu.boxS(0x3f800000)).isEqualTo(0xffffffff3f800000L);
    assertWithMessage("box negative").that(Fpu.boxS(0xbf800000)).isEqualTo(0xffffffffbf800000L);
    assertWithMessage("unbox").that(Fpu.unboxS(0xffffffff3f800000L)).isEqualTo(0x3f800000);
    assertWithMessage("unbox improper").that(Fpu.unboxS(0x000000003f800000L)).isEqualTo(CANON_S);
    assertWithMessage("unbox improper 2").that(Fpu.unboxS(0xfffffffe3f800000L)).isEqualTo(CANON_S);
  }

  @Test
  void flagsAccrue() {
    Fpu f = new Fpu();
    f.addD(d(1), d(0x1p-60), RNE);
    f.divD(d(1), 0, RNE);
    f.addD(d(1), d(1), RNE);
    assertWithMessage("accrued").that(f.fflags).isEqualTo(NX | DZ);
  }

  /**
   * Fused multiply-adds whose exact result is zero (a sum starting at zero, a zero coefficient, an
   * exact cancellation): IEEE 754's sign rule in every rounding mode (zeros of one sign keep it,
   * otherwise +0, or -0 rounding down) and no flag; a product that underflows to zero is not exact
   * and raises its flags.
   */
  @Test
  void fusedMultiplyAddsWithAnExactZeroResult() {
    double[] mags = {0, 3};
    for (int rm : new int[] {RNE, RTZ, RDN, RUP, RMM}) {
      for (int signs = 0; signs < 8; signs++) {
        boolean nx = (signs & 1) != 0;
        boolean ny = (signs & 2) != 0;
        boolean nz = (signs & 4) != 0;
        for (double m : mags) {
          // (+-m) * (+-5) + (+-5m): zero when the signs cancel (m = 3) or everything is zero (m =
          // 0).
          double x = nx ? -m : m;
          double y = ny ? -5 : 5;
          double z = nz ? -5 * m : 5 * m;
          boolean productNegative = nx != ny;
          if (m != 0 && productNegative == nz) {
            continue; // not a zero sum
          }
          boolean negative = rm == RDN ? productNegative || nz : productNegative && nz;
          String what = "fma(" + x + ", " + y + ", " + z + ") rm " + rm;
          check(what, f -> f.fmaddD(d(x), d(y), d(z), rm), negative ? NEG_ZERO_D : 0, 0);
          check(
              what + " single",
              f -> f.fmaddS(s((float) x), s((float) y), s((float) z), rm) & 0xffffffffL,
              negative ? 0x80000000L : 0,
              0);
        }
      }
    }
    // 2^-600 * 2^-600 is far below the smallest subnormal: inexact and underflowing, not zero.
    check("fma underflow RNE", f -> f.fmaddD(d(0x1p-600), d(0x1p-600), 0, RNE), 0, NX | UF);
    check("fma underflow RUP", f -> f.fmaddD(d(0x1p-600), d(0x1p-600), 0, RUP), 1, NX | UF);
    check(
        "fma underflow single RUP",
        f -> f.fmaddS(s(0x1p-100f), s(0x1p-100f), 0, RUP) & 0xffffffffL,
        1,
        NX | UF);
  }
}
