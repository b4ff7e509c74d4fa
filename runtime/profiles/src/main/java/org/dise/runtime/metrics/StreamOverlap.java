package org.dise.runtime.metrics;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The overlap of two hot data stream profiles (bursty tracing paper, Section 5.2, equation 5): the
 * sum over the streams of either profile of the smaller of their two heats, each heat the share of
 * its own profile's traced references (a stream missing from a profile has heat 0). Streams are the
 * same when their access signatures are.
 */
public final class StreamOverlap {
  private StreamOverlap() {}

  /**
   * {@code overlap(P, Q)}: a fraction in [0, 1] when each profile's shares sum to at most 1.
   *
   * @param p signature to heat share (0.03 for 3%) in one profile
   * @param q the same for the other
   */
  public static double overlap(Map<String, ? extends Number> p, Map<String, ? extends Number> q) {
    Set<String> all = new HashSet<>(p.keySet());
    all.addAll(q.keySet());
    double sum = 0;
    for (String v : all) {
      Number a = p.get(v);
      Number b = q.get(v);
      sum += Math.min(a == null ? 0 : a.doubleValue(), b == null ? 0 : b.doubleValue());
    }
    return sum;
  }
}
