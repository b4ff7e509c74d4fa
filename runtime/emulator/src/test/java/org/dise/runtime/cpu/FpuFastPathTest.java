package org.dise.runtime.cpu;

import static com.google.common.truth.Truth.assertWithMessage;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The fast paths (host double arithmetic with exact error terms: {@link Fpu}'s public methods and
 * the inline RNE paths written into {@link Semantics}, which translated units copy) against {@link
 * Fpu}'s exact slow paths: random operands of every class (normal, subnormal, zero, infinite, quiet
 * and signaling NaN), operand pairs built to cancel or to sit at a tie, in every rounding mode;
 * result bits and fflags must be identical.
 */
class FpuFastPathTest {
  private static final int N = 200_000;
  private static final long SIGN = Long.MIN_VALUE;

  /** A double of any class, biased toward the cases the fast paths must hand on. */
  private static long operand(SplittableRandom r) {
    long bits = r.nextLong();
    return switch (r.nextInt(12)) {
      case 0 -> bits & (SIGN | 0x000fffffffffffffL); // subnormal or zero
      case 1 -> (bits & SIGN) | 0x7ff0000000000000L; // infinity
      case 2 -> (bits & SIGN) | 0x7ff0000000000000L | (bits & 0x000fffffffffffffL | 1); // NaN
      case 3 -> bits & SIGN; // zero
      case 4 -> (bits & ~0x7ff0000000000000L) | ((long) (1023 + r.nextInt(-60, 60)) << 52);
      case 5 -> (bits & ~0x7ff0000000000000L) | ((long) r.nextInt(1, 80) << 52); // tiny
      case 6 -> (bits & ~0x7ff0000000000000L) | ((long) r.nextInt(1950, 2047) << 52); // huge
      case 7 -> Double.doubleToRawLongBits(r.nextInt(-64, 64)); // small integers: exact cases
      case 8 -> bits & 0xfff0000000000000L | (r.nextLong(8)); // few significand bits
      default -> bits;
    };
  }

  /** A third fused operand: often minus the rounded product, or near it, as libm's do. */
  private static long addend(SplittableRandom r, long a, long b) {
    double p = Double.longBitsToDouble(a) * Double.longBitsToDouble(b);
    long pb = Double.doubleToRawLongBits(p);
    return switch (r.nextInt(6)) {
      case 0 -> pb ^ SIGN;
      case 1 -> (pb ^ SIGN) + r.nextInt(-3, 4);
      case 2 -> Double.doubleToRawLongBits(-p * Math.scalb(1.0, r.nextInt(-60, 60)));
      case 3 -> Double.doubleToRawLongBits(Math.ulp(p) * r.nextInt(-4, 5) / 2);
      default -> operand(r);
    };
  }

  private static void same(String what, long fast, int fastFlags, long slow, int slowFlags) {
    assertWithMessage("%s: %s vs %s", what, Long.toHexString(fast), Long.toHexString(slow))
        .that(fast)
        .isEqualTo(slow);
    assertWithMessage("%s flags", what).that(fastFlags).isEqualTo(slowFlags);
  }

  private interface Op {
    long run(Fpu u, long a, long b, long c, int rm);
  }

  private static void compare(String name, boolean fused, Op fast, Op slow) {
    SplittableRandom r = new SplittableRandom(name.hashCode());
    for (int n = 0; n < N; n++) {
      long a = operand(r), b = operand(r), c = fused ? addend(r, a, b) : operand(r);
      if (!fused && r.nextInt(4) == 0) { // a neighbour: cancellation and ties
        b = (a ^ (r.nextBoolean() ? SIGN : 0)) + r.nextInt(-2, 3);
      }
      int rm = r.nextInt(5);
      Fpu f = new Fpu(), s = new Fpu();
      long got = fast.run(f, a, b, c, rm), want = slow.run(s, a, b, c, rm);
      String what = String.format("%s(%016x, %016x, %016x) rm %d", name, a, b, fused ? c : 0, rm);
      same(what, got, f.fflags, want, s.fflags);
    }
  }

