package org.dise.runtime.cpu;

import static com.google.common.truth.Truth.assertThat;
import static org.dise.runtime.cpu.UnitChainTest.A0;
import static org.dise.runtime.cpu.UnitChainTest.A1;
import static org.dise.runtime.cpu.UnitChainTest.A2;
import static org.dise.runtime.cpu.UnitChainTest.A3;
import static org.dise.runtime.cpu.UnitChainTest.A4;
import static org.dise.runtime.cpu.UnitChainTest.addi;
import static org.dise.runtime.cpu.UnitChainTest.assertSameState;
import static org.dise.runtime.cpu.UnitChainTest.sw;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.List;
import org.dise.runtime.mem.Memory;
import org.junit.jupiter.api.Test;

/**
 * Units joined at a hot edge between them ({@code acf.joinUnits}, {@link BlockCompiler#join}): a
 * loop spread over units of one block each becomes one unit, and the guest sees exactly what the
 * interpreter gives, whatever the step budget, and when the loop's code is rewritten after the join
 * (every block of the joined unit leaves it).
 */
class UnitJoinTest {
  private static final long A = 0x10000;
  private static final long B = 0x12000;
  private static final long TO_B = A + 12;

  /**
   * A loop over two pages: A (a0 += 1; when a0 reaches {@code at}, falls through to a store of a3
   * at a4), then TO_B (a jump to B), and B (a1 += 1; back to A). B's page is writable.
   */
  private static Cpu loop(long at, long value, long where) {
    Memory mem = new Memory();
    mem.map(A, Memory.PAGE_SIZE, Memory.PROT_READ | Memory.PROT_EXEC);
    mem.map(B, Memory.PAGE_SIZE, Memory.PROT_READ | Memory.PROT_WRITE | Memory.PROT_EXEC);
    UnitChainTest.put(
        mem,
        A,
        addi(A0, A0, 1),
        UnitChainTest.branch(1, A0, A2, TO_B - (A + 4)),
        sw(A3, A4),
        UnitChainTest.jal(0, B - TO_B));
    UnitChainTest.put(mem, B, addi(A1, A1, 1), UnitChainTest.jal(0, A - (B + 4)));
    Cpu cpu = new Cpu(mem, c -> {});
    cpu.pc = A;
    cpu.x[A2] = at;
    cpu.x[A3] = value;
    cpu.x[A4] = where;
    return cpu;
  }

  /**
   * {@code cpu} after one interpreted round (A, TO_B, B: 5 instructions), with A, TO_B and B each a
   * unit of its own, and a compiler that joins units after {@code joinAt} chained entries (and
   * never translates anything by itself).
   */
  private static Cpu spread(Cpu cpu, int joinAt) {
    BlockCompiler compiler = new BlockCompiler(new PrintStream(new ByteArrayOutputStream()));
    compiler.setJoinAt(joinAt);
    cpu.setBlockCompiler(compiler, Integer.MAX_VALUE);
    assertThat(cpu.run(5)).isEqualTo(StopReason.STEP_LIMIT);
    for (long s : new long[] {A, TO_B, B}) {
      Block b = cpu.blockAt(s);
      BlockCompiler.install(compiler.compile(List.of(b)), cpu);
      assertThat(b.code).isNotNull();
    }
    return cpu;
  }

  @Test
  void aLoopSpreadOverUnitsBecomesOneUnitAndRunsExactly() {
    Cpu interpreted = loop(1 << 30, 0, 0);
    Cpu cpu = spread(loop(1 << 30, 0, 0), 20);
    assertThat(interpreted.run(5 + 10_000)).isEqualTo(StopReason.STEP_LIMIT);
    assertThat(cpu.run(10_000)).isEqualTo(StopReason.STEP_LIMIT);
    assertSameState(cpu, interpreted);
    // A's edge into TO_B, then the joined unit's into B: two joins, one unit for the loop.
    assertThat(cpu.counters().unitsJoined()).isEqualTo(2L);
    CompiledBlocks code = cpu.blockAt(A).code;
    assertThat(cpu.blockAt(TO_B).code).isSameInstanceAs(code);
    assertThat(cpu.blockAt(B).code).isSameInstanceAs(code);
    // Once joined the loop stays inside its unit: the 2,000 rounds entered it about 40 times.
    assertThat(cpu.counters().unitEntries()).isLessThan(100L);
    assertThat(cpu.counters().translatedInstructions()).isEqualTo(10_000L);
  }

