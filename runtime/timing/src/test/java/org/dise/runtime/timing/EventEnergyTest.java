package org.dise.runtime.timing;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import org.dise.runtime.Machine;
import org.dise.runtime.cpu.StopReason;
import org.junit.jupiter.api.Test;

/** Energy priced from the inorder model's measured events (spec/timing.md, "Energy"). */
class EventEnergyTest {
  private static final EventEnergy STRONGARM = EventEnergy.of(TimingConfig.defaults("inorder"));

  private static TimingReport report(
      long insns, long fp, long readMisses, long fetchMisses, long writeMisses, long bubbles) {
    return new TimingReport(
        "inorder",
        0,
        new long[4],
        insns,
        0,
        0,
        0,
        fetchMisses,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        fp,
        readMisses,
        writeMisses,
        bubbles,
        0);
  }

  /** The defaults are Fig. 14(b)'s quotients to five digits. */
  private static void near(double actual, double expected) {
    assertThat(actual).isWithin(1e-4 * Math.abs(expected)).of(expected);
  }

  @Test
  void eachEventCostsItsFigure14bPrice() {
    // Power over rate, Fig. 14(b): IREG 0.865 W / 204.79 M/s, IMEM-R 0.973 / 19.462 M,
    // IMEM-W 1.340 / 11.625 M, FPREG 0.965 / 0.439 M; a byte 1.425 W over 11 Mb/s.
    double ireg = 0.865 / 204.79e6;
    near(STRONGARM.of(report(1000, 0, 0, 0, 0, 0)).total(), 1000 * ireg);
    near(STRONGARM.of(report(10, 10, 0, 0, 0, 0)).total(), 10 * 0.965 / 0.439e6);
    // A load that misses costs IMEM-R in all; so does a fetch that misses, beyond its instruction.
    near(STRONGARM.of(report(1, 0, 1, 0, 0, 0)).total(), 0.973 / 19.462e6);
    near(STRONGARM.of(report(1, 0, 0, 1, 0, 0)).total(), 0.973 / 19.462e6);
    near(STRONGARM.of(report(1, 0, 0, 0, 1, 0)).total(), 1.340 / 11.625e6);
    near(STRONGARM.of(report(0, 0, 0, 0, 0, 7)).total(), 7 * ireg);
    // A handler's own instructions (run as code) are priced like any other.
    TimingReport handler =
        new TimingReport(
            "inorder", 0, new long[4], 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5);
    near(STRONGARM.of(handler).total(), 15 * ireg);
    near(STRONGARM.transmit(1000), 1000 * 1.425 / (11e6 / 8));
    // Profiling's energy: the profiled core's over the application's, plus what is sent.
    near(
        STRONGARM.profiling(report(1000, 0, 0, 0, 0, 0), report(1100, 0, 0, 0, 0, 50), 16),
        150 * ireg + STRONGARM.transmit(16));
  }

  @Test
  void theParametersAreConfigurable() {
    TimingConfig c = TimingConfig.defaults("inorder").set("energy.imem_r_nj", "100");
    assertThat(EventEnergy.of(c).of(report(1, 0, 1, 0, 0, 0)).total()).isWithin(1e-15).of(1e-7);
    org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class, () -> c.set("energy.fp_nj", "lots"));
  }

  private static TimingReport chase(String bytes, long steps) throws Exception {
    Machine m = MicroPrograms.load("chase", bytes, Long.toString(steps));
    TimingRun t = new TimingRun(TimingConfig.defaults("inorder")).attach(m.cpu());
    assertThat(m.run(-1).reason()).isEqualTo(StopReason.EXITED);
    return t.application();
  }

  private static double joulesPerStep(String bytes) throws Exception {
    return (STRONGARM.of(chase(bytes, 40_000)).total() - STRONGARM.of(chase(bytes, 20_000)).total())
        / 20_000;
  }

  @Test
  void aPointerChaseBeyondTheL1CostsAMemoryReadPerStepAndOneWithinItDoesNot() throws Exception {
    // 4 KB fits the SA-1110's 8 KB L1 D: a step is its few instructions at the IREG price.
    // 16 MB does not: each step's load misses, measured, and costs IMEM-R instead of IREG (the
    // analytic model's fixed 0.2% miss rate would price it near IREG).
    double inside = joulesPerStep("4K");
    double beyond = joulesPerStep("16M");
    assertWithMessage("nJ per step within the L1").that(inside * 1e9).isLessThan(5 * 4.224);
    assertWithMessage("nJ a step's miss adds")
        .that((beyond - inside) * 1e9)
        .isWithin(0.05 * 45.77)
        .of(49.995 - 4.2238);
  }
}
