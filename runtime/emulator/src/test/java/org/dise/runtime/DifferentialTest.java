package org.dise.runtime;

import static com.google.common.truth.Truth.assertWithMessage;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.dise.runtime.GuestComparison.Case;
import org.dise.runtime.GuestComparison.Result;
import org.dise.runtime.linux.Sandbox;
import org.dise.testsupport.ExternalTool;
import org.dise.testsupport.TestFiles;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Differential tests: our emulator against qemu-riscv64 on the same programs, comparing stdout,
 * stderr and exit status byte for byte. The ISA programs are compared with the output recorded from
 * qemu ({@code <name>.expected}, no qemu needed); when qemu is installed, they and short runs of
 * the example workloads are also compared with qemu live.
 *
 * <p>Run conditions are those of {@code runtime/emulator/src/test/isa/record.sh}: stdin empty,
 * stdout and stderr not a tty, a fresh empty working directory, arguments from {@code <name>.args},
 * environment {@code PATH=/usr/bin:/bin}. Our notices ({@code acf: ...} lines on stderr) are not
 * part of the comparison: qemu prints none.
 */
class DifferentialTest {
  private static final Path ISA =
      GuestComparison.ROOT.resolve("runtime/emulator/src/test/resources/isa");
  private static final Path BIN = GuestComparison.ROOT.resolve("examples/programs/bin");

  /** A guard against a runaway guest; the largest case here runs about 0.3 billion. */
  private static final long MAX_INSNS = 3_000_000_000L;

  private static String qemuMissing;

  /** Our results per case, shared by the recorded and the live comparison. */
  private static final Map<String, Result> OURS = new ConcurrentHashMap<>();

  @BeforeAll
  static void findQemu() {
    qemuMissing = ExternalTool.qemuMissing();
    if (qemuMissing != null) {
      System.out.println("DifferentialTest: live comparisons skipped: " + qemuMissing);
    }
  }

  static Stream<Case> isaPrograms() throws IOException {
    List<Case> cases = new ArrayList<>();
    for (Path elf : TestFiles.endingWith(ISA, ".elf")) {
      String name = elf.getFileName().toString().replace(".elf", "");
      cases.add(new Case(name, elf, argsOf(name)));
    }
    return cases.stream();
  }

  /** The example workloads at small sizes, so that the whole class stays within a few minutes. */
  static Stream<Case> workloads() {
    return GuestComparison.workloads(
        BIN,
        new Case("fpmath", BIN.resolve("fpmath"), List.of("1")),
        new Case("lists", BIN.resolve("lists"), List.of("1")));
  }

  static Stream<Case> allCases() throws IOException {
    return Stream.concat(isaPrograms(), workloads());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("isaPrograms")
  void matchesRecordedQemuOutput(Case c, @TempDir Path cwd) throws Exception {
    String expected = Files.readString(ISA.resolve(c.name() + ".expected"), StandardCharsets.UTF_8);
    Result ours = ours(c, cwd);
    assertWithMessage("%s: stdout, stderr and exit status against %s.expected", c, c.name())
        .that(ours.render())
        .isEqualTo(expected);
    assertWithMessage("%s left files in its working directory", c).that(listing(cwd)).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("allCases")
  void matchesQemuLive(Case c, @TempDir Path cwd) throws Exception {
    Assumptions.assumeTrue(qemuMissing == null, qemuMissing);
    Path ourCwd = Files.createDirectory(cwd.resolve("ours"));
    Path qemuCwd = Files.createDirectory(cwd.resolve("qemu"));
    ours(c, ourCwd).assertSameAs(GuestComparison.qemu(c, qemuCwd, null), c);
    assertWithMessage("%s: files left in the working directory", c)
        .that(listing(ourCwd))
        .isEqualTo(listing(qemuCwd));
  }

  /** Runs a case on our emulator in-process (once per case; the result is reused). */
  private static Result ours(Case c, Path cwd) throws Exception {
    Result cached = OURS.get(c.toString());
    if (cached != null) {
      return cached;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream notices = new PrintStream(err, true, StandardCharsets.UTF_8);
    Machine.Options options =
        new Machine.Options(new Sandbox(cwd), GuestComparison.ENV, 0x5eed, notices);
    Machine m = Machine.load(c.program(), c.args(), options);
    GuestComparison.captureStdio(m, out, err);
    Result r = GuestComparison.run("DifferentialTest", c, m, MAX_INSNS, false, out, err);
    OURS.put(c.toString(), r);
    return r;
  }

  private static List<String> argsOf(String name) throws IOException {
    Path f = ISA.resolve(name + ".args");
    if (!Files.exists(f)) {
      return List.of();
    }
    // One argument per line; an empty line is an empty argument (as record.sh's read loop).
    String text = Files.readString(f, StandardCharsets.UTF_8);
    List<String> args = new ArrayList<>(List.of(text.split("\n", -1)));
    if (text.endsWith("\n")) {
      args.remove(args.size() - 1);
    }
    return args;
  }

  private static List<String> listing(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }
}
