package org.dise.runtime.cpu;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.List;
import org.dise.runtime.mem.Memory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every conditional branch kind, translated, goes where the interpreter goes: operands that differ
 * only in their signed or unsigned order, equal ones, one register on both sides, and x0 on either
 * side; with branches emitted as one compare and jump ({@code acf.compareJump}, the default) and as
 * the Semantics method's boolean.
 */
class BranchTranslationTest {
  private static final long BASE = 0x10000;

  /** beq, bne, blt, bge, bltu, bgeu: their funct3. */
  private static final int[] KINDS = {0, 1, 4, 5, 6, 7};

  /** Register values: each pair of them is compared both ways. */
  private static final long[] VALUES = {
    0, 1, -1, 2, -2, Long.MIN_VALUE, Long.MAX_VALUE, 0x8000_0000L, 0xffff_ffffL, -0x8000_0000L
  };

  private static final int S2 = 18;
  private static final int S3 = 19;
  private static final int A0 = 10;

  /** Which operands a case names: two registers, one register twice, or x0 on a side. */
  private static final int[][] OPERANDS = {{S2, S3}, {S2, S2}, {0, S3}, {S2, 0}, {0, 0}};

  @ParameterizedTest(name = "compareJump={0}")
  @ValueSource(booleans = {true, false})
  void everyBranchKindGoesWhereTheInterpreterGoes(boolean compareJump) {
    boolean saved = InsnEmitter.compareJump;
    InsnEmitter.compareJump = compareJump;
    int cases = 0;
    try {
      for (int f3 : KINDS) {
        for (int[] regs : OPERANDS) {
          Cpu interpreted = program(f3, regs, false);
          Cpu translated = program(f3, regs, true);
          for (long a : VALUES) {
            for (long b : VALUES) {
              String what = "funct3 " + f3 + " x" + regs[0] + "=" + a + " x" + regs[1] + "=" + b;
              long x = regs[0] == 0 ? 0 : a;
              long y = regs[1] == 0 ? 0 : regs[1] == regs[0] ? a : b;
              long expected = expected(f3, x, y) ? 2 : 1;
              assertWithMessage(what).that(run(interpreted, a, b)).isEqualTo(expected);
              assertWithMessage(what).that(run(translated, a, b)).isEqualTo(expected);
              cases++;
            }
          }
          assertThat(translated.counters().translatedInstructions()).isEqualTo(100L);
        }
      }
    } finally {
      InsnEmitter.compareJump = saved;
    }
    assertThat(cases).isEqualTo(KINDS.length * OPERANDS.length * VALUES.length * VALUES.length);
  }

  /** The branch's condition, as the ISA defines it. */
  private static boolean expected(int f3, long x, long y) {
    return switch (f3) {
      case 0 -> x == y;
      case 1 -> x != y;
      case 4 -> x < y;
      case 5 -> x >= y;
      case 6 -> Long.compareUnsigned(x, y) < 0;
      default -> Long.compareUnsigned(x, y) >= 0;
    };
  }

  /**
   * A cpu at {@code b<kind> rs1, rs2, +12; addi a0, x0, 1; jal x0, +8; addi a0, x0, 2; jal x0, 0},
   * the branch's block translated when {@code translate}.
   */
  private static Cpu program(int f3, int[] regs, boolean translate) {
    Memory mem = new Memory();
    mem.map(BASE, Memory.PAGE_SIZE, Memory.PROT_READ | Memory.PROT_EXEC);
    int[] code = {
      UnitChainTest.branch(f3, regs[0], regs[1], 12),
      0x00100513, // addi a0, x0, 1
      UnitChainTest.jal(0, 8),
      0x00200513, // addi a0, x0, 2
      UnitChainTest.jal(0, 0) // the run's end: it stays here until its step limit
    };
    byte[] bytes = TranslationTest.words(code);
    mem.poke(BASE, bytes, 0, bytes.length);
    Cpu cpu = new Cpu(mem, c -> {});
    if (translate) {
      BlockCompiler compiler = new BlockCompiler(new PrintStream(new ByteArrayOutputStream()));
      Block block = cpu.blockAt(BASE);
      BlockCompiler.install(compiler.compile(List.of(block)), cpu);
      assertThat(block.code).isNotNull();
    }
    return cpu;
  }

  /**
   * Runs the program from its start with s2 = a and s3 = b (a unless the branch names two
   * registers): a0 is 2 when the branch was taken, 1 when not.
   */
  private static long run(Cpu cpu, long a, long b) {
    cpu.pc = BASE;
    cpu.x[S2] = a;
    cpu.x[S3] = b;
    cpu.x[A0] = 0;
    assertThat(cpu.run(10)).isEqualTo(StopReason.STEP_LIMIT);
    assertThat(cpu.pc).isEqualTo(BASE + 16);
    return cpu.x[A0];
  }
}
