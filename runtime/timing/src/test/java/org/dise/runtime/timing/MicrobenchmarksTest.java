package org.dise.runtime.timing;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import java.util.function.ToLongFunction;
import org.dise.runtime.Machine;
import org.dise.runtime.cpu.StopReason;
import org.junit.jupiter.api.Test;

/**
 * The validation microbenchmarks of spec/timing.md: small RISC-V programs (src/test/micro) whose
 * behaviour on each model is known analytically. Each figure is the difference of two runs that
 * differ only in the kernel's repetitions, divided by the extra repetitions: start-up and the
 * kernel's set-up cancel, and what is left is its steady state.
 */
class MicrobenchmarksTest {
  private static TimingReport run(String model, String program, String... args) throws Exception {
    Machine m = MicroPrograms.load(program, args);
    TimingRun t = new TimingRun(TimingConfig.defaults(model)).attach(m.cpu());
    Machine.Outcome out = m.run(-1);
    assertThat(out.reason()).isEqualTo(StopReason.EXITED);
    return t.application();
  }

  /** The extra {@code figure} per extra repetition between {@code n1} and {@code n2}. */
  private static double perStep(
      String model, String program, String first, long n1, long n2, ToLongFunction<TimingReport> f)
      throws Exception {
    TimingReport a = run(model, program, first, Long.toString(n1));
    TimingReport b = run(model, program, first, Long.toString(n2));
    return (double) (f.applyAsLong(b) - f.applyAsLong(a)) / (n2 - n1);
  }

  @Test
  void stridedWalkMissesStepUpAtEachCacheCapacity() throws Exception {
    // ooo: 32 KB L1 D, 1 MB L2; one load per 64 bytes. Per pass, accesses = bytes / 64.
    long[] sizes = {16 << 10, 64 << 10, 4 << 20};
    double[] l1 = new double[3];
    double[] l2 = new double[3];
    for (int i = 0; i < sizes.length; i++) {
      TimingReport a = run("ooo", "stride", Long.toString(sizes[i]), "2");
      TimingReport b = run("ooo", "stride", Long.toString(sizes[i]), "4");
      double accesses = 2.0 * sizes[i] / 64;
      l1[i] = (b.l1dMisses() - a.l1dMisses()) / accesses;
      l2[i] = (b.l2Misses() - a.l2Misses()) / accesses;
    }
    // Fits the L1: no misses once warm (tolerance 0.02 per access).
    assertWithMessage("L1 D misses per access, 16 KB").that(l1[0]).isLessThan(0.02);
    // Twice the L1, within the L2: every access misses the L1 (LRU on a cyclic walk) and hits
    // the L2 (tolerance 0.05).
    assertWithMessage("L1 D misses per access, 64 KB").that(l1[1]).isWithin(0.05).of(1.0);
    assertWithMessage("L2 misses per access, 64 KB").that(l2[1]).isLessThan(0.02);
    // Four times the L2: every access misses both.
    assertWithMessage("L1 D misses per access, 4 MB").that(l1[2]).isWithin(0.05).of(1.0);
    assertWithMessage("L2 misses per access, 4 MB").that(l2[2]).isWithin(0.05).of(1.0);
  }

  @Test
  void randomPointerChaseMissesOncePerAccessBeyondTheL2AndNeverWithinTheL1() throws Exception {
    // 16 MB of 64-byte nodes in one random cycle, walked for fewer steps than it has nodes:
    // each step reaches a node last touched by the set-up, whose 16 MB of writes (and the
    // chase's own lines) have since evicted it from the 1 MB L2: one L2 miss per step
    // (tolerance 0.05: the nodes the set-up wrote last may still be there); the L1 misses too.
    double l2 = perStep("ooo", "chase", "16M", 20_000, 40_000, TimingReport::l2Misses);
    double l1 = perStep("ooo", "chase", "16M", 20_000, 40_000, TimingReport::l1dMisses);
    assertWithMessage("L2 misses per step, 16 MB").that(l2).isWithin(0.05).of(1.0);
    assertWithMessage("L1 D misses per step, 16 MB").that(l1).isWithin(0.03).of(1.0);
    // 8 KB: every node is in the L1 after the set-up wrote it; the chase adds no miss.
    double small = perStep("ooo", "chase", "8K", 20_000, 40_000, TimingReport::l1dMisses);
    assertWithMessage("L1 D misses per step, 8 KB").that(small).isLessThan(0.001);
    // And each of those 16 MB steps waits for its miss: a dependent chain of loads.
    double cycles = perStep("ooo", "chase", "16M", 20_000, 40_000, TimingReport::cycles);
    assertWithMessage("cycles per step, 16 MB").that(cycles).isAtLeast(2 + 12 + 0.9 * 100);
  }

  @Test
  void gshareLearnsARepeatingPatternAndMissesHalfOfRandomBranches() throws Exception {
    double patterned = perStep("ooo", "branch", "0", 20_000, 40_000, TimingReport::mispredictions);
    double random = perStep("ooo", "branch", "1", 20_000, 40_000, TimingReport::mispredictions);
    assertWithMessage("mispredictions per iteration, period-6 pattern")
        .that(patterned)
        .isLessThan(0.02);
    assertWithMessage("mispredictions per iteration, random").that(random).isWithin(0.06).of(0.5);
  }

  @Test
  void dependentMultipliesRunAtTheirLatencyAndIndependentOnesOverlap() throws Exception {
    // 8 multiplies per iteration plus 2 loop instructions.
    double dependent = perStep("ooo", "mul", "0", 20_000, 40_000, TimingReport::cycles) / 8;
    assertWithMessage("ooo cycles per dependent multiply").that(dependent).isWithin(0.3).of(6.0);
    double cycles = perStep("ooo", "mul", "1", 20_000, 40_000, TimingReport::cycles);
    double insns =
        perStep("ooo", "mul", "1", 20_000, 40_000, TimingReport::applicationInstructions);
    assertThat(insns).isWithin(0.01).of(10.0);
    // Eight chains, each one multiply per iteration: 6 cycles per 10 instructions.
    assertWithMessage("ooo CPI, independent multiplies").that(cycles / insns).isWithin(0.1).of(0.6);
    // inorder: each dependent multiply waits 3 cycles; the loop's two instructions add 2 per 8.
    double inorder = perStep("inorder", "mul", "0", 20_000, 40_000, TimingReport::cycles) / 8;
    assertWithMessage("inorder cycles per dependent multiply")
        .that(inorder)
        .isWithin(0.15)
        .of(3.25);
  }
}
