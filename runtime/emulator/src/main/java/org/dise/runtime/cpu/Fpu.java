package org.dise.runtime.cpu;

import java.math.BigInteger;

/**
 * RISC-V F/D floating-point semantics (IEEE 754-2008 as profiled by the RISC-V ISA), bit-exact with
 * qemu-riscv64.
 *
 * <p>Operands and results are raw IEEE bit patterns: {@code long} for binary64, {@code int} for
 * binary32. Exception flags accrue (OR) into {@link #fflags}. Rounding modes are the RISC-V
 * encodings 0..4; the caller resolves DYN (7) to {@link #frm} and rejects the reserved encodings.
 *
 * <p>Implementation strategy: every rounding operation has a fast path built on the host's
 * round-to-nearest-even double arithmetic plus an error-free transformation (TwoSum, FMA residual)
 * that yields the exact sign of the rounding error (hence inexactness and the direction to step for
 * directed modes). Whenever the fast path cannot prove its answer (non-finite, tiny or overflowing
 * results, subnormal operands that would make residuals inexact, fused multiply-add in RMM, ...),
 * an exact slow path takes over: operands are unpacked to integer significands, the exact result is
 * formed with integer / BigInteger arithmetic and rounded once by {@link #round}.
 *
 * <p>Binary32 arithmetic is evaluated in binary64 with the exact binary64 rounding error, and then
 * rounded once to binary32 with full knowledge of the exact value, so there is no double-rounding
 * hazard in any rounding mode (this covers fused multiply-add too: the binary32 product is exact in
 * binary64 and the addition's error is captured by TwoSum).
 */
public final class Fpu {
  public static final int NX = 1, UF = 2, OF = 4, DZ = 8, NV = 16;
  public static final int RNE = 0, RTZ = 1, RDN = 2, RUP = 3, RMM = 4;

  /** Accrued exception flags. */
  public int fflags;

  /** Dynamic rounding mode (frm CSR). */
  public int frm;

  /** What a CSR instruction does to the CSR it names: read only, write, set bits, clear bits. */
  static final int CSR_READ = 0, CSR_WRITE = 1, CSR_SET = 2, CSR_CLEAR = 3;

  /**
   * A Zicsr access to fflags (0x001), frm (0x002) or fcsr (0x003) in {@code mode}: returns the
   * CSR's old value and, unless the mode only reads, writes {@code operand}, the old value with its
   * bits set, or with them cleared. The interpreter and translated units both call this.
   */
  public long csr(int number, int mode, long operand) {
    long old =
        switch (number) {
          case 0x001 -> fflags;
          case 0x002 -> frm;
          default -> (frm << 5) | fflags; // fcsr
        };
    if (mode == CSR_READ) {
      return old;
    }
    long v =
        switch (mode) {
          case CSR_WRITE -> operand;
          case CSR_SET -> old | operand;
          default -> old & ~operand;
        };
    switch (number) {
      case 0x001 -> fflags = (int) (v & 0x1f);
      case 0x002 -> frm = (int) (v & 7);
      default -> {
        fflags = (int) (v & 0x1f);
        frm = (int) ((v >>> 5) & 7);
      }
    }
    return old;
  }

  static final long CANON_D = 0x7ff8000000000000L;
  static final int CANON_S = 0x7fc00000;
  private static final long SIGN_D = 0x8000000000000000L;
  private static final int SIGN_S = 0x80000000;
  private static final long EXP_D = 0x7ff0000000000000L;
  private static final long FRAC_D = 0x000fffffffffffffL;
  private static final int EXP_S = 0x7f800000;
  private static final int FRAC_S = 0x007fffff;

  private static final double MIN_N = Double.MIN_NORMAL;
  private static final double MAX_D = Double.MAX_VALUE;

  /**
   * Above this magnitude products/residuals of doubles are exactly representable (no underflow).
   */
  static final double SAFE_LO = 0x1p-967;

  /** Sentinel for "fast path failed"; a NaN pattern never produced as a result. */
  private static final long FAIL = -1L;

  // Format selectors for the generic slow path.
  private static final boolean D = true, S = false;

  // ==================================================================================================
  // Double precision arithmetic
  // ==================================================================================================

  // Subtraction and the negated fused forms are these with an operand's sign flipped (Semantics).

  public long addD(long a, long b, int rm) {
    double x = Double.longBitsToDouble(a), y = Double.longBitsToDouble(b);
    double r = x + y;
    double ar = Math.abs(r);
    if (ar > MIN_N && ar <= MAX_D) {
      long res = roundD(r, sumError(x, y, r), rm);
      if (res != FAIL) {
        return res;
      }
    }
    if (r == 0) { // exact cancellation (or two zeros): sums that round to zero are exact
      if (rm != RDN) {
        return Double.doubleToRawLongBits(r); // +0 unless both operands are -0
      }
      return (a | b) == 0 ? 0 : SIGN_D; // RDN: -0 unless both operands are +0
    }
    return slowAdd(a, b, D, rm);
  }

  public long mulD(long a, long b, int rm) {
    double x = Double.longBitsToDouble(a), y = Double.longBitsToDouble(b);
    double r = x * y;
    double ar = Math.abs(r);
    if (ar >= SAFE_LO && ar <= MAX_D) {
      long res = roundD(r, Math.fma(x, y, -r), rm);
      if (res != FAIL) {
        return res;
      }
    }
    return slowMul(a, b, D, rm);
  }

