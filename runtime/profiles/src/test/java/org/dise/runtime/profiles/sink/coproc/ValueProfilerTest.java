package org.dise.runtime.profiles.sink.coproc;

import static com.google.common.truth.Truth.assertThat;

import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.IntToLongFunction;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.Op;
import org.junit.jupiter.api.Test;

/** The load value profiling application on synthetic streams, one sample per 50 cycles. */
class ValueProfilerTest {
  static DecodedInsn load(long pc) {
    return new DecodedInsn(pc, Op.LD, 0, 10, 11, 0, 0, 0, 0);
  }

  /** Feeds {@code n} tagged loads, the i-th at {@code pc(i)} reading {@code value(i)}. */
  static ValueProfiler feed(
      Map<String, String> params, int n, IntToLongFunction pc, IntToLongFunction value) {
    ValueProfiler vp = new ValueProfiler("v", params);
    for (int i = 0; i < n; i++) {
      long at = pc.applyAsLong(i);
      vp.retire(load(at), value.applyAsLong(i), 0, 50L * i);
    }
    return vp;
  }

  @Test
  void constantAndAlternatingLoads() {
    ValueProfiler vp =
        feed(
            Map.of(),
            20_000,
            i -> i % 2 == 0 ? 0x1000 : 0x2000,
            i -> i % 2 == 0 ? 42 : (i / 2 % 2 == 0 ? 1000 : 2000));
    Map<Long, Map<Long, Double>> est = vp.estimates();
    assertThat(est.get(0x1000L).get(42L)).isWithin(0.01).of(1.0);
    assertThat(est.get(0x2000L).get(1000L)).isWithin(0.05).of(0.5);
    assertThat(est.get(0x2000L).get(2000L)).isWithin(0.05).of(0.5);
    assertThat(vp.weightedRmsError()).isLessThan(5.0);
  }

  @Test
  void aLoadWhoseValueChangesWithThePhaseIsNotOverestimated() {
    // Ten phases of 5,000 executions, each reading its own value: 10% each over the run.
    // Masked as invariant in its first phase, the load is characterised again when the
    // exclusion bits are cleared (here every timer period of 2,000 samples).
    ValueProfiler vp =
        feed(
            Map.of("timer_cycles", "100000", "resample_timers", "1"),
            50_000,
            i -> 0x3000,
            i -> 0x7f0000 + i / 5_000 * 8);
    for (double e : vp.estimates().get(0x3000L).values()) {
      assertThat(e).isAtMost(0.35);
    }
    assertThat(vp.weightedRmsError()).isLessThan(20.0);
  }

  @Test
  void slotsAndBufferStayWithinTheirSizes() {
    SplittableRandom r = new SplittableRandom(7);
    // A working set far larger than 16 slots.
    ValueProfiler vp =
        feed(
            Map.of("slots", "16", "buffer", "4"),
            30_000,
            i -> 0x10000 + 4L * r.nextInt(500),
            i -> r.nextInt(4));
    vp.estimates();
    assertThat(vp.maxSlotsInUse()).isAtMost(16);
    assertThat(vp.buffer().maxOccupancy()).isAtMost(4);
    // Thrashing partitioned the program with the PC filter.
    assertThat(vp.summary().get(1)).contains("thrash interrupts");
    assertThat(vp.filter().regions()).isGreaterThan(1);
  }

  @Test
  void saturatingCountersKeepTheRatio() {
    // 8-bit counters: a 75%-invariant load seen far more often than 255 times.
    ValueProfiler vp =
        feed(
            Map.of("counter_bits", "8", "interval", "100000"),
            4_000,
            i -> 0x4000,
            i -> i % 4 == 3 ? i : 9);
    assertThat(vp.estimates().get(0x4000L).get(9L)).isWithin(0.05).of(0.75);
  }
}
