package org.dise.runtime.trigger;

import static com.google.common.truth.Truth.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The phase tracker, its predictors, the phase table and the daemon's policies. */
class PhaseTrackerTest {
  /** One interval of a synthetic kernel: its branches (pc, instructions before each). */
  static void kernel(PhaseTracker t, long base, int branches, int jitter) {
    for (int i = 0; i < branches; i++) {
      t.block(base + 4L * (i % 16), 10 + (i * jitter) % 7);
    }
  }

  /** Runs each tracker over the same intervals: one kernel at each base in turn. */
  static void intervals(long[] bases, int branches, PhaseTracker... trackers) {
    for (long base : bases) {
      for (PhaseTracker t : trackers) {
        kernel(t, base, branches, 1);
        t.endInterval();
      }
    }
  }

  @Test
  void sameKernelSamePhaseOtherKernelNewPhase() {
    PhaseTracker t = new PhaseTracker(32, 25, PhasePredictor.named("last"));
    long[] schedule = {0x1000, 0x1000, 0x8000, 0x1000, 0x20000, 0x8000, 0x20000};
    List<Integer> ids = new ArrayList<>();
    for (int i = 0; i < schedule.length; i++) {
      kernel(t, schedule[i], 1000, i);
      ids.add(t.endInterval());
    }
    assertThat(ids).containsExactly(0, 0, 1, 0, 2, 1, 2).inOrder();
    assertThat(t.phaseCount()).isEqualTo(3);
    assertThat(t.predicted(0)).isEqualTo(-1);
    assertThat(t.predicted(2)).isEqualTo(0); // the last phase
    assertThat(t.predictionAccuracy()).isWithin(1e-9).of(1.0 / 6);
  }

  @Test
  void aZeroThresholdSplitsAndAFullOneMerges() {
    PhaseTracker strict = new PhaseTracker(32, 0, PhasePredictor.named("last"));
    PhaseTracker loose = new PhaseTracker(32, 100, PhasePredictor.named("last"));
    intervals(new long[] {0x1000, 0x8000}, 100, strict, loose);
    assertThat(strict.phaseCount()).isEqualTo(2);
    assertThat(loose.phaseCount()).isEqualTo(1);
  }

  @Test
  void distanceIsHalfTheManhattanDistanceInPercent() {
    assertThat(PhaseTracker.distance(new double[] {1, 0}, new double[] {0, 1})).isEqualTo(100.0);
    assertThat(PhaseTracker.distance(new double[] {0.5, 0.5}, new double[] {0.75, 0.25}))
        .isEqualTo(25.0);
  }

  @Test
  void markovLearnsAnAlternationThatLastCannot() {
    PhaseTracker last = new PhaseTracker(32, 25, PhasePredictor.named("last"));
    PhaseTracker markov = new PhaseTracker(32, 25, PhasePredictor.named("markov"));
    long[] alternating = new long[40];
    for (int i = 0; i < alternating.length; i++) {
      alternating[i] = i % 2 == 0 ? 0x1000 : 0x8000;
    }
    intervals(alternating, 200, last, markov);
    assertThat(last.predictionAccuracy()).isEqualTo(0.0);
    assertThat(markov.predictionAccuracy()).isGreaterThan(0.9);
  }

  @Test
  void phaseTableReplacesAtRandomWhenFull() {
    PhaseTable table = new PhaseTable(2, 1);
    PhaseTable.Entry a = table.get(0);
    a.sampled = true;
    assertThat(table.get(0)).isSameInstanceAs(a);
    table.get(1);
    table.get(2); // evicts 0 or 1
    assertThat(table.misses()).isEqualTo(3);
    table.get(0);
    table.get(1);
    assertThat(table.misses()).isAtLeast(4);
  }