  public long divD(long a, long b, int rm) {
    double x = Double.longBitsToDouble(a), y = Double.longBitsToDouble(b);
    double r = x / y;
    double ar = Math.abs(r);
    if (ar > MIN_N && ar <= MAX_D && Math.abs(x) >= SAFE_LO) {
      double rem = Math.fma(-r, y, x); // exact: x - r*y
      double err = rem == 0 ? 0 : ((rem > 0) == (y > 0)) ? Double.MIN_VALUE : -Double.MIN_VALUE;
      // A normal quotient is never exactly halfway between two doubles, so RMM == RNE here.
      long res = roundD(r, err, rm == RMM ? RNE : rm);
      if (res != FAIL) {
        return res;
      }
    }
    return slowDiv(a, b, D, rm);
  }

  public long sqrtD(long a, int rm) {
    double x = Double.longBitsToDouble(a);
    if (x >= SAFE_LO && x <= MAX_D) {
      double r = Math.sqrt(x);
      double rem = Math.fma(-r, r, x); // exact: x - r*r
      double err = rem == 0 ? 0 : rem > 0 ? Double.MIN_VALUE : -Double.MIN_VALUE;
      long res = roundD(r, err, rm == RMM ? RNE : rm); // square roots are never ties
      if (res != FAIL) {
        return res;
      }
    }
    return slowSqrt(a, D, rm);
  }

  /** a * b + c, rounded once. */
  public long fmaddD(long a, long b, long c, int rm) {
    double x = Double.longBitsToDouble(a),
        y = Double.longBitsToDouble(b),
        z = Double.longBitsToDouble(c);
    double r = Math.fma(x, y, z);
    double ar = Math.abs(r);
    if (ar > MIN_N && ar <= MAX_D) {
      double p = x * y;
      double ap = Math.abs(p);
      if (ap >= SAFE_LO && ap <= MAX_D) {
        // The exact error x*y + z - r as r2 + r3 (Boldo and Muller's ErrFma: |r3| <= ulp(r2)/2,
        // so r2 is zero iff the error is and otherwise carries its sign). Its conditions hold
        // here: the product's residual pe is exact above SAFE_LO, and sums are exact or round as
        // without underflow; an overflow in the sums shows as a non-finite r2.
        double pe = Math.fma(x, y, -p);
        double a1 = z + pe;
        double z1 = sumError(z, pe, a1);
        double b1 = p + a1;
        double g = ((b1 - r) + sumError(p, a1, b1));
        double r2 = g + z1;
        if (r2 == 0) {
          return Double.doubleToRawLongBits(r);
        }
        if (Math.abs(r2) <= MAX_D) {
          // RMM differs from RNE only at a tie: r2 exact (r3 == 0) and half an ulp.
          if (rm == RNE || (rm == RMM && z1 - (r2 - g) != 0)) {
            fflags |= NX;
            return Double.doubleToRawLongBits(r);
          }
          long res = adjustD(r, r2, rm);
          if (res != FAIL) {
            fflags |= NX;
            return res;
          }
        }
      }
    }
    return slowFma(a, b, c, D, rm);
  }

  /** The exact error of the double sum s = x + y (TwoSum; exact unless it overflows). */
  private static double sumError(double x, double y, double s) {
    double bv = s - x;
    return (x - (s - bv)) + (y - bv);
  }

  /**
   * The rounding in mode rm of a value v whose round-to-nearest-even is the normal double r, where
   * err has the sign of v - r (and is v - r exactly where RMM must recognise a tie): r itself when
   * exact or in RNE, otherwise by {@link #adjustD}; FAIL when that leaves the safe normal range.
   * Sets NX when inexact.
   */
  private long roundD(double r, double err, int rm) {
    if (err != 0) {
      fflags |= NX;
      if (rm != RNE) {
        return adjustD(r, err, rm);
      }
    }
    return Double.doubleToRawLongBits(r);
  }

  /**
   * Given r = RNE(v) normal and finite, and err with the sign of v - r (err == v - r exactly when a
   * tie must be recognisable for RMM), returns the rounding of v in mode rm, or FAIL if the result
   * leaves the safe normal range (overflow, or possibly tiny).
   */
  private static long adjustD(double r, double err, int rm) {
    double lo, hi;
    if (err > 0) {
      lo = r;
      hi = Math.nextUp(r);
    } else {
      hi = r;
      lo = Math.nextDown(r);
    }
    double res;
    switch (rm) {
      case RTZ:
        res = r > 0 ? lo : hi;
        break;
      case RDN:
        res = lo;
        break;
      case RUP:
        res = hi;
        break;
      case RMM:
        if (Math.abs(err) * 2 == hi - lo) {
          res = Math.abs(lo) > Math.abs(hi) ? lo : hi;
        } else {
          res = r;
        }
        break;
      default:
        res = r;
    }
    double a = Math.abs(res);
    if (!(a > MIN_N && a <= MAX_D) || Double.isInfinite(hi) || Double.isInfinite(lo)) {
      return FAIL;
    }
    return Double.doubleToRawLongBits(res);
  }

