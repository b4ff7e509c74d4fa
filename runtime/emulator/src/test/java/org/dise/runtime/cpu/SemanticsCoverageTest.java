package org.dise.runtime.cpu;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.Format;
import org.dise.runtime.isa.Op;
import org.dise.runtime.isa.Operand;
import org.dise.runtime.isa.SemanticsTable;
import org.dise.runtime.mem.Memory;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.Type;

/**
 * Every instruction of the ISA table has one description ({@link SemanticsTable} and {@link
 * Semantics}), and both execution paths, the interpreter and the bytecode translator, run it with
 * the same result: each base instruction is executed on random operands and random register
 * contents (special floating-point values, both rounding-mode kinds, misaligned atomics) by {@link
 * Cpu#executeOne} and by a translated unit, and the whole machine state after it (registers, fflags
 * and frm, memory, next pc, a fault or none) must be identical.
 */
class SemanticsCoverageTest {
  /** Instructions that only the interpreter runs: it owns the count and the kernel they need. */
  private static final List<Op> INTERPRETER_ONLY = List.of(Op.ECALL, Op.EBREAK, Op.FENCE_I);

  private static final List<Op> CSR_OPS =
      List.of(Op.CSRRW, Op.CSRRS, Op.CSRRC, Op.CSRRWI, Op.CSRRSI, Op.CSRRCI);

  private static final long CODE = 0x10000;
  private static final long DATA = 0x20000;

  @Test
  void everyInstructionHasARowAndItsMethodHasTheRowsShape() throws Exception {
    List<String> missing = new ArrayList<>();
    for (Op op : Op.values()) {
      SemanticsTable.Entry e = SemanticsTable.of(op); // throws for an instruction without a row
      assertThat(e.op()).isEqualTo(op.base());
      if (e.method() == null) {
        continue;
      }
      Method m =
          Arrays.stream(Semantics.class.getDeclaredMethods())
              .filter(x -> x.getName().equals(e.method()))
              .findFirst()
              .orElse(null);
      if (m == null) {
        missing.add(e.method());
        continue;
      }
      assertWithMessage("%s", m)
          .that(Modifier.isStatic(m.getModifiers()) && Modifier.isPublic(m.getModifiers()))
          .isTrue();
      assertWithMessage("descriptor of Semantics.%s", e.method())
          .that(Type.getMethodDescriptor(m))
          .isEqualTo(e.descriptor());
    }
    assertWithMessage("Semantics methods the table names").that(missing).isEmpty();
  }

  @Test
  void everySemanticsMethodIsAnInstructionsAndIsCopiedIntoTranslatedCode() {
    TreeSet<String> named = new TreeSet<>();
    for (SemanticsTable.Entry e : SemanticsTable.all()) {
      if (e.method() != null) {
        named.add(e.method());
      }
    }
    TreeSet<String> declared = new TreeSet<>();
    List<String> notCopied = new ArrayList<>();
    for (Method m : Semantics.class.getDeclaredMethods()) {
      if (Modifier.isPublic(m.getModifiers())) {
        declared.add(m.getName());
        if (!SemanticsInliner.copyable(m.getName())) {
          notCopied.add(m.getName());
        }
      }
    }
    assertThat(declared).isEqualTo(named);
    assertWithMessage("methods emitted as calls instead of copied").that(notCopied).isEmpty();
  }

  @Test
  void onlyTheDeclaredInstructionsStayWithTheInterpreter() {
    List<Op> refused = new ArrayList<>();
    for (SemanticsTable.Entry e : SemanticsTable.all()) {
      DecodedInsn d = insn(e.op(), new SplittableRandom(1));
      if (!BlockCompiler.translatable(new Block(new DecodedInsn[] {d}))) {
        refused.add(e.op());
      }
    }
    assertThat(refused).containsExactlyElementsIn(INTERPRETER_ONLY);
  }

  /**
   * The CSR instructions run translated on the floating-point CSRs (insn gives them fflags, frm or
   * fcsr, and the agreement test below runs them), but the counters, which need the exact count,
   * and CSRs that do not exist (the interpreter's illegal-instruction report) stay interpreted.
   */
  @Test
  void onlyTheFloatingPointCsrsAreTranslated() {
    SplittableRandom rnd = new SplittableRandom(2);
    for (Op op : CSR_OPS) {
      DecodedInsn d = insn(op, rnd);
      for (int number : new int[] {0x001, 0x002, 0x003, 0xc00, 0xc01, 0xc02, 0x300, 0x000}) {
        DecodedInsn c =
            new DecodedInsn(CODE, op, op.match(), d.rd, d.rs1, d.rs2, d.rs3, number, d.rm);
        assertWithMessage("%s on CSR 0x%s", op, Integer.toHexString(number))
            .that(BlockCompiler.translatable(new Block(new DecodedInsn[] {c})))
            .isEqualTo(number >= 1 && number <= 3);
      }
    }
  }

