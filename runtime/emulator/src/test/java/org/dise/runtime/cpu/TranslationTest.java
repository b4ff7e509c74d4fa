package org.dise.runtime.cpu;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.dise.runtime.CapturedRun;
import org.dise.runtime.Machine;
import org.dise.runtime.linux.Sandbox;
import org.dise.runtime.mem.Memory;
import org.dise.testsupport.TestFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Translated blocks must behave exactly like the interpreter: output, counts and faults. */
class TranslationTest {
  /**
   * Pieces of a unit found over HotSpot's own limit, with the margin BlockCompiler.PIECE_BYTES
   * keeps.
   */
  private static final int HOTSPOT_PIECE = BytecodeTranslator.HUGE_METHOD * 3 / 4;

  private static final Path ISA = Path.of("src/test/resources/isa");

  @TempDir Path cwd;

  /** Every ISA test program (each {@code .elf} of the folder), for the parameterized cases. */
  static List<String> isaPrograms() throws Exception {
    return TestFiles.namesEndingWith(ISA, ".elf");
  }

  /** What a run produced: everything a user sees, and the exact instruction count. */
  private record Run(
      String stdout,
      String stderr,
      int exit,
      StopReason reason,
      long instructions,
      long translated) {}

  private Run run(String name, int threshold, Path dir) throws Exception {
    Path args = ISA.resolve(name + ".args");
    List<String> argv =
        Files.exists(args) ? Files.readAllLines(args, StandardCharsets.UTF_8) : List.of();
    Sandbox sandbox = new Sandbox(Files.createDirectories(dir));
    CapturedRun r =
        CapturedRun.run(
            ISA.resolve(name + ".elf"),
            argv,
            notices -> // discarded: stderr is the guest's alone, compared across thresholds
            new Machine.Options(
                    sandbox,
                    List.of("PATH=/usr/bin:/bin"),
                    0x5eed,
                    new PrintStream(new ByteArrayOutputStream()),
                    threshold),
            3_000_000_000L);
    Machine.Outcome o = r.outcome();
    return new Run(
        r.stdout(),
        r.stderr(),
        o.exitStatus(),
        o.reason(),
        o.instructions(),
        r.machine().cpu().counters().translatedInstructions());
  }

