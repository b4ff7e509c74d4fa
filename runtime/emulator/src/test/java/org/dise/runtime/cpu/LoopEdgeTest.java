package org.dise.runtime.cpu;

import static com.google.common.truth.Truth.assertThat;
import static org.dise.runtime.cpu.UnitChainTest.A0;
import static org.dise.runtime.cpu.UnitChainTest.A1;
import static org.dise.runtime.cpu.UnitChainTest.A2;
import static org.dise.runtime.cpu.UnitChainTest.A3;
import static org.dise.runtime.cpu.UnitChainTest.A4;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.dise.runtime.mem.Memory;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Loops in translated units, in every shape the emitters give them ({@code acf.directEdges} and
 * {@code acf.loopRegs}, spec/emulator.md): self-loops, nested loops and a forward branch inside a
 * loop leave after exactly the interpreter's number of passes, a step budget stops on the same
 * instruction wherever it ends, a loop that rewrites its own code runs the new code from the next
 * pass, and an interrupt stops a loop that never ends.
 */
class LoopEdgeTest {
  private static final long A = 0x10000;

  // Register numbers beyond UnitChainTest's (the RISC-V ABI names).
  private static final int T0 = 5;
  private static final int A5 = 15;

  /** An I-type ALU instruction of funct3 {@code f3} (0 addi, 7 andi). */
  private static int itype(int f3, int rd, int rs1, int imm) {
    return (imm << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | 0x13;
  }

  private static int addi(int rd, int rs1, int imm) {
    return itype(0, rd, rs1, imm);
  }

  private static int add(int rd, int rs1, int rs2) {
    return (rs2 << 20) | (rs1 << 15) | (rd << 7) | 0x33;
  }

  /** sw rs2, 0(rs1). */
  private static int sw(int rs2, int rs1) {
    return (rs2 << 20) | (rs1 << 15) | (2 << 12) | 0x23;
  }

  private static int beq(int rs1, int rs2, long off) {
    return UnitChainTest.branch(0, rs1, rs2, off);
  }

  private static int bne(int rs1, int rs2, long off) {
    return UnitChainTest.branch(1, rs1, rs2, off);
  }

  /**
   * The shapes a loop is emitted in: {directEdges, loopRegs, loopScope (0 self, 1 all)}; a shape of
   * two leaves the scope at self.
   */
  private static final int[][] SHAPES = {{0, 0}, {1, 0}, {0, 4}, {1, 4}, {1, 4, 1}};

  /** Runs {@code body} with units emitted in {@code shape}, then puts the defaults back. */
  private static void inShape(int[] shape, Runnable body) {
    boolean edges = BytecodeTranslator.directEdges;
    int loopRegs = UnitRegisters.loopRegs;
    boolean all = UnitRegisters.loopsAll;
    BytecodeTranslator.directEdges = shape[0] == 1;
    UnitRegisters.loopRegs = shape[1];
    UnitRegisters.loopsAll = shape.length > 2 && shape[2] == 1;
    try {
      body.run();
    } finally {
      BytecodeTranslator.directEdges = edges;
      UnitRegisters.loopRegs = loopRegs;
      UnitRegisters.loopsAll = all;
    }
  }

  /**
   * Nested loops: a2 outer passes (from the test), each setting a1 = a4 and running a self-loop of
   * a0 += 3 a1 times, then counting in a3 the outer passes with a2 odd (a forward branch), then the
   * outer back edge; after the loops a jal to itself spins.
   */
  private static Cpu nested() {
    Memory mem = new Memory();
    mem.map(A, Memory.PAGE_SIZE, Memory.PROT_READ | Memory.PROT_EXEC);
    UnitChainTest.put(
        mem,
        A,
        addi(A0, 0, 0), // A+0
        addi(A3, 0, 0), // A+4
        addi(A1, A4, 0), // A+8 outer:
        addi(A0, A0, 3), // A+12 inner:
        addi(A1, A1, -1), // A+16
        bne(A1, 0, -8), // A+20: to inner
        itype(7, T0, A2, 1), // A+24
        beq(T0, 0, 8), // A+28: to skip
        addi(A3, A3, 1), // A+32
        addi(A2, A2, -1), // A+36 skip:
        bne(A2, 0, -32), // A+40: to outer
        UnitChainTest.jal(0, 0)); // A+44: spin
    return new Cpu(mem, c -> {});
  }

  private static final long[] NESTED_BLOCKS = {A, A + 8, A + 12, A + 24, A + 32, A + 36, A + 44};

  /**
   * A self-loop whose accumulator a0 its body names twice and its bound a1 once, fewer times than
   * four other registers: a2 += 1, a3 += 1, a4 = a2 + a3, a5 = 4 * a4, a0 += a5 until a2 == a1.
   */
  private static Cpu accumulating() {
    Memory mem = new Memory();
    mem.map(A, Memory.PAGE_SIZE, Memory.PROT_READ | Memory.PROT_EXEC);
    UnitChainTest.put(
        mem,
        A,
        addi(A2, A2, 1),
        addi(A3, A3, 1),
        add(A4, A2, A3),
        add(A5, A4, A4),
        add(A5, A5, A5),
        add(A0, A0, A5),
        bne(A2, A1, -24),
        UnitChainTest.jal(0, 0));
    return new Cpu(mem, c -> {});
  }

  /**
   * Runs {@link #accumulating}'s loop twice (which decodes it) and goes back to its start with a2 =
   * 2, to run until a2 reaches {@code bound}.
   */
  private static void warmAccumulating(Cpu cpu, long bound) {
    cpu.pc = A;
    cpu.x[A1] = 2;
    assertThat(cpu.run(14)).isEqualTo(StopReason.STEP_LIMIT);
    cpu.pc = A; // from the spin back into the loop
    cpu.x[A1] = bound;
  }

  /** {@link #accumulating}'s loop, decoded: the one block of a unit translated from it. */
  private static List<Block> accumulatingLoop() {
    Cpu cpu = accumulating();
    warmAccumulating(cpu, 2);
    return List.of(cpu.blockAt(A));
  }

  /** Puts the nested loops' counts in place and starts them: a2 outer and a4 inner passes. */
  private static void startNested(Cpu cpu, long outer, long inner) {
    Arrays.fill(cpu.x, 0L);
    cpu.pc = A;
    cpu.x[A2] = outer;
    cpu.x[A4] = inner;
  }

  /**
   * Two copies of the nested loops after a short run that decodes every block (2 outer passes of 2
   * inner), restarted with 9 outer passes of 6; the second's blocks form one unit.
   */
  private static Cpu[] nestedPair() {
    Cpu[] cpus = {nested(), nested()};
    for (Cpu cpu : cpus) {
      startNested(cpu, 2, 2);
      assertThat(cpu.run(40)).isEqualTo(StopReason.STEP_LIMIT);
      assertThat(cpu.pc).isEqualTo(A + 44);
      startNested(cpu, 9, 6);
    }
    oneUnit(cpus[1], NESTED_BLOCKS);
    return cpus;
  }

  /** Translates the blocks at {@code starts} as one unit of {@code cpu}. */
  private static void oneUnit(Cpu cpu, long... starts) {
    List<Block> blocks = new ArrayList<>();
    for (long s : starts) {
      blocks.add(cpu.blockAt(s));
    }
    BlockCompiler compiler = new BlockCompiler(new PrintStream(new ByteArrayOutputStream()));
    BlockCompiler.install(compiler.compile(blocks), cpu);
    for (Block b : blocks) {
      assertThat(b.code).isNotNull();
    }
  }

  private static void assertSameState(Cpu translated, Cpu interpreted) {
    assertThat(translated.instret()).isEqualTo(interpreted.instret());
    assertThat(translated.pc).isEqualTo(interpreted.pc);
    // x[32] absorbs writes to x0 (the interpreter's jal x0 writes it; translated code does not).
    assertThat(Arrays.copyOf(translated.x, 32)).isEqualTo(Arrays.copyOf(interpreted.x, 32));
  }

  /** Nested loops: 9 x 6 x (a0 += 3), and a3 counts a2 = 9, 7, 5, 3, 1. */
  private static void assertNestedDone(Cpu cpu) {
    assertThat(cpu.pc).isEqualTo(A + 44);
    assertThat(cpu.x[A0]).isEqualTo(9 * 6 * 3);
    assertThat(cpu.x[A3]).isEqualTo(5);
    assertThat(cpu.x[A2]).isEqualTo(0);
  }

  @Test
  void nestedLoopsLeaveAfterTheInterpretersPassesInEveryShape() {
    for (int[] shape : SHAPES) {
      inShape(
          shape,
          () -> {
            Cpu[] cpus = nestedPair();
            for (Cpu cpu : cpus) {
              assertThat(cpu.run(1000)).isEqualTo(StopReason.STEP_LIMIT);
              assertNestedDone(cpu);
            }
            assertSameState(cpus[1], cpus[0]);
            assertThat(cpus[1].counters().translatedInstructions()).isGreaterThan(900L);
          });
    }
  }

  @Test
  void aStepBudgetStopsALoopOnTheInterpretersInstructionInEveryShape() {
    // Budgets of every size, run again and again: the stops fall on every instruction of the
    // loops, at self-loop, backward and forward edges alike.
    for (int[] shape : SHAPES) {
      inShape(
          shape,
          () -> {
            for (long budget : new long[] {1, 2, 3, 4, 5, 7, 10, 13, 19, 20, 21, 64}) {
              Cpu[] cpus = nestedPair();
              Cpu interpreted = cpus[0];
              Cpu translated = cpus[1];
              while (interpreted.pc != A + 44) {
                assertThat(interpreted.run(budget)).isEqualTo(StopReason.STEP_LIMIT);
                assertThat(translated.run(budget)).isEqualTo(StopReason.STEP_LIMIT);
                assertSameState(translated, interpreted);
              }
              assertNestedDone(translated);
              if (budget >= 20) { // else no block fits: the dispatcher interprets them
                assertThat(translated.counters().translatedInstructions()).isGreaterThan(0L);
              }
            }
          });
    }
  }

  @Test
  void aSelfLoopWithMoreRegistersThanAreHeldCountsExactly() {
    for (int[] shape : SHAPES) {
      inShape(
          shape,
          () -> {
            Cpu[] cpus = {accumulating(), accumulating()};
            for (Cpu cpu : cpus) {
              warmAccumulating(cpu, 1000);
            }
            oneUnit(cpus[1], A);
            for (long budget : new long[] {1, 6, 7, 8, 700, 6000, 7000}) {
              assertThat(cpus[0].run(budget)).isEqualTo(StopReason.STEP_LIMIT);
              assertThat(cpus[1].run(budget)).isEqualTo(StopReason.STEP_LIMIT);
              assertSameState(cpus[1], cpus[0]);
            }
            assertThat(cpus[1].pc).isEqualTo(A + 28); // 1000 passes, then the spin
            assertThat(cpus[1].x[A0]).isEqualTo(4 * 1000L * 1001);
          });
    }
  }

  /** The calls of {@code sun.misc.Unsafe}'s getLong and putLong in a unit's class. */
  private static int unsafeAccesses(byte[] unit) {
    int[] n = new int[1];
    UnitChainTest.visitMethods(
        unit,
        name ->
            new MethodVisitor(Opcodes.ASM9) {
              @Override
              public void visitMethodInsn(
                  int op, String owner, String method, String d, boolean itf) {
                if (owner.equals("sun/misc/Unsafe") && method.matches("(get|put)Long")) {
                  n[0]++;
                }
              }
            });
    return n[0];
  }

  /**
   * The count is an int countdown of the budget: the long budget is read once, at entry, and no
   * block compares a long with it (C1 takes an int's constants as immediates); a budget beyond an
   * int's range is clamped, so such a unit stops after 2^31 - 1 instructions with a budget exit.
   */
  @Test
  void theInstructionCountIsAnIntCountdown() throws Exception {
    byte[] unit = BytecodeTranslator.classBytes(accumulatingLoop(), false);
    int[] budgetReads = new int[1];
    int[] longCompares = new int[1];
    UnitChainTest.visitRun(
        unit,
        new MethodVisitor(Opcodes.ASM9) {
          @Override
          public void visitVarInsn(int op, int var) {
            if (op == Opcodes.LLOAD && var == BytecodeTranslator.R_BUDGET) {
              budgetReads[0]++;
            }
          }

          @Override
          public void visitInsn(int op) {
            if (op == Opcodes.LCMP) {
              longCompares[0]++;
            }
          }
        });
    assertThat(budgetReads[0]).isEqualTo(1);
    // The one long compare is the guest's bne (a long count added one for the budget's test).
    assertThat(longCompares[0]).isEqualTo(1);
    assertThat(CompiledBlocks.stepBudget(-5)).isEqualTo(0);
    assertThat(CompiledBlocks.stepBudget(0)).isEqualTo(0);
    assertThat(CompiledBlocks.stepBudget(14)).isEqualTo(14);
    assertThat(CompiledBlocks.stepBudget(Integer.MAX_VALUE)).isEqualTo(Integer.MAX_VALUE);
    assertThat(CompiledBlocks.stepBudget(1L << 40)).isEqualTo(Integer.MAX_VALUE);
    assertThat(CompiledBlocks.stepBudget(Long.MAX_VALUE)).isEqualTo(Integer.MAX_VALUE);
  }

  /**
   * A loop's back edge tests a pending interrupt and not the unit's out-of-date flag: one host
   * thread runs the hart, so nothing marks a unit while its loop runs but the loop's own store into
   * code, which leaves the unit (the self-modifying loop test above runs the new code from the next
   * pass). The flag is tested only after calls that may mark the unit.
   */
  @Test
  void aLoopsBackEdgeTestsInterruptsOnly() throws Exception {
    byte[] unit = BytecodeTranslator.classBytes(accumulatingLoop(), false);
    int[] staleReads = new int[1];
    int[] interruptTests = new int[1];
    UnitChainTest.visitRun(
        unit,
        new MethodVisitor(Opcodes.ASM9) {
          @Override
          public void visitFieldInsn(int op, String owner, String name, String desc) {
            if (op == Opcodes.GETFIELD && name.equals("stale")) {
              staleReads[0]++;
            }
          }

          @Override
          public void visitMethodInsn(int op, String owner, String name, String d, boolean itf) {
            if (name.equals("interruptPending")) {
              interruptTests[0]++;
            }
          }
        });
    assertThat(staleReads[0]).isEqualTo(0);
    assertThat(interruptTests[0]).isAtLeast(1);
  }

  @Test
  void withLoopRegistersEveryRegisterOfASmallLoopIsHeld() throws Exception {
    assumeTrue(
        UnitRegisters.DEFAULT_IN_MEMORY && UnitRegisters.U != null && UnitRegisters.HELD == 4);
    List<Block> loop = accumulatingLoop();
    int[] accesses = new int[2];
    for (int loopRegs : new int[] {0, 4}) {
      inShape(
          new int[] {1, loopRegs},
          () -> {
            try {
              accesses[loopRegs / 4] = unsafeAccesses(BytecodeTranslator.classBytes(loop, false));
            } catch (BytecodeTranslator.TooLarge e) {
              throw new AssertionError(e);
            }
          });
    }
    // Without: a0 and a1, named less often than a2..a5, are read (and a0 written) in x[] on every
    // pass. With: the six registers of the loop all stay in locals.
    assertThat(accesses[0]).isEqualTo(3);
    assertThat(accesses[1]).isEqualTo(0);
  }

  /**
   * Which loops the loop registers favour: in the nested loops' unit (six registers, four held by
   * count: a1, a2, a0, a3), the scope {@code self} favours the inner self-loop's a0 and a1, which
   * the count holds already, so the unit is the one without loop registers; {@code all} takes every
   * block of the outer loop, and t0 and a4 leave x[] too.
   */
  @Test
  void theLoopScopeChoosesWhichLoopsHoldTheirRegisters() {
    assumeTrue(
        UnitRegisters.DEFAULT_IN_MEMORY && UnitRegisters.U != null && UnitRegisters.HELD == 4);
    Cpu cpu = nested();
    startNested(cpu, 2, 2);
    assertThat(cpu.run(40)).isEqualTo(StopReason.STEP_LIMIT);
    List<Block> unit = new ArrayList<>();
    for (long start : NESTED_BLOCKS) {
      unit.add(cpu.blockAt(start));
    }
    int[][] shapes = {{1, 0}, {1, 4, 0}, {1, 4, 1}};
    int[] accesses = new int[shapes.length];
    for (int i = 0; i < shapes.length; i++) {
      int k = i;
      inShape(
          shapes[i],
          () -> {
            try {
              accesses[k] = unsafeAccesses(BytecodeTranslator.classBytes(unit, false));
            } catch (BytecodeTranslator.TooLarge e) {
              throw new AssertionError(e);
            }
          });
    }
    assertThat(accesses[0]).isGreaterThan(0);
    assertThat(accesses[1]).isEqualTo(accesses[0]);
    assertThat(accesses[2]).isEqualTo(0);
  }

  /**
   * loop: a0 += 1; *a4 = a3 (a store into the loop's own first word); a1 -= 1; loop while a1 != 0;
   * then a spin. The page is writable, so the store drops the loop's decoded code each pass.
   */
  private static Cpu rewriting() {
    Memory mem = new Memory();
    mem.map(A, Memory.PAGE_SIZE, Memory.PROT_READ | Memory.PROT_WRITE | Memory.PROT_EXEC);
    UnitChainTest.put(
        mem,
        A,
        addi(A0, A0, 1),
        sw(A3, A4),
        addi(A1, A1, -1),
        bne(A1, 0, -12),
        UnitChainTest.jal(0, 0));
    Cpu cpu = new Cpu(mem, c -> {});
    cpu.pc = A;
    cpu.x[A1] = 2;
    cpu.x[A3] = addi(A0, A0, 1); // the warm-up stores the word that is there
    cpu.x[A4] = A;
    return cpu;
  }

  @Test
  void aSelfLoopThatRewritesItsOwnCodeRunsTheNewCodeFromTheNextPassInEveryShape() {
    for (int[] shape : SHAPES) {
      inShape(
          shape,
          () -> {
            Cpu[] cpus = {rewriting(), rewriting()};
            for (Cpu cpu : cpus) {
              // One pass: its store drops the loop's code, which is decoded again below.
              assertThat(cpu.run(4)).isEqualTo(StopReason.STEP_LIMIT);
              cpu.x[A1] = 10;
              cpu.x[A3] = addi(A0, A0, 100);
            }
            oneUnit(cpus[1], A);
            for (Cpu cpu : cpus) {
              assertThat(cpu.run(200)).isEqualTo(StopReason.STEP_LIMIT);
            }
            assertSameState(cpus[1], cpus[0]);
            // The warm-up and the pass of the store ran a0 += 1, the next nine a0 += 100.
            assertThat(cpus[1].x[A0]).isEqualTo(1 + 1 + 9 * 100);
          });
    }
  }

  @Test
  void anInterruptStopsATranslatedLoopThatNeverEndsInEveryShape() throws Exception {
    for (int[] shape : SHAPES) {
      Cpu cpu = accumulating();
      inShape(
          shape,
          () -> {
            warmAccumulating(cpu, -1); // a2 counts up from 2 and never meets it
            oneUnit(cpu, A);
          });
      Thread stopper = InterruptTest.interruptLater(cpu, 50);
      // A budget of seconds, not forever: a loop that misses the interrupt fails, not hangs.
      assertThat(cpu.run(5_000_000_000L)).isEqualTo(StopReason.INTERRUPTED);
      stopper.join();
      assertThat(cpu.counters().translatedInstructions()).isGreaterThan(0L);
      // Stopped between passes: the registers agree with the count.
      assertThat(cpu.pc).isEqualTo(A);
      assertThat(7 * cpu.x[A2]).isEqualTo(cpu.instret());
    }
  }
}
