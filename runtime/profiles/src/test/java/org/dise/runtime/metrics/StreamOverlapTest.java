package org.dise.runtime.metrics;

import static com.google.common.truth.Truth.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Equation 5 of the bursty tracing paper on profiles worked out by hand. */
class StreamOverlapTest {
  @Test
  void thePapersExampleCountsTheSmallerHeat() {
    // Section 5.2: v.heat_P = 3%, v.heat_Q = 4%, so overlap(v, P, Q) = 3%.
    assertThat(StreamOverlap.overlap(Map.of("v", 0.03), Map.of("v", 0.04)))
        .isWithin(1e-12)
        .of(0.03);
  }

  @Test
  void streamsInOneProfileOnlyAddNothing() {
    Map<String, Double> p = Map.of("a", 0.50, "b", 0.30, "c", 0.10);
    Map<String, Double> q = Map.of("a", 0.40, "b", 0.35, "d", 0.20);
    // min(.5,.4) + min(.3,.35) + min(.1,0) + min(0,.2) = .4 + .3 = .7
    assertThat(StreamOverlap.overlap(p, q)).isWithin(1e-12).of(0.70);
    assertThat(StreamOverlap.overlap(q, p)).isWithin(1e-12).of(0.70);
  }

  @Test
  void aProfileOverlapsItselfByItsCoverageAndNothingOverlapsEmpty() {
    Map<String, Double> p = Map.of("a", 0.6, "b", 0.3);
    assertThat(StreamOverlap.overlap(p, p)).isWithin(1e-12).of(0.9);
    assertThat(StreamOverlap.overlap(p, Map.of())).isEqualTo(0.0);
  }
}