  /** A phase-aware trigger over 100-instruction intervals with the default scaling and reach. */
  static PhaseAwareTrigger online(PhaseTracker t, String policy, PhasePlan plan) {
    return new PhaseAwareTrigger(
        100,
        t,
        new PhaseTable(20, 1),
        policy,
        plan,
        1,
        PhaseAwareTrigger.Scaling.NEAREST,
        Triggers.DEFAULT_REACH);
  }

  /** Drives a phase-aware trigger over a schedule of kernels; returns the sampled intervals. */
  static List<Long> daemon(String policy, PhasePlan plan, long[] schedule, PhaseTracker t) {
    PhaseAwareTrigger trigger = online(t, policy, plan);
    List<Long> out = new ArrayList<>();
    for (int i = 0; i < schedule.length; i++) {
      if (trigger.sample(i)) {
        out.add((long) i);
      }
      kernel(t, schedule[i], 500, i);
      trigger.endInterval(i, 100);
    }
    return out;
  }

  @Test
  void thirdSamplesEachPhaseOnceAtItsThirdIntervalWhenPredictedRight() {
    long[] s = {0x1000, 0x1000, 0x1000, 0x1000, 0x8000, 0x8000, 0x8000, 0x8000, 0x8000, 0x1000};
    PhaseTracker t = new PhaseTracker(32, 25, PhasePredictor.named("last"));
    List<Long> sampled = daemon("third", null, s, t);
    // Interval 2 is phase 0's third; phase 1's third is 6 (4 was predicted as phase 0).
    assertThat(sampled).containsExactly(2L, 6L).inOrder();
  }

  @Test
  void oraclePlansPickTheirRepresentatives() {
    long[] s = {0x1000, 0x1000, 0x8000, 0x1000, 0x8000, 0x1000};
    PhaseTracker first = new PhaseTracker(32, 25, PhasePredictor.named("last"));
    daemon("first", null, s, first);
    PhasePlan plan = new PhasePlan(first);
    assertThat(plan.representatives("first", 1)).containsExactly(0L, 2L);
    assertThat(plan.representatives("third", 1)).containsExactly(3L, 4L); // phase 1 has two
    assertThat(plan.representatives("centroid", 1)).hasSize(2);
    PhaseTracker second = new PhaseTracker(32, 25, PhasePredictor.named("last"));
    assertThat(daemon("third", plan, s, second)).containsExactly(3L, 4L).inOrder();
  }

  @Test
  void anOraclePlanPredictsEveryPhase() {
    long[] s = {0x1000, 0x1000, 0x8000, 0x1000, 0x8000, 0x1000};
    PhaseTracker first = new PhaseTracker(32, 25, PhasePredictor.named("last"));
    daemon("first", null, s, first);
    PhaseTracker second = new PhaseTracker(32, 25, PhasePredictor.named("last"));
    PhaseAwareTrigger oracle = online(second, "third", new PhasePlan(first));
    PhaseTracker third = new PhaseTracker(32, 25, PhasePredictor.named("last"));
    PhaseAwareTrigger online = online(third, "third", null);
    for (int i = 0; i < s.length; i++) {
      oracle.sample(i);
      online.sample(i);
      kernel(second, s[i], 500, i);
      kernel(third, s[i], 500, i);
      oracle.endInterval(i, 100);
      online.endInterval(i, 100);
    }
    // `last` gets 1 of 5 right on this alternation; the oracle's samples knew every phase.
    assertThat(online.predictionAccuracy()).isEqualTo(0.2);
    assertThat(oracle.predictionAccuracy()).isEqualTo(1.0);
  }

