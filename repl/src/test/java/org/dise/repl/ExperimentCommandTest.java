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
    assertThat(r.stdout()).contains("--set intervals=1M,500K,250K,125K,62500 (--quick: 100K,50K)");
    assertThat(r.stdout()).contains("--set code_range_bits=64");
  }

  @Test
  void aSettingTheExperimentDoesNotHaveOrABadValueIsAUsageError() {
    ConfigCommandTest.Result r = acf("experiment", "rap", "--set", "range=32", "--quick");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.stderr())
        .contains("--set range: experiment rap has no setting `range` (settings: code_range_bits)");
    ConfigCommandTest.Result c = acf("experiment", "coproc", "--set", "x=1", "--quick");
    assertThat(c.stderr()).contains("experiment coproc has no setting `x` (it has none)");
    ConfigCommandTest.Result v =
        acf("experiment", "rap", "--set", "code_range_bits=wide", "--quick", "--programs", "nope");
    assertThat(v.status()).isEqualTo(2);
    // The programs are checked first; then the value, before any run.
    assertThat(v.stderr()).contains("--programs: examples/programs/bin/nope: no such program");
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
