package org.dise.runtime.cpu;

import static com.google.common.truth.Truth.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import org.dise.runtime.mem.Memory;
import org.junit.jupiter.api.Test;

/**
 * Guest calls between translated units run as host calls from the caller's unit, and a return to
 * the call's return address goes on in the caller's code (spec/emulator.md, "Calls between units"):
 * the guest sees exactly what the interpreter gives, through indirect calls, recursion deeper than
 * the host nesting allows, step budgets that end inside a callee, code rewritten by the callee and
 * interrupts.
 */
class UnitCallTest {
  /** The nesting limit these tests translate with (-Dacf.callDepth's default is 0: off). */
  private static final int DEPTH = 48;

  private static final long CODE = 0x10000;
  private static final long STACK = 0x40000;
  private static final long TABLE = 0x50000;

  private static final int RA = 1;
  private static final int SP = 2;
  private static final int T0 = 5;
  private static final int A0 = 10;
  private static final int A1 = 11;
  private static final int A2 = 12;
  private static final int A3 = 13;
  private static final int A4 = 14;
  private static final int A5 = 15;
  private static final int A6 = 16;
  private static final int A7 = 17;

  private static int itype(int op, int f3, int rd, int rs1, int imm) {
    return (imm << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | op;
  }

  private static int addi(int rd, int rs1, int imm) {
    return itype(0x13, 0, rd, rs1, imm);
  }

  private static int ld(int rd, int rs1, int imm) {
    return itype(0x03, 3, rd, rs1, imm);
  }

  private static int jalr(int rd, int rs1) {
    return itype(0x67, 0, rd, rs1, 0);
  }

  private static int store(int f3, int rs2, int rs1, int imm) {
    return ((imm >> 5) << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | ((imm & 31) << 7) | 0x23;
  }

  // Mutual recursion through a table: main calls F(n); F(n) calls G(n-1) indirectly (the
  // address from TABLE) and counts a1; G(n) calls F(n-1) directly and adds 3 to a5.
  private static final long F = CODE + 0x100;
  private static final long G = CODE + 0x200;

  private static Cpu recursion(int depth) {
    Memory mem = new Memory();
    mem.map(CODE, Memory.PAGE_SIZE, Memory.PROT_READ | Memory.PROT_EXEC);
    mem.map(STACK, 16 * Memory.PAGE_SIZE, Memory.PROT_READ | Memory.PROT_WRITE);
    mem.map(TABLE, Memory.PAGE_SIZE, Memory.PROT_READ | Memory.PROT_WRITE);
    // main: call F; a2 += 1; a0 = a3; loop.
    UnitChainTest.put(
        mem,
        CODE,
        UnitChainTest.jal(RA, F - CODE),
        addi(A2, A2, 1),
        addi(A0, A3, 0),
        UnitChainTest.jal(0, -12));
    UnitChainTest.put(
        mem,
        F,
        UnitChainTest.branch(0, A0, 0, 36), // beq a0, x0, ret
        addi(SP, SP, -16),
        store(3, RA, SP, 0), // sd ra, 0(sp)
        addi(A0, A0, -1),
        ld(T0, A4, 0),
        jalr(RA, T0), // the indirect call
        ld(RA, SP, 0),
        addi(SP, SP, 16),
        addi(A1, A1, 1),
        jalr(0, RA));
    UnitChainTest.put(
        mem,
        G,
        UnitChainTest.branch(0, A0, 0, 32), // beq a0, x0, ret
        addi(SP, SP, -16),
        store(3, RA, SP, 0),
        addi(A0, A0, -1),
        UnitChainTest.jal(RA, F - (G + 16)),
        ld(RA, SP, 0),
        addi(SP, SP, 16),
        addi(A5, A5, 3),
        jalr(0, RA));
    mem.sd(TABLE, G);
    Cpu cpu = new Cpu(mem, c -> {});
    cpu.pc = CODE;
    cpu.x[SP] = STACK + 16 * Memory.PAGE_SIZE;
    cpu.x[A0] = depth;
    cpu.x[A3] = depth;
    cpu.x[A4] = TABLE;
    return cpu;
  }

  /** Translates the blocks at each group of starts as one unit (each block built first). */
  private static void units(Cpu cpu, long[]... groups) {
    unitsNesting(cpu, DEPTH, groups);
  }

  /** {@link #units} translated with nesting limit {@code depth} (0: no call sites). */
  private static void unitsNesting(Cpu cpu, int depth, long[]... groups) {
    BlockCompiler compiler = new BlockCompiler(new PrintStream(new ByteArrayOutputStream()));
    compiler.setCallDepth(depth);
    cpu.unitContext().maxCallDepth = depth;
    for (long[] starts : groups) {
      List<Block> blocks = Arrays.stream(starts).mapToObj(cpu::blockAt).toList();
      BlockCompiler.install(compiler.compile(blocks), cpu);
      for (Block b : blocks) {
        assertThat(b.code).isNotNull();
      }
    }
  }

  /** main, F and G as three units: every call and return crosses units. */
  private static void recursionUnits(Cpu cpu) {
    units(
        cpu,
        new long[] {CODE, CODE + 4},
        new long[] {F, F + 4, F + 24, F + 36},
        new long[] {G, G + 4, G + 20, G + 32});
  }

  private static void assertSameState(Cpu translated, Cpu interpreted) {
    assertThat(translated.instret()).isEqualTo(interpreted.instret());
    assertThat(translated.pc).isEqualTo(interpreted.pc);
    assertThat(Arrays.copyOf(translated.x, 32)).isEqualTo(Arrays.copyOf(interpreted.x, 32));
  }

  /** recursion(depth) interpreted and translated, each run for {@code steps}, in the same state. */
  private static Cpu[] recursionPair(int depth, long steps) {
    Cpu interpreted = recursion(depth);
    Cpu translated = recursion(depth);
    recursionUnits(translated);
    assertThat(interpreted.run(steps)).isEqualTo(StopReason.STEP_LIMIT);
    assertThat(translated.run(steps)).isEqualTo(StopReason.STEP_LIMIT);
    assertSameState(translated, interpreted);
    return new Cpu[] {interpreted, translated};
  }

  @Test
  void indirectCallsAndRecursionDeeperThanTheNestingMatchTheInterpreter() {
    int depth = 3 * DEPTH + 5;
    long steps = 50 * (9L * depth + 4);
    Cpu translated = recursionPair(depth, steps)[1];
    assertThat(translated.x[A2]).isGreaterThan(40L); // rounds of main
    Cpu.Counters c = translated.counters();
    assertThat(c.translatedInstructions()).isAtLeast(steps - 10); // a last block cut short
    // Calls went straight into the callee's unit but near each nesting limit, where the
    // dispatcher (or the innermost caller's frame) took over; returns came back into the
    // caller's unit while its frame was there.
    assertThat(c.nestedCalls()).isGreaterThan(20L * depth);
    assertThat(c.nestedCalls()).isLessThan(50L * (depth + 1));
    assertThat(c.nestedReturns()).isAtLeast(40L);
  }

  @Test
  void returnsWithinTheNestingComeBackIntoTheCallersUnit() {
    Cpu translated = recursionPair(20, 100_000)[1];
    Cpu.Counters c = translated.counters();
    assertThat(c.nestedCalls()).isGreaterThan(10_000L);
    assertThat(c.nestedReturns()).isGreaterThan(c.nestedCalls() - 100);
    // main's loop enters translated code from the dispatcher about once a round.
    assertThat(c.unitEntries()).isLessThan(2 * translated.x[A2] + 10);
  }

  @Test
  void withoutCallSitesEveryCallAndReturnGoesThroughTheDispatcher() {
    // The default (-Dacf.callDepth=0): the units have no call sites, the same guest state.
    Cpu interpreted = recursion(20);
    Cpu translated = recursion(20);
    unitsNesting(
        translated,
        0,
        new long[] {CODE, CODE + 4},
        new long[] {F, F + 4, F + 24, F + 36},
        new long[] {G, G + 4, G + 20, G + 32});
    assertThat(interpreted.run(20_000)).isEqualTo(StopReason.STEP_LIMIT);
    assertThat(translated.run(20_000)).isEqualTo(StopReason.STEP_LIMIT);
    assertSameState(translated, interpreted);
    assertThat(translated.counters().nestedCalls()).isEqualTo(0L);
    assertThat(translated.counters().unitEntries()).isGreaterThan(2 * 20 * translated.x[A2]);
  }

  @Test
  void stepBudgetsEndingInsideNestedCallsStopOnTheExactInstruction() {
    for (long budget : new long[] {1, 7, 10, 13, 97, 250, 1001}) {
      Cpu interpreted = recursion(20);
      Cpu translated = recursion(20);
      recursionUnits(translated);
      for (int round = 0; round < 4; round++) {
        assertThat(interpreted.run(budget)).isEqualTo(StopReason.STEP_LIMIT);
        assertThat(translated.run(budget)).isEqualTo(StopReason.STEP_LIMIT);
        assertSameState(translated, interpreted);
      }
    }
  }

  @Test
  void aFaultInsideANestedCalleeStopsThereWithTheExactCount() {
    Cpu[] pair = recursionPair(30, 5000);
    Cpu interpreted = pair[0];
    Cpu translated = pair[1];
    // The table now sends F's indirect call to an unmapped address: deep in the recursion, the
    // callee's jalr goes there and the fetch faults, with every instruction before it counted.
    for (Cpu cpu : new Cpu[] {interpreted, translated}) {
      cpu.memory().sd(TABLE, 0x7000_0000L);
      assertThat(cpu.run(100_000)).isEqualTo(StopReason.FAULT);
      assertThat(cpu.fault().pc()).isEqualTo(0x7000_0000L);
    }
    assertSameState(translated, interpreted);
    // A load that faults inside a callee's unit, three calls deep: its handler and the callers'.
    Cpu[] again = {recursion(30), recursion(30)};
    recursionUnits(again[1]);
    for (Cpu cpu : again) {
      assertThat(cpu.run(5000)).isEqualTo(StopReason.STEP_LIMIT);
      cpu.x[A4] = 0x7100_0000L; // F's ld t0, 0(a4) now reads an unmapped page
      assertThat(cpu.run(100_000)).isEqualTo(StopReason.FAULT);
      assertThat(cpu.fault().pc()).isEqualTo(F + 16);
    }
    assertSameState(again[1], again[0]);
  }

  /**
   * A loop calling F, whose unit is not the caller's: A (a0 += 1; call F), C (a5 += 1; loop to A
   * while a0 != a2); F (a1 += 1; when a1 == a3 store the word a6 at a7; return).
   */
  private static Cpu rewriting(long storeAt) {
    Memory mem = new Memory();
    mem.map(CODE, Memory.PAGE_SIZE, Memory.PROT_READ | Memory.PROT_WRITE | Memory.PROT_EXEC);
    long c = CODE + 8;
    UnitChainTest.put(
        mem,
        CODE,
        addi(A0, A0, 1),
        UnitChainTest.jal(RA, F - (CODE + 4)),
        addi(A5, A5, 1),
        UnitChainTest.branch(1, A0, A2, CODE - (c + 4)),
        UnitChainTest.jal(0, 0));
    UnitChainTest.put(
        mem,
        F,
        addi(A1, A1, 1),
        UnitChainTest.branch(1, A1, A3, 8),
        store(2, A6, A7, 0),
        jalr(0, RA));
    Cpu cpu = new Cpu(mem, x -> {});
    cpu.pc = CODE;
    cpu.x[A2] = 1_000_000;
    cpu.x[A3] = 50;
    cpu.x[A6] = addi(A5, A5, 100);
    cpu.x[A7] = storeAt;
    return cpu;
  }

  @Test
  void aCalleeThatRewritesItsCallersCodeReturnsIntoTheNewCode() {
    // At its 50th run F replaces the caller's continuation (a5 += 1) by a5 += 100: the caller's
    // unit is out of date when the call comes back, so the new instruction must run.
    Cpu interpreted = rewriting(CODE + 8);
    Cpu translated = rewriting(CODE + 8);
    assertThat(interpreted.run(4)).isEqualTo(StopReason.STEP_LIMIT);
    assertThat(translated.run(4)).isEqualTo(StopReason.STEP_LIMIT);
    units(translated, new long[] {CODE, CODE + 8}, new long[] {F, F + 8, F + 12});
    assertThat(interpreted.run(20_000)).isEqualTo(StopReason.STEP_LIMIT);
    assertThat(translated.run(20_000)).isEqualTo(StopReason.STEP_LIMIT);
    assertSameState(translated, interpreted);
    assertThat(translated.counters().nestedReturns()).isGreaterThan(40L);
    long rounds = translated.x[A0];
    assertThat(rounds).isGreaterThan(100L);
    // The last round's continuation may not have run when the budget ended.
    assertThat(translated.x[A5]).isAnyOf(49 + 100 * (rounds - 49), 49 + 100 * (rounds - 50));
  }

  @Test
  void aCallIntoCodeRewrittenSinceGoesToTheNewCode() {
    // F rewrites its own first instruction (a1 += 1 -> a5 += 100) at its 50th run: later calls
    // from the caller's unit must not enter F's out-of-date unit.
    Cpu interpreted = rewriting(F);
    Cpu translated = rewriting(F);
    for (Cpu cpu : new Cpu[] {interpreted, translated}) {
      cpu.x[A6] = addi(A5, A5, 100);
      assertThat(cpu.run(4)).isEqualTo(StopReason.STEP_LIMIT);
    }
    units(translated, new long[] {CODE, CODE + 8}, new long[] {F, F + 8, F + 12});
    assertThat(interpreted.run(20_000)).isEqualTo(StopReason.STEP_LIMIT);
    assertThat(translated.run(20_000)).isEqualTo(StopReason.STEP_LIMIT);
    assertSameState(translated, interpreted);
    assertThat(translated.x[A1]).isEqualTo(50L); // F stopped counting once rewritten
    assertThat(translated.x[A5]).isGreaterThan(100_000L);
  }

  @Test
  void anInterruptInsideANestedCallStopsBetweenInstructions() throws Exception {
    Cpu translated = rewriting(CODE + 8);
    translated.x[A2] = -1; // never leaves the loop
    translated.x[A3] = -1; // never stores
    assertThat(translated.run(4)).isEqualTo(StopReason.STEP_LIMIT);
    units(translated, new long[] {CODE, CODE + 8}, new long[] {F, F + 8, F + 12});
    Thread stopper = InterruptTest.interruptLater(translated, 100);
    assertThat(translated.run(Long.MAX_VALUE)).isEqualTo(StopReason.INTERRUPTED);
    stopper.join();
    assertThat(translated.counters().nestedReturns()).isGreaterThan(0L);
    // The interpreter, run for exactly as many instructions, is in the same state.
    Cpu interpreted = rewriting(CODE + 8);
    interpreted.x[A2] = -1;
    interpreted.x[A3] = -1;
    assertThat(interpreted.run(translated.instret())).isEqualTo(StopReason.STEP_LIMIT);
    assertSameState(translated, interpreted);
  }
}
