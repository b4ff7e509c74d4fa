package org.dise.runtime.metrics;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The papers' accuracy metrics between a sampled (or estimated) profile and the exhaustive one of
 * the same run. Profiles are maps from an entry's key to its weight (a count), as {@link
 * org.dise.runtime.sink.ProfileTable#weights()} gives them.
 */
public final class Accuracy {
  private Accuracy() {}

  /** The papers' hot cut-off: the top 15% of the most frequent events. */
  public static final double HOT_FRACTION = 0.15;

  /** The weight-based hot set's share of the total weight (spec/profiles.md, "Metrics"). */
  public static final double HOT_WEIGHT = 0.90;

  /**
   * Error in counts (first paper, Section 4, "percentage error in the code region profiles"): the
   * element-wise absolute difference over every key of either profile, divided by the exhaustive
   * profile's total. A fraction (0.05 is 5%); 0 when both are empty, and 1 when the exhaustive
   * profile is empty but the estimate is not.
   */
  public static double countError(
      Map<String, ? extends Number> exact, Map<String, ? extends Number> estimate) {
    double total = 0;
    double diff = 0;
    for (Map.Entry<String, ? extends Number> e : exact.entrySet()) {
      double x = e.getValue().doubleValue();
      total += x;
      Number s = estimate.get(e.getKey());
      diff += Math.abs(x - (s == null ? 0 : s.doubleValue()));
    }
    for (Map.Entry<String, ? extends Number> e : estimate.entrySet()) {
      if (!exact.containsKey(e.getKey())) {
        diff += Math.abs(e.getValue().doubleValue());
      }
    }
    if (total == 0) {
      return diff == 0 ? 0 : 1;
    }
    return diff / total;
  }

  /** {@link #hotSetError(Map, Map, double)} at the papers' 15%. */
  public static double hotSetError(
      Map<String, ? extends Number> exact, Map<String, ? extends Number> estimate) {
    return hotSetError(exact, estimate, HOT_FRACTION);
  }

  /**
   * Hot set error (phase-based remote profiling paper, Section 3.2.3): the exhaustive profile's hot
   * set is its top {@code fraction} of entries by weight, extended to every entry that ties with
   * the last one; the estimate's hot set is the same number of its own top entries, also extended
   * to ties (the cut-off is "with respect to the exhaustive profile"). The error is the number of
   * exhaustive hot entries missing from the estimate's hot set over the size of the exhaustive hot
   * set: a fraction, 0 when the exhaustive profile is empty.
   */
  public static double hotSetError(
      Map<String, ? extends Number> exact,
      Map<String, ? extends Number> estimate,
      double fraction) {
    if (fraction <= 0 || fraction > 1) {
      throw new IllegalArgumentException("hot fraction must be in (0, 1], got " + fraction);
    }
    int cut = hotCount(exact, fraction);
    return cut == 0 ? 0 : missingShare(hotSet(exact, cut), hotSet(estimate, cut));
  }

  /** The top {@code fraction} of the profile's positive entries, as a count: 0 when none. */
  private static int hotCount(Map<String, ? extends Number> profile, double fraction) {
    long positive = profile.values().stream().filter(v -> v.doubleValue() > 0).count();
    return positive == 0 ? 0 : (int) Math.max(1, Math.ceil(fraction * positive));
  }

  /** The share of the exact hot set that the estimate's hot set misses. */
  private static double missingShare(Set<String> hotExact, Set<String> hotEstimate) {
    int missing = 0;
    for (String k : hotExact) {
      if (!hotEstimate.contains(k)) {
        missing++;
      }
    }
    return (double) missing / hotExact.size();
  }