  @Test
  void fusedMultiplyAddMatchesTheExactPath() {
    compare(
        "fmaddD",
        true,
        (u, a, b, c, rm) -> u.fmaddD(a, b, c, rm),
        (u, a, b, c, rm) -> u.slowFma(a, b, c, true, rm));
  }

  @Test
  void inlineBodiesMatchTheExactPath() {
    long sign = Long.MIN_VALUE;
    compare(
        "fadd_d",
        false,
        (u, a, b, c, rm) -> Semantics.fadd_d(u, a, b, rm),
        (u, a, b, c, rm) -> u.slowAdd(a, b, true, rm));
    compare(
        "fsub_d",
        false,
        (u, a, b, c, rm) -> Semantics.fsub_d(u, a, b, rm),
        (u, a, b, c, rm) -> u.slowAdd(a, b ^ sign, true, rm));
    compare(
        "fmul_d",
        false,
        (u, a, b, c, rm) -> Semantics.fmul_d(u, a, b, rm),
        (u, a, b, c, rm) -> u.slowMul(a, b, true, rm));
    compare(
        "fdiv_d",
        false,
        (u, a, b, c, rm) -> Semantics.fdiv_d(u, a, b, rm),
        (u, a, b, c, rm) -> u.slowDiv(a, b, true, rm));
    compare(
        "fsqrt_d",
        false,
        (u, a, b, c, rm) -> Semantics.fsqrt_d(u, a, rm),
        (u, a, b, c, rm) -> u.slowSqrt(a, true, rm));
    compare(
        "fmadd_d",
        true,
        (u, a, b, c, rm) -> Semantics.fmadd_d(u, a, b, c, rm),
        (u, a, b, c, rm) -> u.slowFma(a, b, c, true, rm));
    compare(
        "fnmsub_d",
        true,
        (u, a, b, c, rm) -> Semantics.fnmsub_d(u, a, b, c, rm),
        (u, a, b, c, rm) -> u.slowFma(a ^ sign, b, c, true, rm));
    // The comparisons against Fpu's own (general, NaN-aware) ones, whose fast paths the bodies
    // bypass entirely.
    compare(
        "feq_d",
        false,
        (u, a, b, c, rm) -> Semantics.feq_d(u, a, b),
        (u, a, b, c, rm) -> u.eqD(a, b));
    compare(
        "flt_d",
        false,
        (u, a, b, c, rm) -> Semantics.flt_d(u, a, b),
        (u, a, b, c, rm) -> u.ltD(a, b));
    compare(
        "fle_d",
        false,
        (u, a, b, c, rm) -> Semantics.fle_d(u, a, b),
        (u, a, b, c, rm) -> u.leD(a, b));
  }

  @Test
  void translatedUnitsCopyTheInlineBodies() {
    for (String m :
        new String[] {
          "fadd_d", "fsub_d", "fmul_d", "fdiv_d", "fsqrt_d", "feq_d", "flt_d", "fle_d"
        }) {
      assertWithMessage("%s is copied into units", m).that(SemanticsInliner.copyable(m)).isTrue();
    }
  }

  @Test
  void addMulDivSqrtMatchTheExactPath() {
    compare(
        "addD",
        false,
        (u, a, b, c, rm) -> u.addD(a, b, rm),
        (u, a, b, c, rm) -> u.slowAdd(a, b, true, rm));
    compare(
        "mulD",
        false,
        (u, a, b, c, rm) -> u.mulD(a, b, rm),
        (u, a, b, c, rm) -> u.slowMul(a, b, true, rm));
    compare(
        "divD",
        false,
        (u, a, b, c, rm) -> u.divD(a, b, rm),
        (u, a, b, c, rm) -> u.slowDiv(a, b, true, rm));
    compare(
        "sqrtD",
        false,
        (u, a, b, c, rm) -> u.sqrtD(a, rm),
        (u, a, b, c, rm) -> u.slowSqrt(a, true, rm));
  }
}