  // ==================================================================================================
  // Single precision arithmetic (evaluated in double with exact error, rounded once)
  // ==================================================================================================

  public int addS(int a, int b, int rm) {
    double x = Float.intBitsToFloat(a), y = Float.intBitsToFloat(b);
    double d = x + y;
    long res = roundToS(d, sumError(x, y, d), rm);
    if (res != FAIL) {
      return (int) res;
    }
    return (int) slowAdd(a & 0xffffffffL, b & 0xffffffffL, S, rm);
  }

  public int mulS(int a, int b, int rm) {
    double x = Float.intBitsToFloat(a), y = Float.intBitsToFloat(b);
    long res = roundToS(x * y, 0, rm); // product of two floats is exact in double
    if (res != FAIL) {
      return (int) res;
    }
    return (int) slowMul(a & 0xffffffffL, b & 0xffffffffL, S, rm);
  }

  public int divS(int a, int b, int rm) {
    double x = Float.intBitsToFloat(a), y = Float.intBitsToFloat(b);
    double d = x / y;
    double rem = Math.fma(-d, y, x);
    double err = rem == 0 ? 0 : ((rem > 0) == (y > 0) ? Double.MIN_VALUE : -Double.MIN_VALUE);
    long res = roundToS(d, err, rm);
    if (res != FAIL) {
      return (int) res;
    }
    return (int) slowDiv(a & 0xffffffffL, b & 0xffffffffL, S, rm);
  }

  public int sqrtS(int a, int rm) {
    double x = Float.intBitsToFloat(a);
    if (x > 0) {
      double d = Math.sqrt(x);
      double rem = Math.fma(-d, d, x);
      long res = roundToS(d, rem == 0 ? 0 : (rem > 0 ? Double.MIN_VALUE : -Double.MIN_VALUE), rm);
      if (res != FAIL) {
        return (int) res;
      }
    }
    return (int) slowSqrt(a & 0xffffffffL, S, rm);
  }

  /** a * b + c, rounded once. */
  public int fmaddS(int a, int b, int c, int rm) {
    double x = Float.intBitsToFloat(a), y = Float.intBitsToFloat(b), z = Float.intBitsToFloat(c);
    double p = x * y; // exact
    double d = p + z;
    long res = roundToS(d, sumError(p, z, d), rm);
    if (res != FAIL) {
      return (int) res;
    }
    return (int) slowFma(a & 0xffffffffL, b & 0xffffffffL, c & 0xffffffffL, S, rm);
  }

  /**
   * Rounds the exact value v = d + err to binary32 in mode rm, where d is a double and |err| is
   * less than half an ulp of d (only the sign of err matters). Works directly on d's bits: the 29
   * low fraction bits are the part below binary32 precision, err breaks the remaining ties. Returns
   * FAIL unless the result is safely normal (no overflow, not tiny); otherwise sets NX if inexact.
   */
  private long roundToS(double d, double err, int rm) {
    long db = Double.doubleToRawLongBits(d);
    int be = (int) (db >>> 52) & 0x7ff;
    if (be < 896 + 2
        || be > 896 + 253) { // binary32 biased exponent outside [2, 253] (or 0/NaN/inf)
      return FAIL;
    }
    long mag = ((db & ~SIGN_D) >>> 29) - (896L << 23); // truncated binary32 magnitude bits
    long rem = db & 0x1fffffffL;
    final long half = 0x10000000L;
    if (rm == RNE && (err == 0 || rem != half)) {
      if (rem != 0 || err != 0) {
        fflags |= NX;
      }
      long q = mag + ((rem + (half - 1) + (mag & 1)) >>> 29);
      return db < 0 ? q | 0x80000000L : q;
    }
    return roundToSDirected(db, mag, rem, err, rm);
  }

  /** The non-RNE (and RNE-with-sticky-tie) tail of {@link #roundToS}, kept out of line. */
  private long roundToSDirected(long db, long mag, long rem, double err, int rm) {
    final long half = 0x10000000L;
    boolean neg = db < 0;
    double errMag = neg ? -err : err; // sign of |v| - |d|
    if (rem == 0) {
      if (errMag == 0) {
        return neg ? mag | 0x80000000L : mag;
      }
      if (errMag < 0) { // |v| is just below the binary32 value |d|
        mag -= 1;
        rem = 0x1fffffffL;
      }
    }
    int cmp = rem != half ? Long.compare(rem, half) : (int) Math.signum(errMag);
    fflags |= NX;
    long q = roundsUp(rm, cmp, (mag & 1) != 0, neg) ? mag + 1 : mag;
    return neg ? q | 0x80000000L : q;
  }

  // ==================================================================================================
  // min / max / compare / classify
  // ==================================================================================================

  // Each is written once over raw bits, binary32 zero-extended ({@link #value} widens it exactly).

  public long minD(long a, long b) {
    return minMax(a, b, D, true);
  }

  public long maxD(long a, long b) {
    return minMax(a, b, D, false);
  }

  public int minS(int a, int b) {
    return (int) minMax(a & 0xffffffffL, b & 0xffffffffL, S, true);
  }

  public int maxS(int a, int b) {
    return (int) minMax(a & 0xffffffffL, b & 0xffffffffL, S, false);
  }