  /**
   * Every ISA test program, translated from a block's first repeat (threshold 1), gives exactly the
   * interpreter's output, exit status and instruction count, and the recorded stdout.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("isaPrograms")
  void everyIsaProgramRunsTranslatedExactlyAsInterpreted(String name) throws Exception {
    Run interpreted = run(name, 0, cwd.resolve("interpreted"));
    Run translated = run(name, 1, cwd.resolve("translated"));
    assertThat(interpreted.translated()).isEqualTo(0L);
    assertRunsAsInterpreted(translated, interpreted);
    String expected = Files.readString(ISA.resolve(name + ".expected"), StandardCharsets.UTF_8);
    assertThat(translated.stdout())
        .isEqualTo(expected.substring(0, expected.indexOf("--- stderr\n")));
  }

  /**
   * Units written without stack map frames ({@code acf.unitFrames=false}: Java 6 class files the
   * JVM verifies by inference) or with ASM's ({@code asm}) pass verification and run every ISA
   * program as the interpreter does.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("isaPrograms")
  void unitsWithoutFramesRunEveryIsaProgramAsInterpreted(String name) throws Exception {
    Run interpreted = run(name, 0, cwd.resolve("interpreted"));
    assertRunsAsInterpreted(runWithFrames(UnitFrames.Mode.NONE, name), interpreted);
    assertRunsAsInterpreted(runWithFrames(UnitFrames.Mode.ASM, name), interpreted);
  }

  /**
   * Units whose frames the emitters write ({@code acf.unitFrames=emitted}, opt-in) pass
   * verification, run every ISA program as the interpreter does, and never fall back to ASM's.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("isaPrograms")
  void unitsWithEmittedFramesRunEveryIsaProgramAsInterpreted(String name) throws Exception {
    Run interpreted = run(name, 0, cwd.resolve("interpreted"));
    long fallbacks = UnitFrames.FALLBACKS.get();
    assertRunsAsInterpreted(runWithFrames(UnitFrames.Mode.EMITTED, name), interpreted);
    assertThat(UnitFrames.FALLBACKS.get()).isEqualTo(fallbacks);
  }

  /**
   * Units generated on the translator thread ({@code acf.translateThread=true}) and installed at
   * the emulating thread's next look run every ISA program as the interpreter does.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("isaPrograms")
  void unitsFromTheTranslatorThreadRunEveryIsaProgramAsInterpreted(String name) throws Exception {
    Run interpreted = run(name, 0, cwd.resolve("interpreted"));
    boolean before = BlockCompiler.translateThread;
    BlockCompiler.translateThread = true;
    try {
      Run translated = run(name, 1, cwd.resolve("translator-thread"));
      // When the units arrive depends on the other thread: the run may end before any does.
      assertThat(translated.stdout()).isEqualTo(interpreted.stdout());
      assertThat(translated.stderr()).isEqualTo(interpreted.stderr());
      assertThat(translated.exit()).isEqualTo(interpreted.exit());
      assertThat(translated.reason()).isEqualTo(interpreted.reason());
      assertThat(translated.instructions()).isEqualTo(interpreted.instructions());
    } finally {
      BlockCompiler.translateThread = before;
    }
  }

  /**
   * A unit the translator thread finished after one of its blocks' code changed is never installed:
   * the emulating thread checks each finished unit's blocks before it installs it, so the loop runs
   * the new code.
   */
  @Test
  void aUnitFinishedAfterItsCodeChangedIsNeverInstalled() throws Exception {
    Cpu cpu = twoPageLoop();
    BlockCompiler compiler = new BlockCompiler(new PrintStream(new ByteArrayOutputStream()));
    cpu.setBlockCompiler(compiler, 1);
    boolean before = BlockCompiler.translateThread;
    BlockCompiler.translateThread = true;
    try {
      // 64 interpreted blocks: the interpreter's first look hands A and B to the translator thread.
      assertThat(cpu.run(128)).isEqualTo(StopReason.STEP_LIMIT);
      assertThat(compiler.awaitIdle(60_000)).isTrue();
      assertThat(compiler.compiledBlocks()).isEqualTo(2);
      assertThat(cpu.blockAt(0x10000).code).isNull(); // finished, not installed yet
      assertThat(cpu.x[11]).isEqualTo(32L);

      // B changes before the emulating thread looks again.
      addHundredInB(cpu);
      assertThat(cpu.pc).isEqualTo(0x10000L);
      assertThat(cpu.run(4 * 200)).isEqualTo(StopReason.STEP_LIMIT);
      assertThat(compiler.awaitIdle(60_000)).isTrue();
      assertThat(cpu.run(4 * 200)).isEqualTo(StopReason.STEP_LIMIT);
      assertThat(cpu.x[11]).isEqualTo(32L + 100 * 400);
      assertThat(cpu.x[10]).isEqualTo(32L + 400);
      // Translated again from the new code, and run translated.
      assertThat(cpu.blockAt(0x12000).code).isNotNull();
      assertThat(cpu.counters().translatedInstructions()).isGreaterThan(0L);
    } finally {
      BlockCompiler.translateThread = before;
    }
  }

  /** Program {@code name} translated from threshold 1 with units' frames as {@code mode} says. */
  private Run runWithFrames(UnitFrames.Mode mode, String name) throws Exception {
    UnitFrames.Mode before = BytecodeTranslator.unitFrames;
    BytecodeTranslator.unitFrames = mode;
    try {
      return run(name, 1, cwd.resolve("translated-" + mode));
    } finally {
      BytecodeTranslator.unitFrames = before;
    }
  }

  /** A translated run that translated something and did exactly what the interpreted one did. */
  private static void assertRunsAsInterpreted(Run translated, Run interpreted) {
    if (interpreted.instructions() > 1000) {
      // static_pie makes its system calls itself: 13 instructions, no block runs twice.
      assertThat(translated.translated()).isGreaterThan(0L);
    }
    assertThat(translated.stdout()).isEqualTo(interpreted.stdout());
    assertThat(translated.stderr()).isEqualTo(interpreted.stderr());
    assertThat(translated.exit()).isEqualTo(interpreted.exit());
    assertThat(translated.reason()).isEqualTo(interpreted.reason());
    assertThat(translated.instructions()).isEqualTo(interpreted.instructions());
  }