  /**
   * The hot set error weighted by execution counts: the exhaustive weight of the hot entries (as
   * {@link #hotSetError}) missing from the estimate's hot set, over the hot set's weight. Not a
   * paper metric: it tells whether the entries a sample misses matter. On a small program most of
   * the top 15% of entries can be start-up code run a few thousand times, which no sampled interval
   * sees; they dominate the unweighted error but weigh almost nothing here.
   */
  public static double weightedHotSetError(
      Map<String, ? extends Number> exact, Map<String, ? extends Number> estimate) {
    int cut = hotCount(exact, HOT_FRACTION);
    if (cut == 0) {
      return 0;
    }
    Set<String> hotExact = hotSet(exact, cut);
    Set<String> hotEstimate = hotSet(estimate, cut);
    double all = 0;
    double missing = 0;
    for (String k : hotExact) {
      double w = exact.get(k).doubleValue();
      all += w;
      if (!hotEstimate.contains(k)) {
        missing += w;
      }
    }
    return all == 0 ? 0 : missing / all;
  }

  /** {@link #hotWeightSetError(Map, Map, double)} at 90% of the weight. */
  public static double hotWeightSetError(
      Map<String, ? extends Number> exact, Map<String, ? extends Number> estimate) {
    return hotWeightSetError(exact, estimate, HOT_WEIGHT);
  }

  /**
   * Hot set error with the hot set chosen by weight, not by entry count: the exhaustive profile's
   * hot set is its fewest heaviest entries that together carry {@code coverage} of its total weight
   * (extended to ties); the estimate's hot set is the same number of its own top entries (with
   * ties), as in {@link #hotSetError}. The error is the share of the exact hot entries missing from
   * the estimate's. Why: the papers' top 15% of entries is mostly cold tail on a program with a few
   * hot loops (issue 16: 100 of 108 "hot" branches were start-up code run a few thousand times,
   * while 8 carried 99% of the executions), so a sample was judged on entries that do not matter;
   * the entries covering 90% of the weight are the ones an optimizer acts on.
   */
  public static double hotWeightSetError(
      Map<String, ? extends Number> exact,
      Map<String, ? extends Number> estimate,
      double coverage) {
    if (!(coverage > 0 && coverage <= 1)) {
      throw new IllegalArgumentException("hot weight share must be in (0, 1], got " + coverage);
    }
    Set<String> hotExact = hotWeightSet(exact, coverage);
    if (hotExact.isEmpty()) {
      return 0;
    }
    return missingShare(hotExact, hotSet(estimate, hotExact.size()));
  }

  /**
   * The fewest heaviest positive entries whose weights add up to at least {@code coverage} of the
   * profile's positive total, plus every entry tied with the last of them.
   */
  public static Set<String> hotWeightSet(Map<String, ? extends Number> profile, double coverage) {
    List<Double> weights = new ArrayList<>();
    double total = 0;
    for (Number v : profile.values()) {
      if (v.doubleValue() > 0) {
        weights.add(v.doubleValue());
        total += v.doubleValue();
      }
    }
    if (weights.isEmpty()) {
      return new HashSet<>();
    }
    weights.sort(Comparator.reverseOrder());
    double sum = 0;
    int n = 0;
    // A small tolerance, so that 90% of a total that is a sum of doubles is reached exactly.
    while (n < weights.size() && sum < coverage * total * (1 - 1e-12)) {
      sum += weights.get(n++);
    }
    return hotSet(profile, Math.max(1, n));
  }

  /** The keys of the {@code n} heaviest positive entries, plus every entry tied with the n-th. */
  public static Set<String> hotSet(Map<String, ? extends Number> profile, int n) {
    List<Map.Entry<String, ? extends Number>> sorted = new ArrayList<>();
    for (Map.Entry<String, ? extends Number> e : profile.entrySet()) {
      if (e.getValue().doubleValue() > 0) {
        sorted.add(e);
      }
    }
    sorted.sort(
        Comparator.comparingDouble(
                (Map.Entry<String, ? extends Number> e) -> e.getValue().doubleValue())
            .reversed());
    Set<String> hot = new HashSet<>();
    if (sorted.isEmpty() || n <= 0) {
      return hot;
    }
    double last = sorted.get(Math.min(n, sorted.size()) - 1).getValue().doubleValue();
    for (Map.Entry<String, ? extends Number> e : sorted) {
      if (hot.size() < n || e.getValue().doubleValue() == last) {
        hot.add(e.getKey());
      } else {
        break;
      }
    }
    return hot;
  }
}
