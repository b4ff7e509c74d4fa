package org.dise.experiments;

import static com.google.common.truth.Truth.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The co-processor beside interrupt sampling at matched accuracy. */
class CoprocExperimentTest {
  // {overhead %, error %} of sampling at three periods, given out of order.
  static final List<double[]> SAMPLING =
      List.of(new double[] {10, 10}, new double[] {100, 5}, new double[] {1, 20});

  @Test
  void samplingsOverheadAtAnErrorIsInterpolatedInLogOverhead() {
    // Halfway from 20% to 10% error: halfway from 1% to 10% overhead on a log scale.
    assertThat(CoprocExperiment.overheadAtError(SAMPLING, 15)).isWithin(1e-9).of(Math.sqrt(10));
    assertThat(CoprocExperiment.overheadAtError(SAMPLING, 10)).isWithin(1e-9).of(10);
    assertThat(CoprocExperiment.overheadAtError(SAMPLING, 7.5)).isWithin(1e-9).of(Math.sqrt(1000));
  }

  @Test
  void anErrorNoPeriodBracketsHasNoOverhead() {
    assertThat(CoprocExperiment.overheadAtError(SAMPLING, 30)).isNaN();
    assertThat(CoprocExperiment.overheadAtError(SAMPLING, 1)).isNaN();
    assertThat(CoprocExperiment.overheadAtError(List.of(), 10)).isNaN();
  }
}