  @Test
  void blocksAreTranslatedOnTheEmulatingThread() throws Exception {
    Machine m =
        Machine.load(
            ISA.resolve("int_alu.elf"),
            List.of(),
            new Machine.Options(
                new Sandbox(cwd),
                List.of("PATH=/usr/bin:/bin"),
                0x5eed,
                new PrintStream(new ByteArrayOutputStream()),
                1));
    m.kernel().setStdio(1, null, new ByteArrayOutputStream());
    Machine.Outcome o = m.run(-1);
    assertThat(o.reason()).isEqualTo(StopReason.EXITED);
    // One uninterrupted run, no slices and no waiting: blocks were translated on the
    // emulating thread and ran translated.
    assertThat(m.cpu().blockCompiler().compiledBlocks()).isGreaterThan(0);
    assertThat(m.cpu().counters().translatedInstructions()).isGreaterThan(0L);
  }

  @Test
  void phasesWorkloadRunsMostlyTranslatedWithIdenticalOutputAndCount() throws Exception {
    ByteArrayOutputStream plainOut = new ByteArrayOutputStream();
    Machine.Outcome p = DecodeStageTest.load("1", plainOut, 0).run(-1);

    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Machine m = DecodeStageTest.load("1", out, 100);
    // Let the hot blocks of the first kernels be translated before running the rest.
    assertThat(m.run(2_000_000).reason()).isEqualTo(StopReason.STEP_LIMIT);
    assertThat(m.cpu().blockCompiler().awaitIdle(60_000)).isTrue();
    Machine.Outcome o = m.run(-1);

    assertThat(out.toString()).isEqualTo(plainOut.toString());
    assertThat(o.instructions()).isEqualTo(p.instructions());
    assertThat(m.cpu().counters().translatedInstructions()).isGreaterThan(0L);
  }

