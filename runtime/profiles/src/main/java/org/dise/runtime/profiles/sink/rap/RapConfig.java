package org.dise.runtime.profiles.sink.rap;

import java.util.Map;

/**
 * The parameters of a RAP tree (Mysore et al., Sections 2.2 and 3.1): the range width in bits R,
 * the branching factor b (a power of two; 4 in the paper), epsilon, the merge interval ratio q (2
 * in the paper) and the events before the first merge batch (2^10 in §3.3), the node capacity (0:
 * unbounded) and the hot threshold of Section 4.1 (10%).
 */
public record RapConfig(
    int rangeBits,
    int branching,
    double epsilon,
    double mergeRatio,
    long firstMerge,
    int maxNodes,
    double hotFraction) {
  /** The paper's settings with epsilon = 1% over 64-bit values. */
  public static final RapConfig DEFAULT = new RapConfig(64, 4, 0.01, 2.0, 1024, 0, 0.10);

  public RapConfig {
    if (rangeBits < 1 || rangeBits > 64) {
      throw new IllegalArgumentException("range_bits must be 1..64, not " + rangeBits);
    }
    if (branching < 2 || branching > 256 || Integer.bitCount(branching) != 1) {
      throw new IllegalArgumentException(
          "branching must be a power of two from 2 to 256, not " + branching);
    }
    if (!(epsilon > 0 && epsilon <= 1)) {
      throw new IllegalArgumentException("epsilon must be in (0, 1], not " + epsilon);
    }
    if (!(mergeRatio >= 1)) {
      throw new IllegalArgumentException("merge_ratio must be at least 1, not " + mergeRatio);
    }
    if (firstMerge < 1) {
      throw new IllegalArgumentException("first_merge must be positive, not " + firstMerge);
    }
    if (maxNodes < 0 || maxNodes > 0 && maxNodes < 1 + branching) {
      throw new IllegalArgumentException(
          "capacity must be 0 (unbounded) or at least 1 + " + "branching nodes, not " + maxNodes);
    }
    if (!(hotFraction > 0 && hotFraction <= 1)) {
      throw new IllegalArgumentException("hot threshold must be in (0, 1], not " + hotFraction);
    }
  }

  /**
   * The configuration a sink binding's parameters give: {@code epsilon_ppm}, {@code branching},
   * {@code range_bits}, {@code hot_ppm}, {@code merge_ratio_pct}, {@code first_merge}, {@code
   * capacity} (nodes); missing ones take {@link #DEFAULT}'s.
   */
  public static RapConfig of(Map<String, String> params) {
    RapConfig d = DEFAULT;
    return new RapConfig(
        (int) num(params, "range_bits", d.rangeBits()),
        (int) num(params, "branching", d.branching()),
        num(params, "epsilon_ppm", Math.round(d.epsilon() * 1e6)) / 1e6,
        num(params, "merge_ratio_pct", Math.round(d.mergeRatio() * 100)) / 100.0,
        num(params, "first_merge", d.firstMerge()),
        (int) num(params, "capacity", d.maxNodes()),
        num(params, "hot_ppm", Math.round(d.hotFraction() * 1e6)) / 1e6);
  }

  static long num(Map<String, String> params, String key, long dflt) {
    return org.dise.runtime.sink.SinkParams.number(params, key, dflt);
  }
}