  @Test
  void withoutJoinsTheUnitsStayApart() {
    Cpu cpu = spread(loop(1 << 30, 0, 0), 0);
    assertThat(cpu.run(10_000)).isEqualTo(StopReason.STEP_LIMIT);
    assertThat(cpu.counters().unitsJoined()).isEqualTo(0L);
    assertThat(cpu.blockAt(A).code).isNotSameInstanceAs(cpu.blockAt(B).code);
    assertThat(cpu.counters().unitEntries()).isGreaterThan(5_000L);
  }

  @Test
  void stepBudgetsEndingInsideTheJoinedUnitStopExactly() {
    for (long budget : new long[] {1, 2, 3, 4, 5, 7, 99, 100, 101}) {
      Cpu interpreted = loop(1 << 30, 0, 0);
      Cpu cpu = spread(loop(1 << 30, 0, 0), 3);
      assertThat(interpreted.run(5)).isEqualTo(StopReason.STEP_LIMIT);
      for (int round = 0; round < 200; round++) {
        assertThat(interpreted.run(budget)).isEqualTo(StopReason.STEP_LIMIT);
        assertThat(cpu.run(budget)).isEqualTo(StopReason.STEP_LIMIT);
        assertSameState(cpu, interpreted);
      }
      if (budget >= 5) {
        assertThat(cpu.counters().unitsJoined()).isEqualTo(2L);
      }
    }
  }

  @Test
  void rewritingTheJoinedLoopsCodeTakesEffectAtOnceAndEmptiesTheUnit() {
    // At a0 == 500 the guest stores "addi a1, a1, 100" over B's first instruction, long after the
    // loop became one unit: the store's block is interpreted, and the joined unit must not run
    // the old B again, nor keep A and TO_B (on the other page) in the out-of-date unit.
    int rewrite = addi(A1, A1, 100);
    Cpu interpreted = loop(500, rewrite, B);
    Cpu cpu = spread(loop(500, rewrite, B), 10);
    assertThat(interpreted.run(5 + 2_000)).isEqualTo(StopReason.STEP_LIMIT);
    assertThat(cpu.run(2_000)).isEqualTo(StopReason.STEP_LIMIT);
    assertSameState(cpu, interpreted);
    CompiledBlocks joined = cpu.blockAt(A).code;
    assertThat(joined).isNotNull();
    assertThat(cpu.blockAt(B).code).isSameInstanceAs(joined);
    for (long n : new long[] {1, 13, 500, 1_000, 3_000}) {
      assertThat(interpreted.run(n)).isEqualTo(StopReason.STEP_LIMIT);
      assertThat(cpu.run(n)).isEqualTo(StopReason.STEP_LIMIT);
      assertSameState(cpu, interpreted);
    }
    // The new B ran: every round from the store's on adds 100 to a1 (the last may stop before B).
    assertThat(cpu.x[A0]).isGreaterThan(600L);
    assertThat(cpu.x[A1]).isAtLeast(499 + 100 * (cpu.x[A0] - 500));
    // No block still belongs to the joined unit; A and TO_B left it with B.
    for (long s : new long[] {A, TO_B}) {
      assertThat(cpu.blockAt(s).code).isNotSameInstanceAs(joined);
    }
    assertThat(cpu.blockAt(B).code).isNull();
  }

