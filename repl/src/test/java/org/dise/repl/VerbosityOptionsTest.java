package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dise.testsupport.Captured;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code -v/--verbose} and {@code -q/--quiet} on every command (issue 32, conventions). */
class VerbosityOptionsTest {
  static final String ACF = "../examples/acf/hot_call_pairs.acf";

  record Run(int status, String out, String err) {}

  static Run run(String... args) {
    Captured c = Captured.run(() -> Cli.commandLine().execute(args));
    return new Run(c.status(), c.stdout(), c.stderr());
  }

  private static void walk(CommandLine cl, List<CommandLine> into) {
    into.add(cl);
    cl.getSubcommands().values().forEach(s -> walk(s, into));
  }

  @Test
  void everyCommandTakesBothOptions() {
    List<CommandLine> all = new ArrayList<>();
    walk(Cli.commandLine(), all);
    walk(Cli.runCommandLine(), all);
    assertThat(all.size()).isGreaterThan(20);
    for (CommandLine cl : all) {
      String name = cl.getCommandSpec().qualifiedName();
      for (String o : List.of("-v", "--verbose", "-q", "--quiet")) {
        assertWithMessage(name + " " + o).that(cl.getCommandSpec().findOption(o)).isNotNull();
      }
    }
  }

  @Test
  void quietDropsTheNoticeAndKeepsTheResult(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("p.dcfg");
    Run normal = run("compile", ACF, "-o", out.toString());
    assertThat(normal.status()).isEqualTo(0);
    assertThat(normal.err()).contains("acf: wrote " + out);

    Files.delete(out);
    Run quiet = run("compile", "-q", ACF, "-o", out.toString());
    assertThat(quiet.status()).isEqualTo(0);
    assertThat(quiet.err()).isEmpty();
    assertThat(Files.size(out)).isGreaterThan(0L);

    // Before the command's name too.
    Run before = run("--quiet", "compile", ACF, "-o", out.toString());
    assertThat(before.err()).isEmpty();
  }

  @Test
  void quietKeepsErrorsAndTheStatus(@TempDir Path dir) {
    Run r = run("compile", "-q", dir.resolve("missing.acf").toString(), "-o", "x.dcfg");
    Run n = run("compile", dir.resolve("missing.acf").toString(), "-o", "x.dcfg");
    assertThat(r.status()).isEqualTo(n.status());
    assertThat(r.status()).isNotEqualTo(0);
    assertThat(r.err()).isEqualTo(n.err());
    assertThat(r.err()).contains("missing.acf");
  }

  @Test
  void verboseAddsDebugDetail(@TempDir Path dir) {
    Path out = dir.resolve("p.dcfg");
    Run r = run("compile", "-v", ACF, "-o", out.toString());
    assertThat(r.status()).isEqualTo(0);
    assertThat(r.err()).contains("acf: debug: ACF sources: " + ACF);
    assertThat(r.err()).contains("acf: wrote " + out);
    Run plain = run("compile", ACF, "-o", out.toString());
    assertThat(plain.err()).doesNotContain("acf: debug:");
  }

  @Test
  void bothAtOnceIsAUsageError() {
    Run r = run("compile", "-v", "-q", ACF, "-o", "x.dcfg");
    assertThat(r.status()).isEqualTo(org.dise.repl.common.ExitStatus.USAGE);
    assertThat(r.err()).contains("--verbose and --quiet cannot be combined");
  }

  static final String HELLO = "../examples/programs/bin/hello";

