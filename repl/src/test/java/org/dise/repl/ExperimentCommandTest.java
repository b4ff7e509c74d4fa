package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;
import static org.dise.repl.ConfigCommandTest.acf;

import org.dise.experiments.Experiment;
import org.dise.experiments.Experiments;
import org.junit.jupiter.api.Test;

/** {@code acf experiment}: the list, and one-line errors (the runs are tested in experiments/). */
class ExperimentCommandTest {
  @Test
  void listNamesEveryExperimentAndWhatItReproduces() {
    ConfigCommandTest.Result r = acf("experiment", "list");
    assertThat(r.status()).isEqualTo(0);
    for (Experiment e : Experiments.all()) {
      assertThat(r.stdout()).contains(e.name());
      assertThat(r.stdout()).contains(e.reproduces());
    }
    assertThat(r.stdout()).contains("Fig. 9");
  }

  @Test
  void anUnknownExperimentOrProgramIsAUsageError() {
    ConfigCommandTest.Result r = acf("experiment", "nonsense");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.stderr()).contains("no experiment `nonsense`; `acf experiment list` names them");
    ConfigCommandTest.Result p = acf("experiment", "rap", "--programs", "nope");
    assertThat(p.status()).isEqualTo(2);
    assertThat(p.stderr()).contains("--programs: examples/programs/bin/nope: no such program");
  }
}