  private long minMax(long a, long b, boolean dbl, boolean min) {
    boolean an = isNaN(a, dbl), bn = isNaN(b, dbl);
    if (an || bn) {
      if (isSNaN(a, dbl) || isSNaN(b, dbl)) {
        fflags |= NV;
      }
      return an && bn ? canon(dbl) : an ? b : a;
    }
    double x = value(a, dbl), y = value(b, dbl);
    if (x < y) {
      return min ? a : b;
    }
    if (y < x) {
      return min ? b : a;
    }
    return min ? (a | b) : (a & b); // equal: only +-0 differ in bits
  }

  public long eqD(long a, long b) {
    return equal(a, b, D);
  }

  public long ltD(long a, long b) {
    return less(a, b, D, false);
  }

  public long leD(long a, long b) {
    return less(a, b, D, true);
  }

  public long eqS(int a, int b) {
    return equal(a & 0xffffffffL, b & 0xffffffffL, S);
  }

  public long ltS(int a, int b) {
    return less(a & 0xffffffffL, b & 0xffffffffL, S, false);
  }

  public long leS(int a, int b) {
    return less(a & 0xffffffffL, b & 0xffffffffL, S, true);
  }

  /** feq: a quiet comparison (only a signaling NaN raises NV). */
  private long equal(long a, long b, boolean dbl) {
    if (isNaN(a, dbl) || isNaN(b, dbl)) {
      if (isSNaN(a, dbl) || isSNaN(b, dbl)) {
        fflags |= NV;
      }
      return 0;
    }
    return value(a, dbl) == value(b, dbl) ? 1 : 0;
  }

  /** flt and fle (orEqual): signaling comparisons (any NaN raises NV). */
  private long less(long a, long b, boolean dbl, boolean orEqual) {
    if (isNaN(a, dbl) || isNaN(b, dbl)) {
      fflags |= NV;
      return 0;
    }
    double x = value(a, dbl), y = value(b, dbl);
    return x < y || (orEqual && x == y) ? 1 : 0;
  }

  /** The value of raw bits (binary32 ones widened, which is exact). */
  private static double value(long bits, boolean dbl) {
    return dbl ? Double.longBitsToDouble(bits) : Float.intBitsToFloat((int) bits);
  }

  public static long classD(long a) {
    return classify(a, D);
  }

  public static long classS(int a) {
    return classify(a & 0xffffffffL, S);
  }

  private static long classify(long bits, boolean dbl) {
    int m = dbl ? 52 : 23;
    int ebits = dbl ? 11 : 8;
    boolean neg = ((bits >>> (m + ebits)) & 1) != 0;
    long e = (bits >>> m) & ((1L << ebits) - 1);
    long f = bits & ((1L << m) - 1);
    int bit;
    if (e == (1L << ebits) - 1) {
      if (f == 0) {
        bit = neg ? 0 : 7;
      } else {
        bit = (f >>> (m - 1)) != 0 ? 9 : 8;
      }
    } else if (e == 0) {
      if (f == 0) {
        bit = neg ? 3 : 4;
      } else {
        bit = neg ? 2 : 5;
      }
    } else {
      bit = neg ? 1 : 6;
    }
    return 1L << bit;
  }

  // ==================================================================================================
  // Conversions
  // ==================================================================================================

  private static final int K_W = 0, K_WU = 1, K_L = 2, K_LU = 3;

  public long cvtWD(long d, int rm) {
    return toInt(d, D, rm, K_W);
  }

  /** The unsigned 32-bit result, zero-extended (fcvt.wu.d sign-extends it: Semantics). */
  public long cvtWUD(long d, int rm) {
    return toInt(d, D, rm, K_WU);
  }

  public long cvtLD(long d, int rm) {
    return toInt(d, D, rm, K_L);
  }

  public long cvtLUD(long d, int rm) {
    return toInt(d, D, rm, K_LU);
  }

  public long cvtWS(int s, int rm) {
    return toInt(s & 0xffffffffL, S, rm, K_W);
  }

  /** The unsigned 32-bit result, zero-extended (fcvt.wu.s sign-extends it: Semantics). */
  public long cvtWUS(int s, int rm) {
    return toInt(s & 0xffffffffL, S, rm, K_WU);
  }

  public long cvtLS(int s, int rm) {
    return toInt(s & 0xffffffffL, S, rm, K_L);
  }

  public long cvtLUS(int s, int rm) {
    return toInt(s & 0xffffffffL, S, rm, K_LU);
  }

