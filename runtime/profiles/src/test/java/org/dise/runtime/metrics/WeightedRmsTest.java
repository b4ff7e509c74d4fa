package org.dise.runtime.metrics;

import static com.google.common.truth.Truth.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class WeightedRmsTest {
  @Test
  void exactEstimatesHaveNoError() {
    Map<Long, Map<Long, Long>> exact = Map.of(1L, Map.of(7L, 90L, 8L, 10L));
    assertThat(WeightedRms.error(Map.of(1L, Map.of(7L, 0.9, 8L, 0.1)), exact, 0.05))
        .isWithin(1e-9)
        .of(0.0);
  }

  @Test
  void errorsAreWeightedByFrequency() {
    // Load 1 runs 900 times (value 5 always), load 2 runs 100 times (value 6 half the time).
    Map<Long, Map<Long, Long>> exact = Map.of(1L, Map.of(5L, 900L), 2L, Map.of(6L, 50L, 9L, 50L));
    // Estimates: load 1 at 80% (20 points off, weight 900); load 2's values exact.
    double e =
        WeightedRms.error(Map.of(1L, Map.of(5L, 0.8), 2L, Map.of(6L, 0.5, 9L, 0.5)), exact, 0.10);
    assertThat(e).isWithin(1e-9).of(100 * Math.sqrt(900 * 0.04 / 1000));
  }

  @Test
  void aMissedLoadCountsAsInvarianceZeroAndAnInventedValueCounts() {
    Map<Long, Map<Long, Long>> exact = Map.of(1L, Map.of(5L, 100L));
    assertThat(WeightedRms.error(Map.of(), exact, 0.10)).isWithin(1e-9).of(100.0);
    // An invented value at 50% weighs 50 executions; the real one is 50 points off too.
    assertThat(WeightedRms.error(Map.of(1L, Map.of(5L, 0.5, 6L, 0.5)), exact, 0.10))
        .isWithin(1e-9)
        .of(50.0);
  }
}
