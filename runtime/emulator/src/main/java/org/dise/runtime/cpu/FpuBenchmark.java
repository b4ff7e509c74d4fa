package org.dise.runtime.cpu;

import java.util.Random;

/**
 * A benchmark, not a test: a quick, printed micro-benchmark of the floating-point fast path on the
 * common case, normal operands ({@code acf bench fpu}). Gives an idea of the fast path's cost; a
 * proper JMH run would be needed for real numbers.
 */
public final class FpuBenchmark {
  private FpuBenchmark() {}

  /** Prints the figures (docs/benchmarks.md records them). */
  public static void main(String[] args) {
    printFastPathSpeed();
  }

  private static final int N = 4096;
  private static final int REPS = 2000;

  interface BinOp {
    long apply(Fpu f, long a, long b);
  }

  private static long sink;

  /** One timed pass over the operands; returns what it accumulated (kept, so it is computed). */
  private interface Pass {
    long run();
  }

  /** The best of five passes, in ns per operation. */
  private static double best(Pass pass) {
    long best = Long.MAX_VALUE;
    for (int round = 0; round < 5; round++) {
      long t0 = System.nanoTime();
      sink += pass.run();
      best = Math.min(best, System.nanoTime() - t0);
    }
    return (double) best / ((long) N * REPS);
  }

  private static double nsPerOp(Fpu f, long[] a, long[] b, BinOp op) {
    return best(
        () -> {
          long acc = 0;
          for (int r = 0; r < REPS; r++) {
            for (int i = 0; i < N; i++) {
              acc += op.apply(f, a[i], b[i]);
            }
          }
          return acc;
        });
  }

  /** A dedicated loop (its call site monomorphic) for the two headline numbers: mulD, or addD. */
  private static double dedicatedLoop(Fpu f, long[] a, long[] b, boolean mul) {
    Pass pass =
        () -> {
          long acc = 0;
          for (int r = 0; r < REPS; r++) {
            for (int i = 0; i < N; i++) {
              acc += mul ? f.mulD(a[i], b[i], Fpu.RNE) : f.addD(a[i], b[i], Fpu.RNE);
            }
          }
          return acc;
        };
    return best(pass);
  }

  static void printFastPathSpeed() {
    Random rnd = new Random(42);
    long[] a = new long[N], b = new long[N], as = new long[N], bs = new long[N];
    for (int i = 0; i < N; i++) {
      a[i] =
          Double.doubleToRawLongBits(
              (rnd.nextDouble() + 0.5) * Math.scalb(1.0, rnd.nextInt(40) - 20));
      b[i] =
          Double.doubleToRawLongBits(
              (rnd.nextDouble() - 0.5) * Math.scalb(1.0, rnd.nextInt(40) - 20));
      as[i] = Float.floatToRawIntBits((float) Double.longBitsToDouble(a[i]));
      bs[i] = Float.floatToRawIntBits((float) Double.longBitsToDouble(b[i]));
    }
    Fpu f = new Fpu();
    StringBuilder sb = new StringBuilder("Fpu micro-benchmark (ns/op, best of 5):");
    sb.append(String.format("%n  addD  RNE (dedicated loop) %.2f", dedicatedLoop(f, a, b, false)));
    sb.append(String.format("%n  mulD  RNE (dedicated loop) %.2f", dedicatedLoop(f, a, b, true)));
    sb.append("\n  -- via one shared (megamorphic) call site:");
    sb.append(
        String.format("%n  addD  RNE %.2f", nsPerOp(f, a, b, (p, x, y) -> p.addD(x, y, Fpu.RNE))));
    sb.append(
        String.format("%n  mulD  RNE %.2f", nsPerOp(f, a, b, (p, x, y) -> p.mulD(x, y, Fpu.RNE))));
    sb.append(
        String.format("%n  divD  RNE %.2f", nsPerOp(f, a, b, (p, x, y) -> p.divD(x, y, Fpu.RNE))));
    sb.append(
        String.format(
            "%n  fmaD  RNE %.2f", nsPerOp(f, a, b, (p, x, y) -> p.fmaddD(x, y, x, Fpu.RNE))));
    sb.append(
        String.format("%n  addD  RTZ %.2f", nsPerOp(f, a, b, (p, x, y) -> p.addD(x, y, Fpu.RTZ))));
    sb.append(
        String.format(
            "%n  addS  RNE %.2f",
            nsPerOp(f, as, bs, (p, x, y) -> p.addS((int) x, (int) y, Fpu.RNE))));
    sb.append(
        String.format(
            "%n  mulS  RNE %.2f",
            nsPerOp(f, as, bs, (p, x, y) -> p.mulS((int) x, (int) y, Fpu.RNE))));
    sb.append(
        String.format(
            "%n  fmaS  RNE %.2f",
            nsPerOp(f, as, bs, (p, x, y) -> p.fmaddS((int) x, (int) y, (int) x, Fpu.RNE))));
    sb.append(
        String.format("%n  cvtLD RTZ %.2f", nsPerOp(f, a, b, (p, x, y) -> p.cvtLD(x, Fpu.RTZ))));
    sb.append(
        String.format(
            "%n  baseline (raw double add) %.2f",
            nsPerOp(
                f,
                a,
                b,
                (p, x, y) ->
                    Double.doubleToRawLongBits(
                        Double.longBitsToDouble(x) + Double.longBitsToDouble(y)))));
    System.out.println(sb);
  }
}