  private long toInt(long bits, boolean dbl, int rm, int kind) {
    int m = dbl ? 52 : 23;
    int ebits = dbl ? 11 : 8;
    boolean neg = ((bits >>> (m + ebits)) & 1) != 0;
    long e = (bits >>> m) & ((1L << ebits) - 1);
    if (e == (1L << ebits) - 1) {
      fflags |= NV;
      if ((bits & ((1L << m) - 1)) != 0) {
        neg = false; // NaN converts like +infinity
      }
      return saturate(neg, kind);
    }
    long sig = sigOf(bits, dbl);
    if (sig == 0) {
      return 0;
    }
    int exp = expOf(bits, dbl);
    long mag;
    boolean inexact;
    if (exp >= 0) {
      if (64 - Long.numberOfLeadingZeros(sig) + exp > 64) {
        fflags |= NV;
        return saturate(neg, kind);
      }
      mag = sig << exp;
      inexact = false;
    } else {
      mag = rshiftRound(sig, -exp, neg, rm);
      inexact = rInexact;
    }
    boolean ok;
    switch (kind) {
      case K_W:
        ok =
            neg
                ? Long.compareUnsigned(mag, 1L << 31) <= 0
                : Long.compareUnsigned(mag, (1L << 31) - 1) <= 0;
        break;
      case K_WU:
        ok = neg ? mag == 0 : Long.compareUnsigned(mag, 0xffffffffL) <= 0;
        break;
      case K_L:
        ok = neg ? Long.compareUnsigned(mag, 1L << 63) <= 0 : mag >= 0;
        break;
      default:
        ok = !neg || mag == 0;
    }
    if (!ok) {
      fflags |= NV;
      return saturate(neg, kind);
    }
    if (inexact) {
      fflags |= NX;
    }
    return neg ? -mag : mag;
  }

  private static long saturate(boolean neg, int kind) {
    switch (kind) {
      case K_W:
        return neg ? Integer.MIN_VALUE : Integer.MAX_VALUE;
      case K_WU:
        return neg ? 0 : 0xffffffffL;
      case K_L:
        return neg ? Long.MIN_VALUE : Long.MAX_VALUE;
      default:
        return neg ? 0 : -1L;
    }
  }

  // From integers: a 32-bit source is extended to 64 bits by the instruction (Semantics).

  public long cvtDL(long x, int rm) {
    if (x > -(1L << 53) && x < (1L << 53)) {
      return Double.doubleToRawLongBits((double) x);
    }
    return fromInt(x < 0, x < 0 ? -x : x, D, rm);
  }

  public long cvtDLU(long x, int rm) {
    if (x >= 0 && x < (1L << 53)) {
      return Double.doubleToRawLongBits((double) x);
    }
    return fromInt(false, x, D, rm);
  }

  public int cvtSL(long x, int rm) {
    return (int) fromInt(x < 0, x < 0 ? -x : x, S, rm);
  }

  public int cvtSLU(long x, int rm) {
    return (int) fromInt(false, x, S, rm);
  }

  /** Rounds the integer (-1)^neg * mag (mag unsigned 64-bit) to the format. */
  private long fromInt(boolean neg, long mag, boolean dbl, int rm) {
    if (mag == 0) {
      return 0;
    }
    int exp = 0;
    if (mag < 0) { // >= 2^63 unsigned: fold the low bit into a sticky bit
      mag = (mag >>> 1) | (mag & 1);
      exp = 1;
    }
    return round(neg, mag, exp, dbl, rm);
  }

  public int cvtSD(long d, int rm) {
    double x = Double.longBitsToDouble(d);
    long res = roundToS(x, 0, rm);
    if (res != FAIL) {
      return (int) res;
    }
    if (isNaN(d, D)) {
      if (isSNaN(d, D)) {
        fflags |= NV;
      }
      return CANON_S;
    }
    boolean neg = d < 0;
    if ((d & ~SIGN_D) == EXP_D) {
      return neg ? 0xff800000 : 0x7f800000;
    }
    long sig = sigOf(d, D);
    if (sig == 0) {
      return neg ? SIGN_S : 0;
    }
    return (int) round(neg, sig, expOf(d, D), S, rm);
  }

  public long cvtDS(int s) {
    long ls = s & 0xffffffffL;
    if (isNaN(ls, S)) {
      if (isSNaN(ls, S)) {
        fflags |= NV;
      }
      return CANON_D;
    }
    return Double.doubleToRawLongBits((double) Float.intBitsToFloat(s));
  }

  // ==================================================================================================
  // NaN boxing
  // ==================================================================================================

  public static long boxS(int s) {
    return 0xffffffff00000000L | (s & 0xffffffffL);
  }

  public static int unboxS(long reg) {
    return (reg >>> 32) == 0xffffffffL ? (int) reg : CANON_S;
  }

  // ==================================================================================================
  // Exact slow path (generic over binary32/binary64; bits of binary32 are zero-extended in a long)
  // ==================================================================================================

  private static int mBits(boolean dbl) {
    return dbl ? 52 : 23;
  }

  private static int eBits(boolean dbl) {
    return dbl ? 11 : 8;
  }

  private static long signBit(boolean dbl) {
    return dbl ? SIGN_D : 0x80000000L;
  }

  private static long canon(boolean dbl) {
    return dbl ? CANON_D : CANON_S & 0xffffffffL;
  }

  private static long infBits(boolean neg, boolean dbl) {
    return (dbl ? EXP_D : (long) EXP_S) | (neg ? signBit(dbl) : 0);
  }

  private static boolean sign(long bits, boolean dbl) {
    return (bits & signBit(dbl)) != 0;
  }

  private static boolean isNaN(long bits, boolean dbl) {
    if (dbl) {
      return (bits & ~SIGN_D) > EXP_D;
    }
    return (bits & 0x7fffffffL) > EXP_S;
  }

  private static boolean isSNaN(long bits, boolean dbl) {
    return isNaN(bits, dbl) && (bits & (1L << (mBits(dbl) - 1))) == 0;
  }

