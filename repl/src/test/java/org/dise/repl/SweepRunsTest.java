package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;

import org.junit.jupiter.api.Test;

/** The timing columns a timed sweep's CSV ends in, as spec/timing.md lists them. */
class SweepRunsTest {
  @Test
  void aTimedSweepEndsInTheOverheadReportsColumnsWithoutTheAttribution() {
    assertThat(SweepRuns.TIMING_COLUMNS)
        .containsExactly(
            "timing_model",
            "cycles_alone",
            "cycles_profiled",
            "cpi_alone",
            "cpi_profiled",
            "l1i_mpki",
            "l1d_mpki",
            "l2_mpki",
            "branch_mpki",
            "timing_overhead_pct")
        .inOrder();
  }
}
