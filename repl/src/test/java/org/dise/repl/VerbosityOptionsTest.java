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
}
