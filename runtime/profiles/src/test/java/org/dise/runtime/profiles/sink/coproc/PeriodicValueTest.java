package org.dise.runtime.profiles.sink.coproc;

import static com.google.common.truth.Truth.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Periodic value patterns must not bias the co-processor's value profile (Zilles and Sohi, Section
 * 3.1: the co-processor's pseudo-random numbers "avoid pathological behaviors caused by repetition
 * in the program"). A load in a tight loop retires faster than the co-processor takes samples, so
 * which retirements it sees must not follow the program's period.
 */
class PeriodicValueTest {
  static final long PC = 0x4000;

  /** The invariance the profiler estimates for value 7 of a load retiring every few cycles. */
  static double invarianceOf7(int period, boolean halfTheTime, int cyclesApart) {
    // A timer of 100K cycles re-samples the load every 1.6M cycles (16 timers), so a short
    // A timer of 100K cycles that re-samples the load at every timer gives a short stream
    // several characterisations, as a long run gets with the defaults.
    ValueProfiler vp =
        new ValueProfiler("v", Map.of("timer_cycles", "100000", "resample_timers", "1"));
    int n = 600_000;
    for (int i = 0; i < n; i++) {
      int phase = i % period;
      boolean seven = halfTheTime ? phase < period / 2 : phase == 0;
      // "Something else" is a different value each time, as a pointer walk would give.
      long value = seven ? 7 : 1_000_000 + i;
      vp.retire(ValueProfilerTest.load(PC), value, 0, (long) cyclesApart * i);
    }
    return vp.estimates().getOrDefault(PC, Map.of()).getOrDefault(7L, 0.0);
  }

  @ParameterizedTest
  @ValueSource(ints = {2, 3, 4, 8})
  void sevenInTheFirstHalfOfEveryPeriod(int period) {
    double expected = (double) (period / 2) / period; // 7, x: 1/2; 7, x, x: 1/3; 7, 7, x, x: 1/2
    for (int cycles : new int[] {3, 5, 10}) {
      assertThat(invarianceOf7(period, true, cycles)).isWithin(0.05).of(expected);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {2, 3, 4, 8})
  void sevenOnceEveryPeriodIsFoundAtOneOverThePeriod(int period) {
    for (int cycles : new int[] {3, 5, 10}) {
      assertThat(invarianceOf7(period, false, cycles)).isWithin(0.05).of(1.0 / period);
    }
  }

  @Test
  void everyOtherTimeAtTheCoprocessorsOwnRate() {
    // 20 service cycles per sample, a retirement every 10 cycles: a regular sampler sees
    // every other retirement, always the same parity.
    assertThat(invarianceOf7(2, true, 10)).isWithin(0.05).of(0.5);
  }

  @ParameterizedTest
  @ValueSource(ints = {2, 4, 8})
  void interruptDrivenSamplingIsJitteredToo(int period) {
    // A fixed 1-in-100 countdown on a load with 7 every other time sees only one parity.
    SampledValueProfiler s = new SampledValueProfiler("s", Map.of("period", "100"));
    for (int i = 0; i < 400_000; i++) {
      s.retire(ValueProfilerTest.load(PC), i % period < period / 2 ? 7 : 1_000_000 + i, 0, i);
    }
    assertThat(s.estimates().get(PC).get(7L)).isWithin(0.05).of(0.5);
  }
}
