package org.dise.runtime.cpu;

import static com.google.common.truth.Truth.assertWithMessage;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.dise.runtime.mem.Memory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A translated unit holds guest registers in JVM locals or in x[] ({@link UnitRegisters}): whatever
 * it loads at an entry, stores at an exit or writes in place, the guest must see exactly the
 * interpreter's registers. Random programs of six blocks, translated as one unit, are entered at
 * many blocks (through a dispatcher block outside the unit), leave it at branches, at step budgets
 * that end mid-unit, through indirect jumps inside it and by faults; after every run the registers,
 * pc and count must be the interpreter's. An entry that skipped a live register or an exit that
 * forgot a written one (as a per-entry liveness scheme could, docs/benchmarks.md) shows up as a
 * register that differs.
 */
class UnitRegisterLivenessTest {
  private static final long CODE = 0x10000;
  private static final long DATA = 0x40000;
  private static final int BLOCKS = 6;
  private static final int WORDS = 32; // per block: 128 bytes, so block b starts at CODE + 128 b

  /** Registers the random code reads and writes; x13-x15 and x17 are the harness's. */
  private static final int[] REGS = {1, 5, 6, 7, 8, 9, 10, 11, 12, 16, 18, 28, 29};

  private static final int T = 13; // indirect jump target
  private static final int BASE = 14; // CODE
  private static final int DATA_REG = 15; // DATA
  private static final int ADDR = 17; // a data address, unmapped one time in 16

  /** Each seed under both unit shapes: registers in locals, and in x[] (acf.unitRegs=memory). */
  static Stream<Arguments> seeds() {
    return IntStream.rangeClosed(1, 40)
        .boxed()
        .flatMap(seed -> Stream.of(Arguments.of(seed, false), Arguments.of(seed, true)));
  }

  @ParameterizedTest(name = "seed {0}, registers in memory {1}")
  @MethodSource("seeds")
  void aUnitEnteredAndLeftEverywhereKeepsTheInterpretersRegisters(int seed, boolean inMemory) {
    int[] code = program(new Random(seed));
    Cpu interpreted = machine(code, seed);
    Cpu translated = machine(code, seed);
    List<Block> unit = new ArrayList<>();
    for (int b = 0; b < BLOCKS; b++) {
      unit.add(translated.blockAt(CODE + 4L * WORDS * b));
    }
    BlockCompiler compiler = new BlockCompiler(new PrintStream(new ByteArrayOutputStream()));
    compiler.setRegistersInMemory(inMemory);
    BlockCompiler.install(compiler.compile(unit), translated);
    for (Block b : unit) {
      assertWithMessage("block %s translated", Long.toHexString(b.start)).that(b.code).isNotNull();
    }
    Random chunks = new Random(seed * 31L);
    for (int run = 0; run < 300; run++) {
      long steps = 1 + chunks.nextInt(run % 3 == 0 ? 9 : 200); // often ends mid-unit
      StopReason want = interpreted.run(steps);
      StopReason got = translated.run(steps);
      String where = "seed " + seed + ", run " + run;
      assertWithMessage(where).that(got).isEqualTo(want);
      assertWithMessage(where + ": pc").that(translated.pc).isEqualTo(interpreted.pc);
      assertWithMessage(where + ": count")
          .that(translated.instret())
          .isEqualTo(interpreted.instret());
      assertWithMessage(where + ": registers")
          .that(Arrays.copyOf(translated.x, 32))
          .isEqualTo(Arrays.copyOf(interpreted.x, 32));
      if (want == StopReason.FAULT) {
        assertWithMessage(where + ": fault pc")
            .that(translated.fault().pc())
            .isEqualTo(interpreted.fault().pc());
        break;
      }
    }
    assertWithMessage("translated code ran")
        .that(translated.counters().translatedInstructions())
        .isGreaterThan(0L);
  }

  /** A machine with {@code code} at CODE, 15 data pages, and the registers seeded. */
  private static Cpu machine(int[] code, int seed) {
    Memory mem = new Memory();
    mem.map(CODE, Memory.PAGE_SIZE, Memory.PROT_READ | Memory.PROT_EXEC);
    mem.map(DATA, 15 * Memory.PAGE_SIZE, Memory.PROT_READ | Memory.PROT_WRITE);
    byte[] b = new byte[code.length * 4];
    for (int i = 0; i < code.length; i++) {
      for (int k = 0; k < 4; k++) {
        b[4 * i + k] = (byte) (code[i] >>> (8 * k));
      }
    }
    mem.poke(CODE, b, 0, b.length);
    Cpu cpu = new Cpu(mem, c -> {});
    Random r = new Random(~seed);
    for (int reg : REGS) {
      cpu.x[reg] = r.nextLong();
    }
    cpu.x[BASE] = CODE;
    cpu.x[DATA_REG] = DATA;
    cpu.pc = CODE + 4L * WORDS * BLOCKS; // the dispatcher
    return cpu;
  }

