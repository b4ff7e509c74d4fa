package org.dise.runtime.cpu;

import static com.google.common.truth.Truth.assertThat;
import static org.dise.runtime.cpu.UnitChainTest.A0;
import static org.dise.runtime.cpu.UnitChainTest.A1;
import static org.dise.runtime.cpu.UnitChainTest.A2;
import static org.dise.runtime.cpu.UnitChainTest.A3;
import static org.dise.runtime.cpu.UnitChainTest.A4;
import static org.dise.runtime.cpu.UnitChainTest.addi;
import static org.dise.runtime.cpu.UnitChainTest.assertSameState;
import static org.dise.runtime.cpu.UnitChainTest.branch;
import static org.dise.runtime.cpu.UnitChainTest.jal;
import static org.dise.runtime.cpu.UnitChainTest.sw;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import org.dise.runtime.mem.Memory;
import org.junit.jupiter.api.Test;

/**
 * Earlier units taken into a later region ({@code acf.absorbUnits}, {@link Region#form}): a nested
 * loop whose inner loop turned hot first, and so became a unit of its own, becomes one unit with
 * the outer loop once that turns hot, so control no longer leaves a unit twice per outer pass; the
 * guest sees exactly what the interpreter gives, also when it rewrites the inner loop's code after
 * the re-formation.
 */
class UnitAbsorbTest {
  private static final int A5 = 15;
  private static final int A6 = 16;
  private static final long O = 0x10000;
  private static final long L = O + 4;
  private static final long E = O + 16;

  /**
   * O: a3 = 0; L: a3 += 1, a0 += 1, back to L while a3 != a2 (the inner loop); E: a1 += 1, and when
   * a1 reaches a4 a store of a5 at a6; then back to O. The page is writable.
   */
  private static Cpu nest(long inner, long at, long value, long where) {
    Memory mem = new Memory();
    mem.map(O, Memory.PAGE_SIZE, Memory.PROT_READ | Memory.PROT_WRITE | Memory.PROT_EXEC);
    UnitChainTest.put(
        mem,
        O,
        addi(A3, 0, 0),
        addi(A3, A3, 1),
        addi(A0, A0, 1),
        branch(1, A3, A2, L - (O + 12)),
        addi(A1, A1, 1),
        branch(1, A1, A4, 8),
        sw(A5, A6),
        jal(0, O - (O + 28)));
    Cpu cpu = new Cpu(mem, c -> {});
    cpu.pc = O;
    cpu.x[A2] = inner;
    cpu.x[A4] = at;
    cpu.x[A5] = value;
    cpu.x[A6] = where;
    return cpu;
  }

  /** {@code cpu} translating at 50 runs, taking in earlier units of up to {@code absorb} blocks. */
  private static Cpu translating(Cpu cpu, int absorb) {
    BlockCompiler compiler = new BlockCompiler(new PrintStream(new ByteArrayOutputStream()));
    compiler.setAbsorb(absorb);
    cpu.setBlockCompiler(compiler, 50);
    return cpu;
  }

  @Test
  void theInnerLoopsUnitIsTakenIntoTheOuterLoopsAndRunsExactly() {
    Cpu interpreted = nest(10, -1, 0, 0);
    Cpu apart = translating(nest(10, -1, 0, 0), 0);
    Cpu taken = translating(nest(10, -1, 0, 0), 48);
    for (Cpu c : new Cpu[] {interpreted, apart, taken}) {
      assertThat(c.run(400_000)).isEqualTo(StopReason.STEP_LIMIT);
    }
    assertSameState(apart, interpreted);
    assertSameState(taken, interpreted);
    // Without: the inner loop (hot after 5 outer passes) is a unit, the outer loop another.
    assertThat(apart.blockAt(L).code).isNotNull();
    assertThat(apart.blockAt(O).code).isNotSameInstanceAs(apart.blockAt(L).code);
    // With: the outer loop's region took the inner loop's unit in; one unit for the nest.
    assertThat(taken.compiler.absorbed()).isEqualTo(1);
    CompiledBlocks code = taken.blockAt(O).code;
    assertThat(code).isNotNull();
    assertThat(taken.blockAt(L).code).isSameInstanceAs(code);
    assertThat(taken.blockAt(E).code).isSameInstanceAs(code);
    // 12,000 outer passes: two unit entries each apart, a few hundred in all once taken in.
    assertThat(apart.counters().unitEntries()).isGreaterThan(20_000L);
    assertThat(taken.counters().unitEntries()).isLessThan(1_000L);
  }

  @Test
  void rewritingTheInnerLoopAfterItWasTakenInTakesEffectAtOnce() {
    // At the 3,000th outer pass, long after the nest became one unit, the guest stores "addi a0,
    // a0, 100" over the inner loop's "addi a0, a0, 1": the store's block is in the unit, and the
    // rest of the unit must not run the old instruction again.
    int rewrite = addi(A0, A0, 100);
    for (long budget : new long[] {1, 7, 1_000, 100_000}) {
      Cpu interpreted = nest(10, 3_000, rewrite, L + 4);
      Cpu taken = translating(nest(10, 3_000, rewrite, L + 4), 48);
      for (int round = 0; round < 400_000 / budget; round++) {
        assertThat(interpreted.run(budget)).isEqualTo(StopReason.STEP_LIMIT);
        assertThat(taken.run(budget)).isEqualTo(StopReason.STEP_LIMIT);
        if (budget >= 1_000 || round % 97 == 0) {
          assertSameState(taken, interpreted);
        }
      }
      assertSameState(taken, interpreted);
      assertThat(taken.compiler.absorbed()).isAtLeast(1);
      // The new instruction ran: a0 grew by 100 per inner pass since the store.
      assertThat(taken.x[A0]).isGreaterThan(30_000L + 100L * 10 * (taken.x[A1] - 3_001));
    }
  }

  @Test
  void aBlockIsTakenIntoLaterUnitsAtMostMaxJoinsTimes() {
    // Twelve one-block loops in a row, each a unit of its own once hot, and the straight code
    // between them, hot later, whose region takes them in: each block is translated again a
    // bounded number of times, and the run stays exact.
    Memory mem = new Memory();
    mem.map(O, Memory.PAGE_SIZE, Memory.PROT_READ | Memory.PROT_WRITE | Memory.PROT_EXEC);
    int loops = 12;
    for (int i = 0; i < loops; i++) {
      long at = O + 12L * i;
      // a3 += 1 while a3 != a2, then a3 = 0 on the way to the next loop.
      UnitChainTest.put(mem, at, addi(A3, A3, 1), branch(1, A3, A2, -4), addi(A3, 0, 0));
    }
    UnitChainTest.put(mem, O + 12L * loops, jal(0, -12L * loops));
    Cpu interpreted = new Cpu(mem, c -> {});
    Cpu cpu = translating(new Cpu(mem, c -> {}), 48);
    for (Cpu c : new Cpu[] {interpreted, cpu}) {
      c.pc = O;
      c.x[A2] = 100;
      assertThat(c.run(300_000)).isEqualTo(StopReason.STEP_LIMIT);
    }
    assertSameState(cpu, interpreted);
    for (int i = 0; i < loops; i++) {
      assertThat(cpu.blockAt(O + 12L * i).joins).isAtMost(BlockCompiler.MAX_JOINS);
    }
  }
}