  private static boolean isInf(long bits, boolean dbl) {
    return dbl ? (bits & ~SIGN_D) == EXP_D : (bits & 0x7fffffffL) == EXP_S;
  }

  private static boolean isZero(long bits, boolean dbl) {
    return (bits & ~signBit(dbl)) == 0;
  }

  /** Integer significand (with hidden bit) of a finite value. */
  private static long sigOf(long bits, boolean dbl) {
    int m = mBits(dbl);
    long e = (bits >>> m) & ((1L << eBits(dbl)) - 1);
    long f = bits & ((1L << m) - 1);
    return e == 0 ? f : f | (1L << m);
  }

  /** Exponent of the significand's unit bit: value = sigOf * 2^expOf. */
  private static int expOf(long bits, boolean dbl) {
    int m = mBits(dbl);
    int e = (int) ((bits >>> m) & ((1L << eBits(dbl)) - 1));
    int bias = (1 << (eBits(dbl) - 1)) - 1;
    return (e == 0 ? 1 : e) - bias - m;
  }

  private long invalid(boolean dbl) {
    fflags |= NV;
    return canon(dbl);
  }

  private long nanResult(long a, long b, long c, boolean dbl) {
    if (isSNaN(a, dbl) || isSNaN(b, dbl) || isSNaN(c, dbl)) {
      fflags |= NV;
    }
    return canon(dbl);
  }

  private long exactZero(int rm, boolean dbl) {
    return rm == RDN ? signBit(dbl) : 0;
  }

  long slowAdd(long a, long b, boolean dbl, int rm) {
    if (isNaN(a, dbl) || isNaN(b, dbl)) {
      return nanResult(a, b, 0, dbl);
    }
    boolean na = sign(a, dbl), nb = sign(b, dbl);
    if (isInf(a, dbl)) {
      if (isInf(b, dbl) && na != nb) {
        return invalid(dbl);
      }
      return a;
    }
    if (isInf(b, dbl)) {
      return b;
    }
    long sa = sigOf(a, dbl), sb = sigOf(b, dbl);
    if (sa == 0 && sb == 0) {
      return na == nb ? a : exactZero(rm, dbl);
    }
    return addExact(
        na,
        BigInteger.valueOf(sa),
        expOf(a, dbl),
        nb,
        BigInteger.valueOf(sb),
        expOf(b, dbl),
        dbl,
        rm);
  }

  private long addExact(
      boolean na, BigInteger sa, int ea, boolean nb, BigInteger sb, int eb, boolean dbl, int rm) {
    int e = Math.min(ea, eb);
    BigInteger x = sa.shiftLeft(ea - e);
    BigInteger y = sb.shiftLeft(eb - e);
    if (na) {
      x = x.negate();
    }
    if (nb) {
      y = y.negate();
    }
    BigInteger s = x.add(y);
    if (s.signum() == 0) {
      return exactZero(rm, dbl);
    }
    return roundBig(s.signum() < 0, s.abs(), e, dbl, rm);
  }

  long slowMul(long a, long b, boolean dbl, int rm) {
    if (isNaN(a, dbl) || isNaN(b, dbl)) {
      return nanResult(a, b, 0, dbl);
    }
    boolean neg = sign(a, dbl) ^ sign(b, dbl);
    if (isInf(a, dbl) || isInf(b, dbl)) {
      if (isZero(a, dbl) || isZero(b, dbl)) {
        return invalid(dbl);
      }
      return infBits(neg, dbl);
    }
    long sa = sigOf(a, dbl), sb = sigOf(b, dbl);
    if (sa == 0 || sb == 0) {
      return neg ? signBit(dbl) : 0;
    }
    BigInteger p = BigInteger.valueOf(sa).multiply(BigInteger.valueOf(sb));
    return roundBig(neg, p, expOf(a, dbl) + expOf(b, dbl), dbl, rm);
  }

  long slowDiv(long a, long b, boolean dbl, int rm) {
    if (isNaN(a, dbl) || isNaN(b, dbl)) {
      return nanResult(a, b, 0, dbl);
    }
    boolean neg = sign(a, dbl) ^ sign(b, dbl);
    boolean ia = isInf(a, dbl), ib = isInf(b, dbl);
    if (ia && ib) {
      return invalid(dbl);
    }
    if (ia) {
      return infBits(neg, dbl);
    }
    if (ib) {
      return neg ? signBit(dbl) : 0;
    }
    long sa = sigOf(a, dbl), sb = sigOf(b, dbl);
    if (sb == 0) {
      if (sa == 0) {
        return invalid(dbl);
      }
      fflags |= DZ;
      return infBits(neg, dbl);
    }
    if (sa == 0) {
      return neg ? signBit(dbl) : 0;
    }
    int la = 64 - Long.numberOfLeadingZeros(sa), lb = 64 - Long.numberOfLeadingZeros(sb);
    int k = 64 + lb - la;
    BigInteger[] qr =
        BigInteger.valueOf(sa).shiftLeft(k).divideAndRemainder(BigInteger.valueOf(sb));
    BigInteger q = qr[0];
    if (qr[1].signum() != 0) {
      q = q.setBit(0);
    }
    return roundBig(neg, q, expOf(a, dbl) - expOf(b, dbl) - k, dbl, rm);
  }