  @Test
  void interpreterAndTranslatorAgreeOnEveryInstruction() throws Exception {
    SplittableRandom rnd = new SplittableRandom(0x5eed);
    Cpu interpreter = machine();
    Cpu translator = machine();
    int cases = 0;
    for (SemanticsTable.Entry e : SemanticsTable.all()) {
      if (INTERPRETER_ONLY.contains(e.op())) {
        continue;
      }
      for (int shape = 0; shape < 8; shape++) {
        DecodedInsn d = insn(e.op(), rnd);
        Block block = new Block(new DecodedInsn[] {d});
        CompiledBlocks code = BytecodeTranslator.define(List.of(block), false, null);
        for (int state = 0; state < 16; state++) {
          long seed = rnd.nextLong();
          String interpreted = runInterpreted(interpreter, d, seed);
          String translated = runTranslated(translator, code, d, seed);
          assertWithMessage("%s (seed %s): translated vs interpreted", d, seed)
              .that(translated)
              .isEqualTo(interpreted);
          cases++;
        }
      }
    }
    assertThat(cases).isGreaterThan(15_000);
    assertThat(slowExits).isGreaterThan(0);
  }

  // ---------------------------------------------------------------- the two paths

  /** A machine with a code and a data page (a Cpu's decode cache is large: two per test). */
  private static Cpu machine() {
    Memory mem = new Memory();
    mem.map(CODE, Memory.PAGE_SIZE, Memory.PROT_READ | Memory.PROT_EXEC);
    mem.map(DATA, Memory.PAGE_SIZE, Memory.PROT_READ | Memory.PROT_WRITE);
    return new Cpu(mem, c -> {});
  }

  /** Random register contents, FP status and data for {@code seed}, the same on both sides. */
  private static void reset(Cpu cpu, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    Arrays.fill(cpu.x, 0);
    for (int i = 1; i < 32; i++) {
      cpu.x[i] = interestingLong(r);
    }
    for (int i = 0; i < 32; i++) {
      cpu.f[i] = interestingFloat(r);
    }
    // Pointer registers for loads, stores and atomics: inside the data page, sometimes
    // misaligned, sometimes just past it (a fault).
    for (int i = 8; i < 16; i++) {
      cpu.x[i] =
          DATA
              + 64
              + r.nextInt(Memory.PAGE_SIZE - 128)
              + (r.nextInt(8) == 0 ? Memory.PAGE_SIZE : 0);
      if (r.nextBoolean()) {
        cpu.x[i] &= ~7L;
      }
    }
    byte[] data = new byte[Memory.PAGE_SIZE];
    for (int i = 0; i < data.length; i++) {
      data[i] = (byte) r.nextInt();
    }
    cpu.memory().poke(DATA, data, 0, data.length);
    cpu.fpu.fflags = r.nextInt(32);
    cpu.fpu.frm = r.nextInt(10) == 0 ? 5 + r.nextInt(3) : r.nextInt(5);
    cpu.pc = CODE;
  }

  private static String runInterpreted(Cpu cpu, DecodedInsn d, long seed) {
    reset(cpu, seed);
    String outcome;
    try {
      outcome = "next " + Long.toHexString(cpu.executeOne(d));
    } catch (Cpu.NestedFault e) {
      outcome = "fault";
    }
    return outcome + state(cpu);
  }

  /**
   * The unit on the state of {@code seed}; where it leaves at a load or store its fast path cannot
   * do, the instruction interpreted from the untouched state, as the run loop does.
   */
  private static String runTranslated(Cpu cpu, CompiledBlocks code, DecodedInsn d, long seed) {
    reset(cpu, seed);
    String before = state(cpu);
    UnitContext unit = cpu.unitContext();
    String outcome;
    try {
      long next = code.run(0, unit, cpu.x, cpu.f, cpu.memory(), 1000);
      if (unit.slowExit) {
        unit.slowExit = false;
        assertWithMessage("%s: a slow exit names its own instruction", d)
            .that(next)
            .isEqualTo(d.pc | UnitContext.SLOW_EXIT_BIT);
        assertWithMessage("%s: a slow exit changes nothing", d).that(state(cpu)).isEqualTo(before);
        assertWithMessage("%s: a slow exit retires nothing", d).that(unit.unitSteps).isEqualTo(0);
        slowExits++;
        return runInterpreted(cpu, d, seed);
      }
      outcome = "next " + Long.toHexString(next);
    } catch (RuntimeException e) {
      outcome = "fault";
    }
    return outcome + state(cpu);
  }

  /** Translated runs that left at a slow load or store (some must: pages end, faults). */
  private static int slowExits;

