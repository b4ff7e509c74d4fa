package org.dise.runtime.metrics;

import java.util.HashMap;
import java.util.Map;

/**
 * The weighted root-mean-square error of value invariance estimates (Zilles and Sohi, Section 5.3):
 * for each (load, value) pair, the estimated invariance (the fraction of the load's executions that
 * read the value) against the exact one of the same run, weighted by the pair's frequency (its
 * exact dynamic count). The pairs compared are every value that reaches {@code minInvariance} of
 * its load's executions in the exact profile, and every value the estimate names at that level; a
 * pair one side does not have counts as invariance 0 there.
 */
public final class WeightedRms {
  private WeightedRms() {}

  /** An exact profile as the error reads it: pair by pair, without boxing every pair. */
  public interface Pairs {
    /** Visits every (pc, value) pair once, with its count. */
    void forEach(Visitor v);

    /** The executions of {@code pc} (its values' counts summed), 0 if it never ran. */
    long total(long pc);

    /** The count of {@code value} at {@code pc}, 0 if it never occurred. */
    long count(long pc, long value);

    @FunctionalInterface
    interface Visitor {
      void pair(long pc, long value, long count);
    }
  }

  /**
   * The error in percent points (0 when there is nothing to compare). {@code estimated}: pc ->
   * value -> invariance in [0, 1]; {@code exact}: pc -> value -> count.
   */
  public static double error(
      Map<Long, Map<Long, Double>> estimated,
      Map<Long, Map<Long, Long>> exact,
      double minInvariance) {
    Map<Long, Long> totals = new HashMap<>();
    exact.forEach(
        (pc, counts) -> totals.put(pc, counts.values().stream().mapToLong(Long::longValue).sum()));
    Pairs pairs =
        new Pairs() {
          @Override
          public void forEach(Visitor v) {
            exact.forEach((pc, counts) -> counts.forEach((value, c) -> v.pair(pc, value, c)));
          }

          @Override
          public long total(long pc) {
            return totals.getOrDefault(pc, 0L);
          }

          @Override
          public long count(long pc, long value) {
            return exact.getOrDefault(pc, Map.of()).getOrDefault(value, 0L);
          }
        };
    return error(estimated, pairs, minInvariance);
  }

  /** {@link #error(Map, Map, double)} on an exact profile given pair by pair. */
  public static double error(
      Map<Long, Map<Long, Double>> estimated, Pairs exact, double minInvariance) {
    double[] sums = new double[2]; // weighted squared error, weights
    // Every value frequent in the exact profile...
    exact.forEach(
        (pc, value, c) -> {
          long n = exact.total(pc);
          if ((double) c / n >= minInvariance) {
            add(sums, c, n, estimated.getOrDefault(pc, Map.of()).getOrDefault(value, 0.0));
          }
        });
    // ... and every value the estimate names at that level that was not counted above.
    estimated.forEach(
        (pc, est) -> {
          long n = exact.total(pc);
          if (n == 0) {
            return;
          }
          est.forEach(
              (v, e) -> {
                if (e >= minInvariance) {
                  long c = exact.count(pc, v);
                  if ((double) c / n < minInvariance) {
                    add(sums, c, n, e);
                  }
                }
              });
        });
    return sums[1] == 0 ? 0 : 100 * Math.sqrt(sums[0] / sums[1]);
  }

  /**
   * One (load, value) pair: {@code c} of the load's {@code n} executions, estimated at {@code e}. A
   * value the estimate invents has no executions of its own: it is weighed by the executions the
   * estimate attributes to it, so false values are not free.
   */
  private static void add(double[] sums, long c, long n, double e) {
    double truth = (double) c / n;
    double w = c > 0 ? c : e * n;
    sums[0] += w * (e - truth) * (e - truth);
    sums[1] += w;
  }
}