  long slowSqrt(long a, boolean dbl, int rm) {
    if (isNaN(a, dbl)) {
      return nanResult(a, 0, 0, dbl);
    }
    if (isZero(a, dbl)) {
      return a;
    }
    if (sign(a, dbl)) {
      return invalid(dbl);
    }
    if (isInf(a, dbl)) {
      return a;
    }
    long s = sigOf(a, dbl);
    int e = expOf(a, dbl);
    if ((e & 1) != 0) {
      s <<= 1;
      e -= 1;
    }
    BigInteger v = BigInteger.valueOf(s).shiftLeft(128);
    BigInteger r = v.sqrt();
    if (!r.multiply(r).equals(v)) {
      r = r.setBit(0); // r has >= 64 bits, so bit 0 is far below the rounding point
    }
    return roundBig(false, r, (e - 128) / 2, dbl, rm);
  }

  long slowFma(long a, long b, long c, boolean dbl, int rm) {
    boolean infZero = (isInf(a, dbl) && isZero(b, dbl)) || (isZero(a, dbl) && isInf(b, dbl));
    if (isNaN(a, dbl) || isNaN(b, dbl) || isNaN(c, dbl)) {
      if (infZero) {
        fflags |= NV;
      }
      return nanResult(a, b, c, dbl);
    }
    if (infZero) {
      return invalid(dbl);
    }
    boolean np = sign(a, dbl) ^ sign(b, dbl), nc = sign(c, dbl);
    if (isInf(a, dbl) || isInf(b, dbl)) {
      if (isInf(c, dbl) && nc != np) {
        return invalid(dbl);
      }
      return infBits(np, dbl);
    }
    if (isInf(c, dbl)) {
      return c;
    }
    long sa = sigOf(a, dbl), sb = sigOf(b, dbl), sc = sigOf(c, dbl);
    if (sa == 0 || sb == 0) {
      if (sc == 0) {
        return np == nc ? (np ? signBit(dbl) : 0) : exactZero(rm, dbl);
      }
      return c;
    }
    if (dbl) {
      return fmaExact(np, sa, sb, expOf(a, dbl) + expOf(b, dbl), nc, sc, expOf(c, dbl), rm);
    }
    BigInteger p = BigInteger.valueOf(sa).multiply(BigInteger.valueOf(sb));
    return addExact(
        np, p, expOf(a, dbl) + expOf(b, dbl), nc, BigInteger.valueOf(sc), expOf(c, dbl), dbl, rm);
  }

  /** 128-bit scratch results of {@link #shl} / {@link #shrJam}. */
  private long tHi, tLo;

  private void shl(long hi, long lo, int n) {
    if (n == 0) {
      tHi = hi;
      tLo = lo;
    } else if (n < 64) {
      tHi = (hi << n) | (lo >>> (64 - n));
      tLo = lo << n;
    } else {
      tHi = lo << (n - 64);
      tLo = 0;
    }
  }

  /** Logical right shift of a 128-bit value, OR-ing any bit shifted out into bit 0. */
  private void shrJam(long hi, long lo, int n) {
    if (n == 0) {
      tHi = hi;
      tLo = lo;
      return;
    }
    boolean sticky;
    if (n < 64) {
      tLo = (lo >>> n) | (hi << (64 - n));
      tHi = hi >>> n;
      sticky = (lo << (64 - n)) != 0;
    } else if (n == 64) {
      tLo = hi;
      tHi = 0;
      sticky = lo != 0;
    } else if (n < 128) {
      tLo = hi >>> (n - 64);
      tHi = 0;
      sticky = lo != 0 || (hi << (128 - n)) != 0;
    } else {
      tLo = 0;
      tHi = 0;
      sticky = (hi | lo) != 0;
    }
    if (sticky) {
      tLo |= 1;
    }
  }

  private static int bitLen128(long hi, long lo) {
    return hi != 0 ? 128 - Long.numberOfLeadingZeros(hi) : 64 - Long.numberOfLeadingZeros(lo);
  }

  /**
   * Exact (-1)^np * sa*sb * 2^ep + (-1)^nc * sc * 2^ec for binary64 significands (all nonzero
   * except possibly sc), rounded once, with 128-bit integer arithmetic.
   */
  private long fmaExact(boolean np, long sa, long sb, int ep, boolean nc, long sc, int ec, int rm) {
    long pHi = Math.multiplyHigh(sa, sb), pLo = sa * sb;
    // normalise both operands to 126-bit integers (two bits of headroom for the carry)
    int sp = 126 - bitLen128(pHi, pLo);
    shl(pHi, pLo, sp);
    pHi = tHi;
    pLo = tLo;
    ep -= sp;
    boolean neg;
    long rHi, rLo;
    int e;
    if (sc == 0) {
      neg = np;
      rHi = pHi;
      rLo = pLo;
      e = ep;
    } else {
      int scs = 126 - (64 - Long.numberOfLeadingZeros(sc));
      shl(0, sc, scs);
      long cHi = tHi, cLo = tLo;
      ec -= scs;
      // Align both at the larger exponent, jamming what the other loses into its sticky bit.
      e = Math.max(ep, ec);
      shrJam(pHi, pLo, e - ep);
      pHi = tHi;
      pLo = tLo;
      shrJam(cHi, cLo, e - ec);
      cHi = tHi;
      cLo = tLo;
      if (np == nc) {
        rLo = pLo + cLo;
        rHi = pHi + cHi + (Long.compareUnsigned(rLo, pLo) < 0 ? 1 : 0);
        neg = np;
      } else {
        int cmp = pHi != cHi ? Long.compareUnsigned(pHi, cHi) : Long.compareUnsigned(pLo, cLo);
        if (cmp == 0) {
          return exactZero(rm, D);
        }
        // The larger magnitude minus the smaller, with the larger's sign.
        neg = cmp > 0 ? np : nc;
        long bHi = cmp > 0 ? pHi : cHi, bLo = cmp > 0 ? pLo : cLo;
        long sHi = cmp > 0 ? cHi : pHi, sLo = cmp > 0 ? cLo : pLo;
        rLo = bLo - sLo;
        rHi = bHi - sHi - (Long.compareUnsigned(bLo, sLo) < 0 ? 1 : 0);
      }
    }
    int lr = bitLen128(rHi, rLo);
    int sh = lr - 62;
    long mag;
    if (sh > 0) {
      shrJam(rHi, rLo, sh);
      mag = tLo;
    } else {
      mag = rLo << -sh;
    }
    return round(neg, mag, e + sh, D, rm);
  }

