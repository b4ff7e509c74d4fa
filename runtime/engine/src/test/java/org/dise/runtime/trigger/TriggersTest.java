package org.dise.runtime.trigger;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The external trigger sources and how a strategy is written. */
class TriggersTest {
  static List<Long> sampled(Trigger t, int intervals) {
    List<Long> out = new ArrayList<>();
    for (long i = 0; i < intervals; i++) {
      if (t.sample(i)) {
        out.add(i);
      }
      t.endInterval(i, t.interval());
    }
    return out;
  }

  @Test
  void periodicSamplesEveryNthIntervalAndScalesByN() {
    Trigger t = Triggers.create(TriggerSpec.parse("periodic:4").with("interval", "1M"), null);
    assertThat(t.interval()).isEqualTo(1_000_000);
    assertThat(sampled(t, 13)).containsExactly(0L, 4L, 8L, 12L).inOrder();
    assertThat(t.scale(4)).isEqualTo(4.0);
  }

  @Test
  void periodicSampleInAnUnfinishedCycleStandsOnlyForWhatRan() {
    // period 4: interval 8 is sampled, but the run ends in interval 9, a short one: the sample
    // stands for intervals 8 and 9 (150 instructions), not for four intervals.
    Trigger t = new PeriodicTrigger(100, 4, 1);
    for (long i = 0; i < 10; i++) {
      t.sample(i);
      t.endInterval(i, i == 9 ? 50 : 100);
    }
    assertThat(t.scale(0)).isEqualTo(4.0);
    assertThat(t.scale(4)).isEqualTo(4.0);
    assertThat(t.scale(8)).isEqualTo(1.5);
  }

  @Test
  void periodicWithLengthSamplesRunsOfIntervals() {
    Trigger t = new PeriodicTrigger(10, 3, 2);
    assertThat(sampled(t, 12)).containsExactly(0L, 1L, 6L, 7L).inOrder();
  }

  @Test
  void sameSeedSameSamplesOtherSeedOthers() {
    List<Long> a = sampled(Triggers.create(TriggerSpec.parse("random:4:7"), null), 400);
    List<Long> b = sampled(Triggers.create(TriggerSpec.parse("random:4:7"), null), 400);
    List<Long> c = sampled(Triggers.create(TriggerSpec.parse("random:4:8"), null), 400);
    assertThat(a).isEqualTo(b);
    assertThat(a).isNotEqualTo(c);
    // About one in four, and every one stands for four.
    assertThat(a.size()).isIn(com.google.common.collect.Range.closed(70, 130));
    assertThat(Triggers.create(TriggerSpec.parse("random:4:7"), null).scale(0)).isEqualTo(4.0);
  }

  @Test
  void randomDecisionsDoNotDependOnWhoAsks() {
    RandomTrigger t = new RandomTrigger(10, 3, 1, 5);
    List<Long> all = sampled(new RandomTrigger(10, 3, 1, 5), 50);
    assertThat(t.sample(49)).isEqualTo(all.contains(49L));
  }

  @Test
  void exhaustiveSamplesEverything() {
    Trigger t = Triggers.create(TriggerSpec.parse("exhaustive"), null);
    assertThat(sampled(t, 5)).hasSize(5);
    assertThat(t.interval()).isEqualTo(Triggers.DEFAULT_INTERVAL);
  }

  @Test
  void strategiesParseWithTheirParameters() {
    assertThat(TriggerSpec.parse("random:20:9").params())
        .isEqualTo(Map.of("one_in", "20", "seed", "9"));
    assertThat(TriggerSpec.parse("phase:centroid").component()).isEqualTo("phase_aware");
    assertThat(TriggerSpec.parse("phase:centroid").needsFirstPass()).isTrue();
    assertThat(TriggerSpec.parse("phase").needsFirstPass()).isFalse();
    assertThat(TriggerSpec.parse("phase").with("predictor", "oracle").needsFirstPass()).isTrue();
    assertThat(TriggerSpec.parse("periodic:5").with("interval", "2M").interval())
        .isEqualTo(2_000_000);
  }

  @Test
  void badStrategiesSaySo() {
    assertThat(
            assertThrows(IllegalArgumentException.class, () -> TriggerSpec.parse("often"))
                .getMessage())
        .contains("exhaustive, periodic:N, random:P[:SEED] or phase[:POLICY]");
    assertThat(
            assertThrows(IllegalArgumentException.class, () -> TriggerSpec.parse("periodic"))
                .getMessage())
        .contains("periodic:N");
    assertThat(
            assertThrows(
                    IllegalArgumentException.class,
                    () -> Triggers.check(TriggerSpec.parse("periodic:0")))
                .getMessage())
        .contains("period must be at least 1");
    assertThat(
            assertThrows(
                    IllegalArgumentException.class,
                    () -> Triggers.check(TriggerSpec.parse("periodic:x")))
                .getMessage())
        .contains("period must be a whole number");
    assertThat(
            assertThrows(
                    IllegalArgumentException.class,
                    () -> Triggers.check(TriggerSpec.parse("phase:best")))
                .getMessage())
        .contains("unknown representative policy 'best'");
    assertThat(
            assertThrows(
                    IllegalArgumentException.class,
                    () -> Triggers.check(TriggerSpec.parse("periodic:3").with("threshold", "5")))
                .getMessage())
        .contains("periodic has no parameter 'threshold'");
    assertThat(
            assertThrows(
                    IllegalArgumentException.class,
                    () -> Triggers.check(TriggerSpec.parse("phase").with("threshold", "500")))
                .getMessage())
        .contains("threshold must be a percentage");
    assertThat(
            assertThrows(
                    IllegalArgumentException.class,
                    () -> Triggers.create(TriggerSpec.parse("phase:random"), null))
                .getMessage())
        .contains("needs a first pass");
  }
}