  /**
   * A young process translates only its hottest blocks (spec/emulator.md, "Translation warm-up"):
   * fewer blocks than without a warm-up before it ends, more soon after it (counted afresh at the
   * threshold's own value), and the run's output and instruction count are the interpreter's.
   */
  @Test
  void aYoungProcessTranslatesOnlyItsHottestBlocks() throws Exception {
    Machine.Outcome p = null;
    String plainOut = null;
    int[] young = new int[2];
    for (long warmup : new long[] {0, 1_000_000}) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      Machine m = DecodeStageTest.load("1", out, 50, warmup);
      assertThat(m.run(900_000).reason()).isEqualTo(StopReason.STEP_LIMIT);
      int before = m.cpu().blockCompiler().compiledBlocks();
      young[warmup == 0 ? 0 : 1] = before;
      // Past the warm-up: the warm blocks have run 50 more times and are translated.
      assertThat(m.run(1_500_000).reason()).isEqualTo(StopReason.STEP_LIMIT);
      if (warmup > 0) {
        assertThat(m.cpu().blockCompiler().compiledBlocks()).isGreaterThan(before);
      }
      Machine.Outcome o = m.run(-1);
      assertThat(m.cpu().counters().translatedInstructions()).isGreaterThan(0L);
      if (p == null) {
        p = o;
        plainOut = out.toString();
      } else {
        assertThat(out.toString()).isEqualTo(plainOut);
        assertThat(o.instructions()).isEqualTo(p.instructions());
      }
    }
    assertThat(young[1]).isLessThan(young[0]);
  }

  /**
   * Under a translation budget (spec/emulator.md, "The translation budget") a young run translates
   * less than without one, its loops are still translated once it has earned the credit, and what
   * the guest and a profiler see is the same: output, instruction count and the retired branch
   * stream, branch by branch.
   */
  @Test
  void aBudgetedRunTranslatesLessEarlyAndBehavesTheSame() throws Exception {
    String[] outs = new String[2];
    long[] insns = new long[2];
    long[] spentEarly = new long[2];
    List<Map<Long, Long>> profiles = new java.util.ArrayList<>();
    int[] budgets = {0, 200};
    for (int i = 0; i < 2; i++) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      Machine m = DecodeStageTest.load("1", out, 50);
      BlockCompiler bc = m.cpu().blockCompiler();
      bc.setBudget(budgets[i]);
      Map<Long, Long> profile = new TreeMap<>();
      m.cpu().setBlockObserver((pc, n) -> profile.merge(pc, (long) n, Long::sum));
      assertThat(m.run(300_000).reason()).isEqualTo(StopReason.STEP_LIMIT);
      spentEarly[i] = bc.spent();
      Machine.Outcome o = m.run(-1);
      assertThat(m.cpu().counters().translatedInstructions()).isGreaterThan(o.instructions() / 2);
      outs[i] = out.toString();
      insns[i] = o.instructions();
      profiles.add(profile);
    }
    assertThat(spentEarly[1]).isLessThan(spentEarly[0]);
    assertThat(outs[1]).isEqualTo(outs[0]);
    assertThat(insns[1]).isEqualTo(insns[0]);
    assertThat(profiles.get(1)).isEqualTo(profiles.get(0));
  }

  /**
   * A budget's initial grant (spec/emulator.md, "The translation budget"): a run whose early
   * translation fits the grant translates exactly what it would without a budget, hot loops at
   * once, while the same budget without the grant holds them back.
   */
  @Test
  void aGrantLetsASmallHotFootprintTranslateAtOnceUnderABudget() throws Exception {
    long[] spent = new long[3];
    String[] outs = new String[3];
    for (int i = 0; i < 3; i++) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      Machine m = DecodeStageTest.load("1", out, 50);
      BlockCompiler bc = m.cpu().blockCompiler();
      if (i > 0) {
        bc.setBudget(200);
        bc.setGrant(i == 1 ? 0 : (int) spent[0]);
      }
      assertThat(m.run(300_000).reason()).isEqualTo(StopReason.STEP_LIMIT);
      spent[i] = bc.spent();
      m.run(-1);
      outs[i] = out.toString();
    }
    assertThat(spent[0]).isGreaterThan(0L);
    assertThat(spent[1]).isLessThan(spent[0]);
    assertThat(spent[2]).isEqualTo(spent[0]);
    assertThat(outs[1]).isEqualTo(outs[0]);
    assertThat(outs[2]).isEqualTo(outs[0]);
  }

  /** addi a0,a0,1; ld a1,0(a2); addi a0,a0,1; j -12 (back to the first addi). */
  private static Cpu loopThatFaults() {
    Memory mem = new Memory();
    mem.map(0x10000, Memory.PAGE_SIZE, Memory.PROT_READ | Memory.PROT_EXEC);
    mem.map(0x20000, Memory.PAGE_SIZE, Memory.PROT_READ);
    int[] code = {0x00150513, 0x00063583, 0x00150513, 0xff5ff06f};
    byte[] b = new byte[code.length * 4];
    for (int i = 0; i < code.length; i++) {
      for (int k = 0; k < 4; k++) {
        b[4 * i + k] = (byte) (code[i] >>> (8 * k));
      }
    }
    mem.poke(0x10000, b, 0, b.length);
    Cpu cpu = new Cpu(mem, c -> {});
    cpu.pc = 0x10000;
    cpu.x[12] = 0x20000 + Memory.PAGE_SIZE; // just past the readable page: the ld faults
    return cpu;
  }

  @Test
  void faultInTranslatedBlockReportsTheFaultingInstructionAndExactCount() {
    Cpu interpreted = loopThatFaults();
    assertThat(interpreted.run(1000)).isEqualTo(StopReason.FAULT);

    Cpu translated = loopThatFaults();
    BlockCompiler compiler = new BlockCompiler(new PrintStream(new ByteArrayOutputStream()));
    Block block = translated.blockAt(0x10000);
    BlockCompiler.install(compiler.compile(List.of(block)), translated);
    assertThat(block.code).isNotNull();
    assertThat(translated.run(1000)).isEqualTo(StopReason.FAULT);

    assertThat(translated.counters().translatedInstructions()).isGreaterThan(0L);
    assertThat(translated.fault().pc()).isEqualTo(0x10004L);
    assertThat(translated.fault().pc()).isEqualTo(interpreted.fault().pc());
    assertThat(translated.instret()).isEqualTo(interpreted.instret());
    assertThat(translated.x[10]).isEqualTo(interpreted.x[10]);
  }

  /**
   * sd a0,0(a2); ld a1,2044(a3); add a0,a0,a1; add a2,a2,t0; add a3,a3,t0; addi a4,a4,-1; bnez a4
   * (16 passes, a page further each): every store's page is one not touched yet on odd passes, and
   * every load reads across a page end, the two cases whose fast path fails.
   */
  private static Cpu loopOverNewPagesAndPageEnds() {
    Memory mem = new Memory();
    mem.map(0x10000, Memory.PAGE_SIZE, Memory.PROT_READ | Memory.PROT_EXEC);
    mem.map(0x40000, 17 * Memory.PAGE_SIZE, Memory.PROT_READ | Memory.PROT_WRITE);
    byte[] code =
        words(0x00a63023, 0x7fc6b583, 0x00b50533, 0x00560633, 0x005686b3, 0xfff70713, 0xfe0714e3);
    mem.poke(0x10000, code, 0, code.length);
    for (int page = 0; page < 17; page += 2) { // even pages touched before the run
      byte[] data = new byte[Memory.PAGE_SIZE];
      for (int i = 0; i < data.length; i++) {
        data[i] = (byte) (page * 31 + i * 7);
      }
      mem.poke(0x40000 + (long) page * Memory.PAGE_SIZE, data, 0, data.length);
    }
    Cpu cpu = new Cpu(mem, c -> {});
    cpu.pc = 0x10000;
    cpu.x[10] = 1;
    cpu.x[12] = 0x40000;
    cpu.x[13] = 0x40000 + 2048;
    cpu.x[5] = Memory.PAGE_SIZE;
    cpu.x[14] = 16;
    return cpu;
  }

  @Test
  void loadsAndStoresWhoseFastPathFailsLeaveTheUnitAndRunAsInterpreted() {
    Cpu interpreted = loopOverNewPagesAndPageEnds();
    assertThat(interpreted.run(16 * 7)).isEqualTo(StopReason.STEP_LIMIT);

    Cpu translated = loopOverNewPagesAndPageEnds();
    assertThat(translated.run(7)).isEqualTo(StopReason.STEP_LIMIT); // decodes the block
    BlockCompiler compiler = new BlockCompiler(new PrintStream(new ByteArrayOutputStream()));
    Block block = translated.blockAt(0x10000);
    BlockCompiler.install(compiler.compile(List.of(block)), translated);
    assertThat(block.code).isNotNull();
    assertThat(translated.run(15 * 7)).isEqualTo(StopReason.STEP_LIMIT);

    // The stores on pages touched before ran translated; each load across a page end left the
    // unit and ran in the interpreter, which went on to the block's end.
    assertThat(translated.counters().translatedInstructions()).isGreaterThan(0L);
    assertThat(translated.counters().translatedInstructions()).isLessThan(15L * 7);
    assertThat(translated.instret()).isEqualTo(interpreted.instret());
    assertThat(translated.pc).isEqualTo(interpreted.pc);
    assertThat(translated.x).isEqualTo(interpreted.x);
    for (long a = 0x40000; a < 0x40000 + 17 * Memory.PAGE_SIZE; a += 8) {
      assertWithMessage("memory at 0x%s", Long.toHexString(a))
          .that(translated.memory().ld(a))
          .isEqualTo(interpreted.memory().ld(a));
    }
  }

  @Test
  void unitNeverRunsABlockWhoseCodeChanged() {
    Cpu cpu = twoPageLoop();
    assertThat(cpu.run(4)).isEqualTo(StopReason.STEP_LIMIT); // decodes both blocks
    BlockCompiler compiler = new BlockCompiler(new PrintStream(new ByteArrayOutputStream()));
    BlockCompiler.install(
        compiler.compile(List.of(cpu.blockAt(0x10000), cpu.blockAt(0x12000))), cpu);
    cpu.run(40);
    assertThat(cpu.counters().translatedInstructions()).isEqualTo(40L);
    assertThat(cpu.x[11]).isEqualTo(11L); // 1 interpreted + 10 translated iterations

    // The unit, entered at A, must not jump into its old copy of B.
    addHundredInB(cpu);
    assertThat(cpu.pc).isEqualTo(0x10000L);
    cpu.run(4);
    assertThat(cpu.x[11]).isEqualTo(111L); // one more iteration, with the new B
  }

  /**
   * At block A (page 0x10000): a0 += 1, jump to B. Block B (page 0x12000, not adjacent, so dropping
   * its page leaves A's alone): a1 += 1, jump to A.
   */
  private static Cpu twoPageLoop() {
    Memory mem = new Memory();
    mem.map(0x10000, 3 * Memory.PAGE_SIZE, Memory.PROT_READ | Memory.PROT_EXEC);
    byte[] a = words(0x00150513, UnitChainTest.jal(0, 0x12000 - 0x10004));
    byte[] b = words(0x00158593, UnitChainTest.jal(0, 0x10000 - 0x12004));
    mem.poke(0x10000, a, 0, a.length);
    mem.poke(0x12000, b, 0, b.length);
    Cpu cpu = new Cpu(mem, c -> {});
    cpu.pc = 0x10000;
    return cpu;
  }

  /** {@link #twoPageLoop}'s B becomes a1 += 100, its decoded code dropped as a write drops it. */
  private static void addHundredInB(Cpu cpu) {
    Memory mem = cpu.memory();
    byte[] b2 = words(0x06458593);
    mem.poke(0x12000, b2, 0, b2.length);
    mem.protect(0x12000, Memory.PAGE_SIZE, Memory.PROT_READ); // drops B's decoded code
    mem.protect(0x12000, Memory.PAGE_SIZE, Memory.PROT_READ | Memory.PROT_EXEC);
  }

  /** 48 blocks of 63 addi and a jal to the next, in a ring: 48 x 64 instructions of code. */
  private static Cpu ringOfLargeBlocks() {
    Memory mem = new Memory();
    mem.map(0x10000, 3 * Memory.PAGE_SIZE, Memory.PROT_READ | Memory.PROT_EXEC);
    int[] code = new int[48 * 64];
    for (int blk = 0; blk < 48; blk++) {
      for (int i = 0; i < 63; i++) {
        code[blk * 64 + i] = 0x00150513; // addi a0, a0, 1
      }
      int next = (blk + 1) % 48;
      code[blk * 64 + 63] = UnitChainTest.jal(0, (next - blk) * 256 - 252);
    }
    byte[] b = words(code);
    mem.poke(0x10000, b, 0, b.length);
    Cpu cpu = new Cpu(mem, c -> {});
    cpu.pc = 0x10000;
    return cpu;
  }

  /** The 48 blocks of {@link #ringOfLargeBlocks}, decoded by one run around the ring. */
  private static List<Block> ringBlocks() {
    Cpu probe = ringOfLargeBlocks();
    probe.run(48 * 64);
    List<Block> blocks = new java.util.ArrayList<>();
    for (int blk = 0; blk < 48; blk++) {
      blocks.add(probe.blockAt(0x10000 + 256L * blk));
    }
    return blocks;
  }

  @Test
  void aUnitTooLargeForHotSpotIsSplitAndEveryBlockStillTranslated() throws Exception {
    List<Block> blocks = ringBlocks();
    org.junit.jupiter.api.Assertions.assertThrows(
        BytecodeTranslator.TooLarge.class, () -> BytecodeTranslator.classBytes(blocks, false));

    Cpu cpu = ringOfLargeBlocks();
    cpu.setBlockCompiler(new BlockCompiler(new PrintStream(new ByteArrayOutputStream())), 1);
    long steps = 48 * 64 * 40;
    assertThat(cpu.run(steps)).isEqualTo(StopReason.STEP_LIMIT);
    assertThat(cpu.blockCompiler().compiledBlocks()).isEqualTo(48);
    assertThat(cpu.counters().translatedInstructions()).isGreaterThan(steps / 2);
    assertThat(cpu.x[10]).isEqualTo(63L * 48 * 40);
    assertThat(cpu.instret()).isEqualTo(steps);
  }

  @Test
  void aTooLargeUnitIsCutByItsBlocksSizesIntoPiecesThatEachFitFirstTime() throws Exception {
    List<Block> blocks = ringBlocks();
    BytecodeTranslator.TooLarge tooLarge =
        org.junit.jupiter.api.Assertions.assertThrows(
            BytecodeTranslator.TooLarge.class, () -> BytecodeTranslator.classBytes(blocks, false));
    int sum = java.util.Arrays.stream(tooLarge.blockBytes).sum();
    assertThat(sum).isAtLeast(BytecodeTranslator.HUGE_METHOD);

    assertPiecesFitAndMakeUp(
        BlockCompiler.pieces(blocks, tooLarge.blockBytes, HOTSPOT_PIECE), blocks);
  }

  /** More than one piece, each generated once without TooLarge, the region's blocks in order. */
  private static void assertPiecesFitAndMakeUp(List<List<Block>> pieces, List<Block> region)
      throws Exception {
    assertThat(pieces.size()).isGreaterThan(1);
    List<Block> again = new java.util.ArrayList<>();
    for (List<Block> piece : pieces) {
      BytecodeTranslator.classBytes(piece, false); // no TooLarge: one generation per piece
      again.addAll(piece);
    }
    assertThat(again).containsExactlyElementsIn(region).inOrder();
  }

  @Test
  void aRegionEstimatedOverTheLimitIsCutBeforeItIsGenerated() throws Exception {
    List<Block> blocks = ringBlocks();
    int limit = BytecodeTranslator.HUGE_METHOD;
    UnitSize size = new UnitSize();
    // Nothing learned yet: the region is generated as formed.
    assertThat(size.cut(blocks, limit, limit * 3 / 4)).containsExactly(blocks);

    List<Block> first = blocks.subList(0, 8);
    size.learn(
        first,
        BytecodeTranslator.define(first, false, null, limit, false, false, false).methodBytes());
    assertThat(size.bytesPerInstruction()).isGreaterThan(0.0);
    assertPiecesFitAndMakeUp(size.cut(blocks, limit, limit * 3 / 4), blocks);
    // A region estimated below the limit stays whole.
    assertThat(size.cut(first, limit, limit * 3 / 4)).containsExactly(first);
  }

  @Test
  void aRunThrowsAwayAtMostTheFirstTooLargeGeneration() {
    Cpu cpu = ringOfLargeBlocks();
    cpu.setBlockCompiler(new BlockCompiler(new PrintStream(new ByteArrayOutputStream())), 1);
    assertThat(cpu.run(48 * 64 * 40)).isEqualTo(StopReason.STEP_LIMIT);
    BlockCompiler compiler = cpu.blockCompiler();
    assertThat(compiler.compiledBlocks()).isEqualTo(48);
    assertThat(compiler.tooLarge()).isAtMost(1); // the first region, before anything is learned
    assertThat(compiler.generations()).isGreaterThan(compiler.tooLarge());
  }

  @Test
  void aScaledThresholdTranslatesOnlyBlocksThatReachIt() {
    Cpu cpu = ringOfLargeBlocks();
    cpu.setBlockCompiler(new BlockCompiler(new PrintStream(new ByteArrayOutputStream())), 10);
    cpu.scaleThreshold(3);
    assertThat(cpu.translateThreshold()).isEqualTo(30);
    long round = 48 * 64;
    assertThat(cpu.run(round * 20)).isEqualTo(StopReason.STEP_LIMIT);
    assertThat(cpu.blockCompiler().compiledBlocks()).isEqualTo(0); // 20 runs each: below 30
    assertThat(cpu.run(round * 15)).isEqualTo(StopReason.STEP_LIMIT);
    assertThat(cpu.blockCompiler().compiledBlocks()).isGreaterThan(0);
    assertThat(cpu.x[10]).isEqualTo(63L * 48 * 35);
  }

  @Test
  void aPieceEstimatedToFitThatDidNotIsHalved() {
    List<Block> blocks = ringBlocks().subList(0, 2);
    assertThat(BlockCompiler.pieces(blocks, new int[] {10, 10}, HOTSPOT_PIECE))
        .containsExactly(List.of(blocks.get(0)), List.of(blocks.get(1)))
        .inOrder();
    assertThat(BlockCompiler.pieces(List.of(blocks.get(0)), new int[] {10_000}, HOTSPOT_PIECE))
        .isEmpty();
  }

  static byte[] words(int... code) {
    byte[] b = new byte[code.length * 4];
    for (int i = 0; i < code.length; i++) {
      for (int k = 0; k < 4; k++) {
        b[4 * i + k] = (byte) (code[i] >>> (8 * k));
      }
    }
    return b;
  }
}