  // ==================================================================================================
  // Rounding core
  // ==================================================================================================

  /** Set by {@link #rshiftRound}: whether discarded bits were nonzero. */
  private boolean rInexact;

  /**
   * Returns mag >> shift (shift >= 1) rounded to an integer according to rm for a value of the
   * given sign; sets {@link #rInexact}. mag must be non-negative (< 2^63).
   */
  private long rshiftRound(long mag, int shift, boolean neg, int rm) {
    long q, rem;
    int cmp; // rem compared with half a unit
    if (shift >= 64) {
      q = 0;
      rem = mag;
      cmp = -1; // mag < 2^63 <= 2^(shift-1)
    } else {
      q = mag >>> shift;
      rem = mag & ((1L << shift) - 1);
      long half = 1L << (shift - 1);
      cmp = Long.compareUnsigned(rem, half);
    }
    if (rem == 0) {
      rInexact = false;
      return q;
    }
    rInexact = true;
    return roundsUp(rm, cmp, (q & 1) != 0, neg) ? q + 1 : q;
  }

  /**
   * Whether an inexact magnitude truncated to q rounds up to q + 1 in mode rm: cmp compares the
   * discarded part with half a unit (-1, 0, 1), odd is q's low bit, neg the value's sign.
   */
  private static boolean roundsUp(int rm, int cmp, boolean odd, boolean neg) {
    return switch (rm) {
      case RNE -> cmp > 0 || (cmp == 0 && odd);
      case RTZ -> false;
      case RDN -> neg;
      case RUP -> !neg;
      default -> cmp >= 0; // RMM
    };
  }

  private long roundBig(boolean neg, BigInteger mag, int exp, boolean dbl, int rm) {
    int n = mag.bitLength();
    if (n > 62) {
      int s = n - 62;
      long v = mag.shiftRight(s).longValue();
      if (mag.getLowestSetBit() < s) {
        v |= 1;
      }
      return round(neg, v, exp + s, dbl, rm);
    }
    return round(neg, mag.longValue(), exp, dbl, rm);
  }

  /**
   * Rounds (-1)^neg * mag * 2^exp to the format, raising NX/UF/OF as RISC-V does (tininess after
   * rounding). 0 < mag < 2^63; bit 0 may be a sticky bit provided mag has at least m+3 significant
   * bits. Returns the result bits (binary32 zero-extended).
   */
  long round(boolean neg, long mag, int exp, boolean dbl, int rm) {
    int m = mBits(dbl);
    int ebits = eBits(dbl);
    int bias = (1 << (ebits - 1)) - 1;
    int emin = 1 - bias;
    int n = 64 - Long.numberOfLeadingZeros(mag);
    int e = n - 1 + exp; // exponent of the leading bit
    int lsb = Math.max(e - m, emin - m);
    int shift = lsb - exp;
    long q;
    boolean inexact;
    boolean tiny = false;
    if (shift <= 0) {
      q = mag << -shift;
      inexact = false;
    } else {
      if (e < emin) {
        tiny = true;
        if (e == emin - 1 && shift - 1 > 0) {
          // Would rounding to full precision (unbounded exponent) carry up to 2^emin?
          long q2 = rshiftRound(mag, shift - 1, neg, rm);
          if (q2 == (1L << (m + 1))) {
            tiny = false;
          }
        }
      }
      q = rshiftRound(mag, shift, neg, rm);
      inexact = rInexact;
    }
    long bits = ((long) (lsb - emin + m) << m) + q; // carries propagate into the exponent field
    long maxE = (1L << ebits) - 1;
    if ((bits >>> m) >= maxE) {
      fflags |= OF | NX;
      boolean toInf = rm == RNE || rm == RMM || (rm == RUP && !neg) || (rm == RDN && neg);
      bits = toInf ? maxE << m : (maxE << m) - 1;
    } else if (inexact) {
      fflags |= tiny ? (NX | UF) : NX;
    }
    return neg ? bits | signBit(dbl) : bits;
  }
}