  /**
   * A ring of {@code blocks} one-block units at A, A + 8, ... (each adds 1 to a0 and jumps to the
   * next; their starts map to different slots of the link table), run twice round by the
   * interpreter, then each block installed as a unit of its own, with joins after {@code joinAt}
   * chains; and beside it, the same ring on a cpu that only interprets, not run yet.
   */
  private static Cpu[] ring(int blocks, int joinAt) {
    Memory mem = new Memory();
    mem.map(A, Memory.PAGE_SIZE, Memory.PROT_READ | Memory.PROT_EXEC);
    for (int i = 0; i < blocks; i++) {
      long at = A + 8L * i;
      long next = i + 1 < blocks ? at + 8 : A;
      UnitChainTest.put(mem, at, addi(A0, A0, 1), UnitChainTest.jal(0, next - (at + 4)));
    }
    Cpu cpu = new Cpu(mem, c -> {});
    cpu.pc = A;
    Cpu interpreted = new Cpu(mem, c -> {});
    interpreted.pc = A;
    BlockCompiler compiler = new BlockCompiler(new PrintStream(new ByteArrayOutputStream()));
    compiler.setJoinAt(joinAt);
    cpu.setBlockCompiler(compiler, Integer.MAX_VALUE);
    assertThat(cpu.run(2 * blocks)).isEqualTo(StopReason.STEP_LIMIT);
    for (int i = 0; i < blocks; i++) {
      Block b = cpu.blockAt(A + 8L * i);
      BlockCompiler.install(compiler.compile(List.of(b)), cpu);
    }
    return new Cpu[] {cpu, interpreted};
  }

  @Test
  void aJoinOverTheUnitLimitIsRefusedForGood() {
    // A loop of blocks whose joined unit would pass 48 blocks: ring of 60 one-block units.
    int blocks = 60;
    Cpu[] ring = ring(blocks, 2);
    Cpu cpu = ring[0];
    assertThat(cpu.run(200 * blocks)).isEqualTo(StopReason.STEP_LIMIT);
    assertThat(ring[1].run(202 * blocks)).isEqualTo(StopReason.STEP_LIMIT);
    assertSameState(cpu, ring[1]);
    assertThat(cpu.counters().unitsJoined()).isGreaterThan(0L);
    assertThat(cpu.counters().joinsRefused()).isGreaterThan(0L);
    // Each block was translated again at most MAX_JOINS times: nothing churns.
    for (int i = 0; i < blocks; i++) {
      assertThat(cpu.blockAt(A + 8L * i).joins).isAtMost(BlockCompiler.MAX_JOINS);
    }
    long joins = cpu.counters().unitsJoined();
    assertThat(cpu.run(200 * blocks)).isEqualTo(StopReason.STEP_LIMIT);
    assertThat(cpu.counters().unitsJoined()).isEqualTo(joins);
  }

  @Test
  void chainsThatHitTheLinkTableCountTowardsAJoin() {
    // Three units in three slots: after the first round every chain is a link table hit, and
    // the heat is counted there.
    Cpu[] ring = ring(3, 20);
    Cpu cpu = ring[0];
    assertThat(cpu.run(6_000)).isEqualTo(StopReason.STEP_LIMIT);
    assertThat(ring[1].run(6_006)).isEqualTo(StopReason.STEP_LIMIT);
    assertSameState(cpu, ring[1]);
    assertThat(cpu.counters().unitsJoined()).isEqualTo(2L);
    CompiledBlocks code = cpu.blockAt(A).code;
    assertThat(cpu.blockAt(A + 8).code).isSameInstanceAs(code);
    assertThat(cpu.blockAt(A + 16).code).isSameInstanceAs(code);
    assertThat(cpu.counters().unitEntries()).isLessThan(200L);
  }

  @Test
  void joinsAreOnByDefault() {
    BlockCompiler compiler = new BlockCompiler(new PrintStream(new ByteArrayOutputStream()));
    assertThat(compiler.joinAt()).isEqualTo(100_000);
  }
}