  /**
   * Six blocks of random ALU code (one of them also loading and storing through ADDR), each ending
   * in a branch, a jump (some linking ra) or an indirect jump to a block of the unit; after them a
   * dispatcher outside the unit that jumps to block (x5 mod 4), so the unit is entered at many
   * blocks.
   */
  private static int[] program(Random r) {
    int[] code = new int[WORDS * BLOCKS + 4];
    int memBlock = r.nextInt(BLOCKS);
    for (int b = 0; b < BLOCKS; b++) {
      List<Integer> body = new ArrayList<>();
      int ops = 4 + r.nextInt(7);
      for (int i = 0; i < ops; i++) {
        body.add(randomOp(r));
      }
      if (b == memBlock) {
        // Mostly after the block's other writes: a fault must store them.
        int at = body.size() - r.nextInt(2);
        List<Integer> mem =
            List.of(
                iType(5, pick(r), ADDR, 60), // srli: page 0-15 of DATA, 15 unmapped
                iType(1, ADDR, ADDR, 12), // slli
                rType(0, 0, DATA_REG, ADDR, ADDR), // add
                sType(3, pick(r), ADDR, 8 * r.nextInt(8)), // sd
                iType(3, ADDR, pick(r), 8 * r.nextInt(8), 0x03)); // ld
        body.addAll(at, mem);
      }
      // The block's end is its last word, so that a branch falls through to the next block.
      int target = r.nextInt(BLOCKS + 1); // BLOCKS: the dispatcher, outside the unit
      long here = CODE + 4L * (WORDS * b + WORDS - 1);
      long to = CODE + 4L * WORDS * target;
      List<Integer> end =
          switch (r.nextInt(4)) {
            case 0, 1 -> List.of(branch(r.nextBoolean() ? 1 : 6, pick(r), pick(r), to - here));
            case 2 -> List.of(jal(r.nextBoolean() ? 1 : 0, to - here));
            default -> indirect(pick(r));
          };
      while (body.size() + end.size() < WORDS) {
        body.add(iType(0, 0, 0, 0)); // nop
      }
      body.addAll(end);
      for (int i = 0; i < WORDS; i++) {
        code[WORDS * b + i] = body.get(i);
      }
    }
    List<Integer> dispatcher = indirect(5);
    for (int i = 0; i < dispatcher.size(); i++) {
      code[WORDS * BLOCKS + i] = dispatcher.get(i);
    }
    return code;
  }

  /** t = CODE + 128 (reg mod 4): block (reg mod 4); jalr x0, 0(t). */
  private static List<Integer> indirect(int reg) {
    return List.of(
        iType(7, reg, T, 3), // andi
        iType(1, T, T, 7), // slli
        rType(0, 0, BASE, T, T), // add
        (T << 15) | 0x67); // jalr x0, 0(t)
  }

  private static int pick(Random r) {
    return REGS[r.nextInt(REGS.length)];
  }

  private static int randomOp(Random r) {
    int rd = pick(r);
    int rs1 = pick(r);
    int rs2 = pick(r);
    return switch (r.nextInt(8)) {
      case 0 -> rType(0, 0, rs2, rs1, rd); // add
      case 1 -> rType(0x20, 0, rs2, rs1, rd); // sub
      case 2 -> rType(0, 4, rs2, rs1, rd); // xor
      case 3 -> rType(0, 6, rs2, rs1, rd); // or
      case 4 -> iType(0, rs1, rd, r.nextInt(4096) - 2048); // addi
      case 5 -> iType(4, rs1, rd, r.nextInt(4096) - 2048); // xori
      case 6 -> iType(1, rs1, rd, r.nextInt(64)); // slli
      default -> rType(1, 0, rs2, rs1, rd); // mul
    };
  }

  private static int rType(int f7, int f3, int rs2, int rs1, int rd) {
    return (f7 << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | 0x33;
  }

  private static int iType(int f3, int rs1, int rd, int imm) {
    return iType(f3, rs1, rd, imm, 0x13);
  }

  private static int iType(int f3, int rs1, int rd, int imm, int opcode) {
    return (imm << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | opcode;
  }

  private static int sType(int f3, int rs2, int rs1, int imm) {
    return ((imm >> 5) << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | ((imm & 31) << 7) | 0x23;
  }

  /** A conditional branch (funct3 {@code f3}) to {@code off}. */
  private static int branch(int f3, int rs1, int rs2, long off) {
    return UnitChainTest.branch(f3, rs1, rs2, off);
  }

  private static int jal(int rd, long off) {
    return UnitChainTest.jal(rd, off);
  }
}
