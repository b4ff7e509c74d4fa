package org.dise.repl;

import static com.google.common.truth.Truth.assertWithMessage;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.dise.testsupport.Captured;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code acf run} on inputs that cannot run or that fail: each gives a short message naming the
 * problem, no Java stack trace, and the status a shell would see from qemu-riscv64 for a guest
 * fault (128+signal), or 1 for a program that cannot be loaded or is stopped by --max-insns. The
 * fixtures and qemu's behaviour are described in {@code
 * runtime/emulator/src/test/resources/isa/bad/}. Other commands' missing files and usage errors get
 * the same treatment.
 */
class BadInputTest {
  private static final Path ROOT = RepositoryRoot.path();
  private static final Path BAD = ROOT.resolve("runtime/emulator/src/test/resources/isa/bad");

  /** One bad input: the acf arguments, the status, and phrases the message must contain. */
  record Case(String name, List<String> args, int status, List<String> phrases) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    String bad = BAD.toString();
    String acf = ROOT.resolve("examples/acf/sampled_regions.acf").toString();
    return Stream.of(
        new Case(
            "truncated ELF",
            List.of("run", bad + "/truncated.elf"),
            1,
            List.of("truncated.elf: cannot run:", "truncated ELF file")),
        new Case(
            "x86 ELF",
            List.of("run", bad + "/x86.elf"),
            1,
            List.of("x86.elf: cannot run:", "not a RISC-V program", "x86-64")),
        new Case(
            "text file",
            List.of("run", bad + "/text.txt"),
            1,
            List.of("text.txt: cannot run:", "not an ELF file")),
        new Case(
            "missing file",
            List.of("run", bad + "/no-such-program"),
            1,
            List.of("no-such-program: no such file")),
        new Case("directory", List.of("run", bad), 1, List.of("is a directory")),
        new Case(
            "jump into data",
            List.of("run", bad + "/jump_to_data.elf"),
            128 + 11,
            List.of("guest fault (SIGSEGV)", "execute", "pc:", "instruction:")),
        new Case(
            "illegal instruction",
            List.of("run", bad + "/illegal.elf"),
            128 + 4,
            List.of("guest fault (SIGILL)", "pc:", "instruction: 0000")),
        new Case(
            "store to address 8",
            List.of("run", bad + "/segv.elf"),
            128 + 11,
            List.of("guest fault (SIGSEGV)", "write to address 0x8", "unmapped", "sd")),
        new Case(
            "misaligned AMO",
            List.of("run", bad + "/misaligned_amo.elf"),
            128 + 7,
            List.of("guest fault (SIGBUS)", "misaligned", "amoadd.w")),
        new Case(
            "infinite loop",
            List.of("run", "--max-insns", "100000", bad + "/loop_forever.elf"),
            1,
            List.of("guest stopped after 100,000 instructions", "--max-insns 100000")),
        // Counts take --interval's suffixes.
        new Case(
            "infinite loop, --max-insns 100K",
            List.of("run", "--max-insns", "100K", bad + "/loop_forever.elf"),
            1,
            List.of("guest stopped after 100,000 instructions")),
        new Case(
            "--max-insns not a count",
            List.of("run", "--max-insns", "1X", bad + "/loop_forever.elf"),
            2,
            List.of("'--max-insns'", "'1X' is not a whole number (suffix K, M or G allowed)")),
        // Other commands' files: the reason in words, not Java's bare path.
        new Case(
            "compile into a missing folder",
            List.of("compile", acf, "-o", bad + "/no-such-dir/x.dcfg"),
            1,
            List.of("x.dcfg: cannot write: no such file or directory")),
        new Case(
            "sweep --from a missing CSV",
            List.of("sweep", "--from", bad + "/none.csv"),
            1,
            List.of("none.csv: cannot read: no such file or directory")),
        new Case(
            "sweep --out into a missing folder (refused before running)",
            List.of("sweep", "--acf", acf, "--out", bad + "/no-such-dir/s.csv"),
            2,
            List.of("s.csv: no such directory")),
        new Case(
            "a program given as the ACF (wrong order)",
            List.of("run", "--acf", ROOT.resolve("examples/programs/bin/hello").toString(), acf),
            2,
            List.of("hello: not a UTF-8 text file", "takes the program last")),
        new Case(
            "acf check on a program",
            List.of("check", ROOT.resolve("examples/programs/bin/hello").toString()),
            2,
            List.of("hello: not a UTF-8 text file")),
        new Case(
            "usage error",
            List.of("run"),
            2,
            List.of("Missing required parameter: 'PROGRAM'", "acf run --help")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void shortMessageAndStatus(Case c) {
    Captured r = Captured.run(() -> Cli.commandLine().execute(c.args.toArray(new String[0])));
    int status = r.status();
    String stderr = r.stderr();
    System.out.printf("BadInputTest %s: status %d, stderr:%n%s", c, status, stderr);
    assertWithMessage("%s: exit status (stderr: %s)", c, stderr).that(status).isEqualTo(c.status);
    assertWithMessage("%s: message starts with acf:", c).that(stderr).startsWith("acf: ");
    for (String phrase : c.phrases) {
      assertWithMessage("%s: message", c).that(stderr).contains(phrase);
    }
    List<String> javaLines = new ArrayList<>();
    for (String line : stderr.split("\n")) {
      if (line.contains("at org.")
          || line.contains("at java.")
          || line.contains("Exception")
          || line.contains("internal error")) {
        javaLines.add(line);
      }
    }
    assertWithMessage("%s: Java internals in the message", c).that(javaLines).isEmpty();
    // picocli's usage synopsis wraps with every new option: its continuation lines (indented)
    // do not make the message longer to read.
    assertWithMessage("%s: message length", c)
        .that(java.util.Arrays.stream(stderr.split("\n")).filter(l -> !l.startsWith(" ")).count())
        .isAtMost(8);
  }
}
