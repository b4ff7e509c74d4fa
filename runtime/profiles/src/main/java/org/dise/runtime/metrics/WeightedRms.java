package org.dise.runtime.metrics;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

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

  /**
   * The error in percent points (0 when there is nothing to compare). {@code estimated}: pc ->
   * value -> invariance in [0, 1]; {@code exact}: pc -> value -> count.
   */
  public static double error(
      Map<Long, Map<Long, Double>> estimated,
      Map<Long, Map<Long, Long>> exact,
      double minInvariance) {
    double sum = 0;
    double weights = 0;
    for (Map.Entry<Long, Map<Long, Long>> load : exact.entrySet()) {
      Map<Long, Long> counts = load.getValue();
      long n = counts.values().stream().mapToLong(Long::longValue).sum();
      if (n == 0) {
        continue;
      }
      Map<Long, Double> est = estimated.getOrDefault(load.getKey(), Map.of());
      Set<Long> values = new HashSet<>();
      counts.forEach(
          (v, c) -> {
            if ((double) c / n >= minInvariance) {
              values.add(v);
            }
          });
      est.forEach(
          (v, e) -> {
            if (e >= minInvariance) {
              values.add(v);
            }
          });
      for (long v : values) {
        long c = counts.getOrDefault(v, 0L);
        double truth = (double) c / n;
        double e = est.getOrDefault(v, 0.0);
        // A value the estimate invents has no executions of its own: weigh it by the
        // executions the estimate attributes to it, so false values are not free.
        double w = c > 0 ? c : e * n;
        sum += w * (e - truth) * (e - truth);
        weights += w;
      }
    }
    return weights == 0 ? 0 : 100 * Math.sqrt(sum / weights);
  }
}