  @Test
  void phaseScaleIsThePhasesInstructionsOverItsSampledOnes() {
    long[] s = {0x1000, 0x1000, 0x1000, 0x1000, 0x8000};
    PhaseTracker t = new PhaseTracker(32, 25, PhasePredictor.named("last"));
    PhaseAwareTrigger trigger =
        new PhaseAwareTrigger(
            100, t, new PhaseTable(20, 1), "first", null, 1, PhaseAwareTrigger.Scaling.PHASE, 50);
    for (int i = 0; i < s.length; i++) {
      trigger.sample(i);
      kernel(t, s[i], 500, i);
      trigger.endInterval(i, 100);
    }
    // Interval 1 was sampled (predicted phase 0, first seen): it stands for 4 intervals.
    assertThat(trigger.scale(1)).isEqualTo(4.0);
    assertThat(trigger.unsampledPhases()).isEqualTo(1); // phase 1 was never predicted
  }

  /** Runs {@code s} (the last interval 50 instructions) under first with nearest scaling. */
  static PhaseAwareTrigger nearest(long[] s, double reach, List<Long> sampled) {
    PhaseTracker t = new PhaseTracker(32, 25, PhasePredictor.named("last"));
    PhaseAwareTrigger trigger =
        new PhaseAwareTrigger(
            100,
            t,
            new PhaseTable(20, 1),
            "first",
            null,
            1,
            PhaseAwareTrigger.Scaling.NEAREST,
            reach);
    for (int i = 0; i < s.length; i++) {
      if (trigger.sample(i)) {
        sampled.add((long) i);
      }
      kernel(t, s[i], 500, i);
      trigger.endInterval(i, i == s.length - 1 ? 50 : 100);
    }
    return trigger;
  }

  @Test
  void nearestScalingRepresentsEveryIntervalByTheNearestSampleWithinReach() {
    // Phase 0 (0x1000) is sampled at interval 1 and phase 1 (0x8000) at 4; phase 2 (0x20000,
    // one interval, disjoint from both) is never sampled.
    long[] s = {0x1000, 0x1000, 0x1000, 0x8000, 0x8000, 0x8000, 0x8000, 0x20000};
    List<Long> sampled = new ArrayList<>();
    PhaseAwareTrigger all = nearest(s, 100, sampled);
    assertThat(sampled).containsExactly(1L, 4L).inOrder();
    assertThat(all.unsampledPhases()).isEqualTo(1);
    // Within reach 100 every instruction of the run is represented once: 750 = 100 * 7 + 50.
    assertThat(all.scale(1) * 100 + all.scale(4) * 100).isWithin(1e-9).of(750.0);
    assertThat(all.scale(1)).isAtLeast(3.0); // its own phase's three intervals
    assertThat(all.scale(4)).isAtLeast(4.0); // its own phase's four
    assertThat(all.scale(0)).isEqualTo(0.0); // unsampled intervals stand for nothing
    // The default reach (50) leaves the disjoint phase out, as phase scaling does.
    PhaseAwareTrigger near = nearest(s, Triggers.DEFAULT_REACH, new ArrayList<>());
    assertThat(near.scaling()).isEqualTo(PhaseAwareTrigger.Scaling.NEAREST);
    assertThat(near.scale(1)).isEqualTo(3.0);
    assertThat(near.scale(4)).isEqualTo(4.0);
  }

  @Test
  void nearestScalingSplitsAPhaseAmongItsSamples() {
    // Under first, phase 0 is sampled at 1; then phase 1 is predicted at 5 but 5 is phase 0 again
    // (a misprediction), so phase 0 has two samples and phase 1 is sampled at 7.
    long[] s = {0x1000, 0x1000, 0x1000, 0x1000, 0x8000, 0x1000, 0x1000, 0x8000, 0x8000};
    List<Long> sampled = new ArrayList<>();
    PhaseAwareTrigger t = nearest(s, 50, sampled);
    assertThat(sampled).containsExactly(1L, 5L, 8L).inOrder();
    double total = 0;
    for (long i : sampled) {
      total += t.scale(i) * (i == s.length - 1 ? 50 : 100);
    }
    assertThat(total).isWithin(1e-9).of(850.0);
    assertThat(t.scale(1) + t.scale(5)).isWithin(1e-9).of(6.0); // phase 0's six intervals
  }
}
