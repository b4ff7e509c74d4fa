package org.dise.runtime.timing;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.dise.runtime.Machine;
import org.dise.runtime.cpu.StopReason;
import org.junit.jupiter.api.Test;

/**
 * Sampled timing (spec/timing.md, "Sampled timing"): detailed units with functional warming in
 * between estimate the full run's cycles, and leave the misses and mispredictions exact.
 */
class SampledTimingTest {
  private static TimingReport run(TimingConfig c, String program, String... args) throws Exception {
    Machine m = MicroPrograms.load(program, args);
    TimingRun t = new TimingRun(c, false).attach(m.cpu());
    assertThat(m.run(-1).reason()).isEqualTo(StopReason.EXITED);
    assertThat(t.sampled()).isEqualTo(c.integer("sample.period") > 0);
    return t.application();
  }

  private static void compare(String model, double tolerance, String program, String... args)
      throws Exception {
    TimingReport full = run(TimingConfig.defaults(model), program, args);
    TimingReport sampled =
        run(TimingConfig.defaults(model).set("sample.period", "20000"), program, args);
    // Functional warming makes every access and prediction the full run makes: the same misses.
    assertThat(sampled.applicationInstructions()).isEqualTo(full.applicationInstructions());
    assertThat(sampled.l1dMisses()).isEqualTo(full.l1dMisses());
    assertThat(sampled.l2Misses()).isEqualTo(full.l2Misses());
    assertThat(sampled.l1iMisses()).isEqualTo(full.l1iMisses());
    assertThat(sampled.mispredictions()).isEqualTo(full.mispredictions());
    // 1,000 of every 20,000 instructions measured: the cycles within the stated tolerance.
    assertWithMessage("%s %s cycles, sampled against full", model, program)
        .that((double) sampled.cycles())
        .isWithin(tolerance * full.cycles())
        .of((double) full.cycles());
  }

  @Test
  void aSteadyKernelIsEstimatedClosely() throws Exception {
    compare("ooo", 0.02, "mul", "0", "40000");
    compare("inorder", 0.02, "mul", "0", "40000");
  }

  @Test
  void warmCachesAndPredictorsKeepMissBoundAndBranchyKernelsClose() throws Exception {
    // Without warming, each unit would start with cold caches and miss far more.
    compare("ooo", 0.05, "chase", "16M", "40000");
    compare("ooo", 0.05, "branch", "1", "40000");
  }

  @Test
  void aPeriodShorterThanItsUnitAndWarmUpIsRefused() {
    TimingConfig c = TimingConfig.defaults("ooo").set("sample.period", "2500");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Core.of(c));
    assertThat(e).hasMessageThat().contains("sample.unit + sample.warmup");
  }
}
