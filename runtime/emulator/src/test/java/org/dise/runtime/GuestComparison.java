package org.dise.runtime;

import static com.google.common.truth.Truth.assertWithMessage;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.dise.runtime.cpu.StopReason;
import org.dise.testsupport.QemuRun;
import org.dise.testsupport.RepositoryRoot;

/**
 * What {@link DifferentialTest} and {@link DynamicLinkTest} share: a case (a program and its
 * arguments), a run's three streams, the example workloads at small sizes, and running a case on
 * our emulator and on qemu-riscv64 under the conditions of {@code src/test/isa/record.sh} (stdin
 * empty, stdout and stderr captured, our {@code acf: } notices left out of stderr).
 */
final class GuestComparison {
  private GuestComparison() {}

  static final Path ROOT = RepositoryRoot.path();

  /** The environment record.sh runs the programs with. */
  static final List<String> ENV = List.of("PATH=/usr/bin:/bin");

  /** What a run produced: the three streams the comparison looks at. */
  record Result(String stdout, String stderr, int exit) {
    String render() {
      return stdout + "--- stderr\n" + stderr + "--- exit " + exit + "\n";
    }

    /** Asserts that our run produced what qemu's did. */
    void assertSameAs(Result qemu, Case c) {
      assertWithMessage("%s: stdout", c).that(stdout).isEqualTo(qemu.stdout);
      assertWithMessage("%s: stderr", c).that(stderr).isEqualTo(qemu.stderr);
      assertWithMessage("%s: exit status", c).that(exit).isEqualTo(qemu.exit);
    }
  }

  /** A program and its arguments (argv[1..]). */
  record Case(String name, Path program, List<String> args) {
    @Override
    public String toString() {
      return args.isEmpty() ? name : name + " " + String.join(" ", args);
    }
  }

  /**
   * The example workloads in {@code bin} at small sizes (argv[1] scales each; the defaults run
   * 0.2-2.6 billion instructions, minutes in the emulator), then {@code more}.
   */
  static Stream<Case> workloads(Path bin, Case... more) {
    List<Case> cases = new ArrayList<>();
    cases.add(new Case("hello", bin.resolve("hello"), List.of("a", "", "b c", "ünï")));
    cases.add(new Case("phases", bin.resolve("phases"), List.of("1", "ABCD")));
    for (String w : List.of("jpeg", "adpcm", "motion", "lz77", "mcf", "interp", "chess")) {
      cases.add(new Case(w, bin.resolve(w), List.of("1")));
    }
    cases.addAll(List.of(more));
    return cases.stream();
  }

  /** Gives the loaded machine empty stdin and the two output streams. */
  static void captureStdio(Machine m, ByteArrayOutputStream out, ByteArrayOutputStream err) {
    m.kernel().setStdio(0, new ByteArrayInputStream(new byte[0]), null);
    m.kernel().setStdio(1, null, out);
    m.kernel().setStdio(2, null, err);
  }

  /**
   * Runs a machine loaded (with {@link #captureStdio}) for case {@code c}, printing its speed under
   * {@code test}'s name, and asserts how it stopped: {@code mustExit}, an exit; otherwise anything
   * but the instruction limit (a fault is part of the comparison).
   */
  static Result run(
      String test,
      Case c,
      Machine m,
      long maxInsns,
      boolean mustExit,
      ByteArrayOutputStream out,
      ByteArrayOutputStream err) {
    long t0 = System.nanoTime();
    Machine.Outcome o = m.run(maxInsns);
    double s = (System.nanoTime() - t0) / 1e9;
    System.out.printf(
        "%s ours %s: %,d instructions in %.1f s (%.0f MIPS), %s%n",
        test, c, o.instructions(), s, o.instructions() / s / 1e6, o.reason());
    if (mustExit) {
      assertWithMessage("%s: %s", c, o.report()).that(o.reason()).isEqualTo(StopReason.EXITED);
    } else {
      assertWithMessage("%s: %s", c, o.report())
          .that(o.reason())
          .isNotEqualTo(StopReason.STEP_LIMIT);
    }
    String rawErr = err.toString(StandardCharsets.UTF_8);
    String stderr =
        rawErr
            .lines()
            .filter(l -> !l.startsWith("acf: "))
            .map(l -> l + "\n")
            .collect(Collectors.joining());
    if (!rawErr.endsWith("\n") && !rawErr.isEmpty() && !stderr.isEmpty()) {
      stderr = stderr.substring(0, stderr.length() - 1); // keep a missing final newline missing
    }
    return new Result(out.toString(StandardCharsets.UTF_8), stderr, o.exitStatus());
  }

  /** Runs a case on qemu-riscv64 (with {@code -L sysroot} unless null) in {@code cwd}. */
  static Result qemu(Case c, Path cwd, Path sysroot) throws Exception {
    QemuRun.Result q = QemuRun.run(cwd, sysroot, QemuRun.PATH_ONLY, c.program(), c.args());
    return new Result(q.stdout(), q.stderr(), q.exit());
  }
}