  @Test
  void verboseRunSaysWhatItLoadedWhichEngineAndHowLongItTook() {
    Run r = run("run", "-v", "--acf", ACF, HELLO);
    assertThat(r.status()).isEqualTo(0);
    assertThat(r.err()).contains("acf: debug: program " + HELLO + "; productions from the ACF");
    // In-process, outside the launcher, the cache is off unless ACF_CACHE names a folder.
    assertThat(r.err())
        .containsMatch("acf: debug: (ACF cache: off|ACF cache: miss|ACF cache: hit)");
    assertThat(r.err()).containsMatch("acf: debug: \\d+ production\\(s\\), \\d+ replacement");
    assertThat(r.err()).contains("acf: debug: engine interpreted, translation after");
    assertThat(r.err()).contains("cost model analytic");
    assertThat(r.err()).containsMatch("acf: debug: ran [0-9,]+ instructions in [0-9.]+ s");
    // The profile is the same as without --verbose.
    Run plain = run("run", "--acf", ACF, HELLO);
    assertThat(plain.err()).doesNotContain("acf: debug:");
    assertThat(r.err()).contains(plain.err().substring(plain.err().indexOf("profile ")));
  }

  /** A small sweep of maps (a few sampled configurations, well under a second). */
  private static List<String> sweep(Path dir, String... more) {
    List<String> a =
        new ArrayList<>(
            List.of(
                "sweep",
                "--verbose",
                "--acf",
                "../examples/acf/sampled_regions.acf",
                "--interval",
                "2K",
                "--periods",
                "2",
                "--one-in",
                "2",
                "--seeds",
                "1",
                "--thresholds",
                "25",
                "--jobs",
                "1",
                "--workload",
                "../examples/programs/bin/maps"));
    a.addAll(List.of(more));
    return a;
  }

  @Test
  void verboseSweepSaysThePlanAndEachWorkloadsTime(@TempDir Path dir) {
    Run r = run(sweep(dir, "--out", dir.resolve("s.csv").toString()).toArray(String[]::new));
    assertThat(r.status()).isEqualTo(0);
    assertThat(r.err()).containsMatch("acf: debug: plan: 1 run\\(s\\), 0 with a result already");
    assertThat(r.err()).contains("acf: debug: executor local: every run in this process");
    assertThat(r.err()).containsMatch("acf: debug: maps: \\d+ sampled configuration\\(s\\) in");
    // One run of the plan alone (as an array job runs it): its time.
    Run one =
        run(
            sweep(dir, "--run", "0", "--runs", dir.resolve("runs").toString())
                .toArray(String[]::new));
    assertThat(one.status()).isEqualTo(0);
    assertThat(one.err())
        .containsMatch("acf: debug: run 0 \\(sweep: maps, id [0-9a-f]+\\): [0-9.]+ s");
  }

  @Test
  void quietCheckDropsItsNoteAndKeepsWarnings(@TempDir Path dir) throws Exception {
    Path acf = dir.resolve("unused.acf");
    Files.writeString(
        acf,
        "sink s = count_map();\n"
            + "P1: T.OPCLASS == load => R1, null\n"
            + "R1: call(s, T.PC); T.INSN;\n"
            + "R2: T.INSN;\n");
    Run normal = run("check", acf.toString());
    assertThat(normal.err()).contains("warning");
    Run quiet = run("check", "-q", acf.toString());
    assertThat(quiet.status()).isEqualTo(normal.status());
    assertThat(quiet.err()).isEqualTo(normal.err());

    String missing = org.dise.testsupport.ExternalTool.sysrootMissing();
    org.junit.jupiter.api.Assumptions.assumeTrue(missing == null, missing);
    String dynamic = "../examples/programs/bin-dynamic/hello";
    Path ok = dir.resolve("ok.acf");
    Files.writeString(
        ok,
        "sink s = count_map();\nP1: T.OPCLASS == load => R1, null\n"
            + "R1: call(s, T.PC); T.INSN;\n");
    Run noted = run("check", "--program", dynamic, ok.toString());
    assertThat(noted.status()).isEqualTo(0);
    assertThat(noted.err()).contains("note: " + dynamic + " is dynamically linked");
    Run silent = run("check", "-q", "--program", dynamic, ok.toString());
    assertThat(silent.status()).isEqualTo(0);
    assertThat(silent.err()).isEmpty();
  }
}