  private static String state(Cpu cpu) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 32; i++) {
      sb.append(String.format("%nx%d=%x f%d=%x", i, cpu.x[i], i, cpu.f[i]));
    }
    sb.append(String.format("%nfflags=%x frm=%d", cpu.fpu.fflags, cpu.fpu.frm));
    long sum = 0;
    for (long a = DATA; a < DATA + Memory.PAGE_SIZE; a += 8) {
      sum = sum * 31 + cpu.memory().ld(a);
    }
    return sb.append(String.format("%nmemory=%x", sum)).toString();
  }

  // ---------------------------------------------------------------- random instructions

  /** A decoded instance of {@code op} with random operands of the right kinds. */
  private static DecodedInsn insn(Op op, SplittableRandom r) {
    List<Operand> ops = op.operands();
    int rd =
        ops.contains(Operand.FRD)
            ? r.nextInt(32)
            : r.nextInt(8) == 0 ? DecodedInsn.X0_SINK : 1 + r.nextInt(31);
    int rs1 = r.nextInt(32);
    int rs2 = r.nextInt(32);
    if (ops.contains(Operand.MEM) || ops.contains(Operand.AMO_ADDR)) {
      rs1 = 8 + r.nextInt(8); // a pointer register (see machine)
      if (ops.contains(Operand.RD) && r.nextBoolean()) {
        rd = rs1; // a load that overwrites its own base
      }
    }
    long imm =
        switch (op.format()) {
          case U -> (long) (r.nextInt() & ~0xfff);
          case I_SHIFT64 -> r.nextInt(64);
          case I_SHIFT32 -> r.nextInt(32);
          case B, J -> 2L * (r.nextBoolean() ? 1 + r.nextInt(1000) : -1 - r.nextInt(1000));
          default -> r.nextInt(8) == 0 ? r.nextInt(2) * -1L : r.nextInt(4096) - 2048;
        };
    if (ops.contains(Operand.MEM)) {
      imm = r.nextInt(64) - 32;
    }
    if (CSR_OPS.contains(op)) {
      imm = 1 + r.nextInt(3); // fflags, frm or fcsr: the CSRs translated code reaches
      if (r.nextInt(4) == 0) {
        rs1 = 0; // csrrs and csrrc with x0 (or a zero immediate) only read
      }
    }
    int rm = ops.contains(Operand.RM) ? new int[] {0, 1, 2, 3, 4, 7}[r.nextInt(6)] : 0;
    return new DecodedInsn(CODE, op, op.match(), rd, rs1, rs2, r.nextInt(32), imm, rm);
  }

  private static long interestingLong(SplittableRandom r) {
    return switch (r.nextInt(10)) {
      case 0 -> 0;
      case 1 -> -1;
      case 2 -> Long.MIN_VALUE;
      case 3 -> Long.MAX_VALUE;
      case 4 -> Integer.MIN_VALUE;
      case 5 -> 0xffffffffL;
      case 6 -> r.nextInt(64) - 32;
      case 7 -> Integer.MAX_VALUE;
      default -> r.nextLong();
    };
  }

  private static long interestingFloat(SplittableRandom r) {
    long d =
        switch (r.nextInt(12)) {
          case 0 -> Double.doubleToRawLongBits(0.0);
          case 1 -> Double.doubleToRawLongBits(-0.0);
          case 2 -> Double.doubleToRawLongBits(Double.POSITIVE_INFINITY);
          case 3 -> 0x7ff0000000000001L; // signalling NaN
          case 4 -> 0x7ff8000000000000L;
          case 5 -> Double.doubleToRawLongBits(Double.MIN_VALUE);
          case 6 -> Double.doubleToRawLongBits(r.nextDouble() * 1e12 - 5e11);
          case 7 -> Double.doubleToRawLongBits(1e300);
          default -> r.nextLong();
        };
    if (r.nextBoolean()) {
      return d; // a double
    }
    int s =
        switch (r.nextInt(8)) {
          case 0 -> Float.floatToRawIntBits(-0.0f);
          case 1 -> 0x7f800001; // signalling NaN
          case 2 -> Float.floatToRawIntBits(Float.MIN_VALUE);
          case 3 -> Float.floatToRawIntBits(r.nextFloat() * 1e6f - 5e5f);
          default -> r.nextInt();
        };
    return r.nextInt(8) == 0 ? s & 0xffffffffL : Fpu.boxS(s); // sometimes badly boxed
  }

  @Test
  void formatsOfTheRandomOperandsCoverTheTable() {
    // The generator above knows these encodings' immediates; a new format needs a case there.
    for (Op op : Op.values()) {
      if (op.base() == op) {
        assertThat(op.format())
            .isIn(
                List.of(
                    Format.R,
                    Format.R4,
                    Format.I,
                    Format.I_SHIFT64,
                    Format.I_SHIFT32,
                    Format.S,
                    Format.B,
                    Format.U,
                    Format.J,
                    Format.CSR,
                    Format.CSR_I,
                    Format.AMO,
                    Format.FENCE,
                    Format.NONE));
      }
    }
  }
}
