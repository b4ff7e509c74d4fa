package org.dise.runtime.cpu;

import static com.google.common.truth.Truth.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.function.Function;
import org.dise.runtime.mem.Memory;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Chaining between translated units (a unit's exit going straight into the next unit, without the
 * dispatcher's lookup) and regions (a hot block translated with the warm code around it): the guest
 * sees exactly what the interpreter gives, when code changes, is unmapped, a step budget ends
 * inside a chain, or an interrupt arrives.
 */
class UnitChainTest {
  private static final long A = 0x10000;
  private static final long B = 0x12000;

  /**
   * Another page for B, whose blocks take other slots of the dispatcher's link table than A's
   * (0x12000 and 0x10000 share one: {@link DecodeCache#LINK_SLOTS}), so chains go through it; not
   * the page after A's, since a write to a page drops the blocks of the page before it too.
   */
  private static final long B_LINKED = 0x13000;

  // Register numbers (the RISC-V ABI names; UnitJoinTest's and LoopEdgeTest's too).
  private static final int RA = 1;
  static final int A0 = 10;
  static final int A1 = 11;
  static final int A2 = 12;
  static final int A3 = 13;
  static final int A4 = 14;

  /** addi rd, rs1, imm (UnitJoinTest's too). */
  static int addi(int rd, int rs1, int imm) {
    return (imm << 20) | (rs1 << 15) | (rd << 7) | 0x13;
  }

  /** jal rd, off (TranslationTest's too). */
  static int jal(int rd, long off) {
    int o = (int) off;
    return (((o >>> 20) & 1) << 31)
        | (((o >>> 1) & 0x3ff) << 21)
        | (((o >>> 11) & 1) << 20)
        | (((o >>> 12) & 0xff) << 12)
        | (rd << 7)
        | 0x6f;
  }

  private static int jalr(int rd, int rs1) {
    return (rs1 << 15) | (rd << 7) | 0x67;
  }

  /** bne rs1, rs2, off. */
  private static int bne(int rs1, int rs2, long off) {
    return branch(1, rs1, rs2, off);
  }

  /** A conditional branch of funct3 {@code f3} (0 beq, 1 bne) (UnitCallTest's too). */
  static int branch(int f3, int rs1, int rs2, long off) {
    int o = (int) off;
    return (((o >>> 12) & 1) << 31)
        | (((o >>> 5) & 0x3f) << 25)
        | (rs2 << 20)
        | (rs1 << 15)
        | (f3 << 12)
        | (((o >>> 1) & 0xf) << 8)
        | (((o >>> 11) & 1) << 7)
        | 0x63;
  }

  /** sw rs2, 0(rs1) (UnitJoinTest's too). */
  static int sw(int rs2, int rs1) {
    return (rs2 << 20) | (rs1 << 15) | (2 << 12) | 0x23;
  }

  /**
   * Reads a unit's class file, giving each method's code to the visitor {@code visitorFor} returns
   * for its name (null: the method is skipped); for tests that look at what a unit was made of.
   */
  static void visitMethods(byte[] classFile, Function<String, MethodVisitor> visitorFor) {
    new ClassReader(classFile)
        .accept(
            new ClassVisitor(Opcodes.ASM9) {
              @Override
              public MethodVisitor visitMethod(
                  int access, String name, String desc, String sig, String[] exceptions) {
                return visitorFor.apply(name);
              }
            },
            0);
  }

  /** Visits the dispatch method ({@code run}) of a unit's class file with {@code v}. */
  static void visitRun(byte[] classFile, MethodVisitor v) {
    visitMethods(classFile, name -> name.equals("run") ? v : null);
  }

  /** Writes {@code code} at {@code addr} (UnitCallTest's too). */
  static void put(Memory mem, long addr, int... code) {
    byte[] b = new byte[code.length * 4];
    for (int i = 0; i < code.length; i++) {
      for (int k = 0; k < 4; k++) {
        b[4 * i + k] = (byte) (code[i] >>> (8 * k));
      }
    }
    mem.poke(addr, b, 0, b.length);
  }

  /**
   * A ring across two pages: A (a0 += 1, then to B) and B (a1 += 1, then back to A); B's page is
   * writable too, so the guest may rewrite it.
   */
  private static Cpu ring() {
    return ring(B);
  }

  /** The ring, with B at {@code b}. */
  private static Cpu ring(long b) {
    Memory mem = new Memory();
    mem.map(A, Memory.PAGE_SIZE, Memory.PROT_READ | Memory.PROT_EXEC);
    mem.map(b, Memory.PAGE_SIZE, Memory.PROT_READ | Memory.PROT_WRITE | Memory.PROT_EXEC);
    put(mem, A, addi(A0, A0, 1), jal(0, b - (A + 4)));
    put(mem, b, addi(A1, A1, 1), jal(0, A - (b + 4)));
    Cpu cpu = new Cpu(mem, c -> {});
    cpu.pc = A;
    return cpu;
  }

  /**
   * Translates each of the blocks at {@code starts} as a unit of its own (after the interpreter has
   * run them once), so that every transfer between them is a chain between units.
   */
  private static void unitEach(Cpu cpu, long steps, long... starts) {
    assertThat(cpu.run(steps)).isEqualTo(StopReason.STEP_LIMIT);
    BlockCompiler compiler = new BlockCompiler(new PrintStream(new ByteArrayOutputStream()));
    for (long s : starts) {
      Block b = cpu.blockAt(s);
      BlockCompiler.install(compiler.compile(List.of(b)), cpu);
      assertThat(b.code).isNotNull();
    }
  }

  /** The translated run's count, pc and registers are the interpreter's (UnitJoinTest's too). */
  static void assertSameState(Cpu chained, Cpu interpreted) {
    assertThat(chained.instret()).isEqualTo(interpreted.instret());
    assertThat(chained.pc).isEqualTo(interpreted.pc);
    // x[32] absorbs writes to x0 (the interpreter's jal x0 writes it; translated code does not).
    assertThat(java.util.Arrays.copyOf(chained.x, 32))
        .isEqualTo(java.util.Arrays.copyOf(interpreted.x, 32));
  }

  /**
   * The ring interpreted, and the ring whose blocks A and B are units of their own, both run until
   * {@code n} instructions after the units' set-up (4 instructions).
   */
  private static Cpu[] ringsRun(long n) {
    Cpu interpreted = ring();
    Cpu chained = ring();
    unitEach(chained, 4, A, B);
    assertThat(interpreted.run(4 + n)).isEqualTo(StopReason.STEP_LIMIT);
    assertThat(chained.run(n)).isEqualTo(StopReason.STEP_LIMIT);
    return new Cpu[] {interpreted, chained};
  }

  @Test
  void unitsChainAndCountExactly() {
    Cpu[] rings = ringsRun(1000);
    Cpu interpreted = rings[0];
    Cpu chained = rings[1];
    assertSameState(chained, interpreted);
    // Every transfer but the first went from one unit straight into the other.
    assertThat(chained.counters().translatedInstructions()).isEqualTo(1000L);
    assertThat(chained.counters().chainedEntries()).isEqualTo(chained.counters().unitEntries() - 1);
    assertThat(chained.counters().chainedEntries()).isGreaterThan(400L);
  }

  @Test
  void stepBudgetEndsInsideAChainExactly() {
    // --max-insns: a budget that ends mid-ring, at every offset, stops on the exact instruction.
    budgetsEndInsideChainsExactly(B);
  }

  @Test
  void chainsThroughTheLinkTableCountExactlyUnderEveryBudget() {
    // With A and B in slots of their own: the chains after the first find the next unit in the
    // link table, whose copy of the block's length decides whether it fits the budget left.
    budgetsEndInsideChainsExactly(B_LINKED);
  }

  /** The ring with B at {@code b}, run in rounds of several budgets, against the interpreter. */
  private static void budgetsEndInsideChainsExactly(long b) {
    for (long budget : new long[] {1, 2, 3, 5, 8, 99, 100, 101, 10_000}) {
      Cpu interpreted = ring(b);
      Cpu chained = ring(b);
      unitEach(chained, 4, A, b);
      assertThat(interpreted.run(4)).isEqualTo(StopReason.STEP_LIMIT);
      for (int round = 0; round < 3; round++) {
        assertThat(interpreted.run(budget)).isEqualTo(StopReason.STEP_LIMIT);
        assertThat(chained.run(budget)).isEqualTo(StopReason.STEP_LIMIT);
        assertSameState(chained, interpreted);
      }
      if (budget > 8) {
        assertThat(chained.counters().chainedEntries()).isGreaterThan(budget / 2);
      }
    }
  }

  /**
   * Two identical rings (the interpreted and the translated run): A adds 1 to a0 and, when a0
   * reaches {@code at}, stores the word {@code value} at {@code where}; then to B through {@code
   * toB}; B adds 1 to a1 and goes back to A.
   */
  private static Cpu[] storingRings(long toB, long at, long value, long where) {
    return storingRings(B, toB, at, value, where);
  }

  /** The storing rings, with B at {@code b}. */
  private static Cpu[] storingRings(long b, long toB, long at, long value, long where) {
    Cpu[] cpus = new Cpu[2];
    for (int k = 0; k < 2; k++) {
      Cpu cpu = ring(b);
      put(cpu.memory(), A, addi(A0, A0, 1), bne(A0, A2, toB - (A + 4)), sw(A3, A4));
      put(cpu.memory(), toB, jal(0, b - toB));
      cpu.x[A2] = at;
      cpu.x[A3] = value;
      cpu.x[A4] = where;
      cpus[k] = cpu;
    }
    return cpus;
  }

  @Test
  void guestStoreIntoAChainedUnitsCodeTakesEffectAtOnce() {
    // A: a0 += 1; if (a0 == 20) *B = "addi a1, a1, 100"; then to B. B: a1 += 1, back to A.
    // Each block is a unit of its own, so A's unit reaches B's through a chain when B changes.
    storeIntoChainedCodeTakesEffectAtOnce(B);
  }

  @Test
  void aLinkedUnitWhoseCodeIsWrittenIsNotEnteredAgain() {
    // With B in a link slot of its own: A's unit has chained into B's through the link table for
    // 19 rounds when the guest rewrites B.
    storeIntoChainedCodeTakesEffectAtOnce(B_LINKED);
  }

  /** The storing rings with B at {@code b}, rewritten in round 20, against the interpreter. */
  private static void storeIntoChainedCodeTakesEffectAtOnce(long b) {
    long toB = A + 12;
    Cpu[] cpus = storingRings(b, toB, 20, addi(A1, A1, 100), b);
    Cpu interpreted = cpus[0];
    Cpu chained = cpus[1];
    // One round through A, toB and B (the store's block is left to the interpreter: it runs once).
    unitEach(chained, 5, A, toB, b);
    assertThat(interpreted.run(5 + 200)).isEqualTo(StopReason.STEP_LIMIT);
    assertThat(chained.run(200)).isEqualTo(StopReason.STEP_LIMIT);
    assertSameState(chained, interpreted);
    assertThat(chained.counters().chainedEntries()).isGreaterThan(20L);
    // The rewritten B ran: after 19 rounds of a1 += 1, each round adds 100.
    assertThat(chained.x[A0]).isGreaterThan(21L);
    assertThat(chained.x[A1]).isEqualTo(19 + 100 * (chained.x[A0] - 19));
  }

  @Test
  void anUnmappedLinkedTargetFaultsThereWithTheExactCount() {
    // unmappingAChainedTargetFaultsThereWithTheExactCount with B in a link slot of its own, and
    // stopped at A, so that the next run enters A's unit and its exit to B finds B's link.
    Cpu interpreted = ring(B_LINKED);
    Cpu chained = ring(B_LINKED);
    unitEach(chained, 4, A, B_LINKED);
    assertThat(interpreted.run(4 + 100)).isEqualTo(StopReason.STEP_LIMIT);
    assertThat(chained.run(100)).isEqualTo(StopReason.STEP_LIMIT);
    assertThat(chained.pc).isEqualTo(A);
    for (Cpu cpu : new Cpu[] {interpreted, chained}) {
      cpu.memory().unmap(B_LINKED, Memory.PAGE_SIZE);
      assertThat(cpu.run(1000)).isEqualTo(StopReason.FAULT);
      assertThat(cpu.fault().pc()).isEqualTo(B_LINKED);
    }
    assertSameState(chained, interpreted);
  }

  @Test
  void unmappingAChainedTargetFaultsThereWithTheExactCount() {
    Cpu[] rings = ringsRun(101);
    Cpu interpreted = rings[0];
    Cpu chained = rings[1];
    assertThat(chained.counters().chainedEntries()).isGreaterThan(0L);
    // munmap of B's page: A's unit, which chained into B's, must now fault on the fetch at B.
    for (Cpu cpu : new Cpu[] {interpreted, chained}) {
      cpu.memory().unmap(B, Memory.PAGE_SIZE);
      assertThat(cpu.run(1000)).isEqualTo(StopReason.FAULT);
      assertThat(cpu.fault().pc()).isEqualTo(B);
    }
    assertSameState(chained, interpreted);
  }

  @Test
  void mprotectOfAChainedTargetFaultsThere() {
    Cpu chained = ring();
    unitEach(chained, 4, A, B);
    assertThat(chained.run(100)).isEqualTo(StopReason.STEP_LIMIT);
    chained.memory().protect(B, Memory.PAGE_SIZE, Memory.PROT_READ);
    assertThat(chained.run(1000)).isEqualTo(StopReason.FAULT);
    assertThat(chained.fault().pc()).isEqualTo(B);
    // 26 rounds, then A (2 instructions) and the fetch at B.
    assertThat(chained.instret()).isEqualTo(4 + 100 + 2);
  }

  @Test
  void interruptStopsAChainThatNeverEnds() throws Exception {
    Cpu cpu = ring();
    unitEach(cpu, 4, A, B);
    Thread stopper = InterruptTest.interruptLater(cpu, 100);
    assertThat(cpu.run(Long.MAX_VALUE)).isEqualTo(StopReason.INTERRUPTED);
    stopper.join();
    assertThat(cpu.counters().chainedEntries()).isGreaterThan(0L);
    // Stopped between instructions: the registers agree with the count.
    assertThat(2 * (cpu.x[A0] + cpu.x[A1])).isEqualTo(cpu.instret());
  }

  /**
   * A loop calling a function: A (a0 += 1; call F), F (a1 += 1; return), C (loop to A while a0 !=
   * a2), and D after the loop, which the warm-up never reaches.
   */
  private static Cpu loopWithCall() {
    Memory mem = new Memory();
    mem.map(A, Memory.PAGE_SIZE, Memory.PROT_READ | Memory.PROT_EXEC);
    long f = A + 0x100;
    long c = A + 8;
    long d = A + 12;
    put(mem, A, addi(A0, A0, 1), jal(RA, f - (A + 4)), bne(A0, A2, A - c), jal(0, 0));
    put(mem, f, addi(A1, A1, 1), jalr(0, RA));
    assertThat(d).isEqualTo(A + 12);
    Cpu cpu = new Cpu(mem, x -> {});
    cpu.pc = A;
    cpu.x[A2] = 100_000;
    return cpu;
  }

  @Test
  void regionFollowsCallsReturnsAndLoopsButNotColdCode() {
    Cpu cpu = loopWithCall();
    assertThat(cpu.run(3 * 10)).isEqualTo(StopReason.STEP_LIMIT); // ten rounds, interpreted
    Block a = cpu.blockAt(A);
    // The interpreter counts runs only while a compiler is installed; as it would have.
    for (long s : new long[] {A, A + 0x100, A + 8}) {
      cpu.blockAt(s).count = 10;
    }
    List<List<Block>> regions = Region.form(cpu, List.of(a), 5, 48);
    assertThat(regions).hasSize(1);
    assertThat(regions.get(0).stream().map(b -> b.start).toList())
        .containsExactly(A, A + 0x100, A + 8)
        .inOrder();
    // Too few runs: the seed alone.
    assertThat(Region.form(cpu, List.of(a), 11, 48).get(0)).containsExactly(a);
  }

  @Test
  void aHotLoopWithACallBecomesOneUnitEnteredOnce() {
    Cpu cpu = loopWithCall();
    cpu.setBlockCompiler(new BlockCompiler(new PrintStream(new ByteArrayOutputStream())), 50);
    Cpu interpreted = loopWithCall();
    assertThat(interpreted.run(3 * 100_000)).isEqualTo(StopReason.STEP_LIMIT);
    assertThat(cpu.run(3 * 100_000)).isEqualTo(StopReason.STEP_LIMIT);
    assertSameState(cpu, interpreted);
    Block a = cpu.blockAt(A);
    assertThat(a.code).isNotNull();
    assertThat(cpu.blockAt(A + 0x100).code).isSameInstanceAs(a.code);
    assertThat(cpu.blockAt(A + 8).code).isSameInstanceAs(a.code);
    // The loop, the call and the return stay inside the unit.
    assertThat(cpu.counters().unitEntries()).isLessThan(5L);
    assertThat(cpu.counters().translatedInstructions()).isGreaterThan(290_000L);
  }

  @Test
  void aUnitWhosePageWasWrittenIsTranslatedAgainNotRunABlockAtATime() {
    // The ring of guestStoreIntoAChainedUnitsCodeTakesEffectAtOnce, left to the block compiler:
    // A, toB and B become one unit. At a0 == 1000 the guest stores a data word into B's page
    // (not into code), which drops B's page's blocks and makes the unit out of date; A and toB
    // (on A's page) are still current and must be translated again with the new B, not left
    // running the out-of-date unit one block per entry.
    long toB = A + 12;
    Cpu[] cpus = storingRings(toB, 1000, 12345, B + 0x800);
    Cpu interpreted = cpus[0];
    Cpu cpu = cpus[1];
    cpu.setBlockCompiler(new BlockCompiler(new PrintStream(new ByteArrayOutputStream())), 50);
    assertThat(cpu.run(4 * 900)).isEqualTo(StopReason.STEP_LIMIT);
    CompiledBlocks first = cpu.blockAt(A).code;
    assertThat(first).isNotNull();
    assertThat(cpu.blockAt(B).code).isSameInstanceAs(first);
    assertThat(interpreted.run(4 * 900 + 300_000)).isEqualTo(StopReason.STEP_LIMIT);
    assertThat(cpu.run(300_000)).isEqualTo(StopReason.STEP_LIMIT);
    assertSameState(cpu, interpreted);
    assertThat(cpu.memory().lw(B + 0x800)).isEqualTo(12345);
    // A, toB and B share a new unit again, and the ring's remaining rounds stay inside it.
    CompiledBlocks again = cpu.blockAt(A).code;
    assertThat(again).isNotNull();
    assertThat(again).isNotSameInstanceAs(first);
    assertThat(cpu.blockAt(toB).code).isSameInstanceAs(again);
    assertThat(cpu.blockAt(B).code).isSameInstanceAs(again);
    assertThat(cpu.counters().unitEntries()).isLessThan(1000L);
  }
}
