package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.dise.compiler.Frontend;
import org.dise.compiler.diag.DiagnosticRenderer;
import org.dise.compiler.diag.SourceFile;
import org.dise.repl.common.ExitStatus;
import org.dise.repl.common.Tty;
import org.dise.repl.common.Version;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * What every subcommand promises a user: help with examples, a version, and plain text off a
 * terminal.
 */
class CommandLineTest {
  /**
   * {@code acf run}'s fast start (the run command alone) reads exactly as the full command line.
   */
  @Test
  void runAloneHasTheSameHelpAndUsageErrorsAsRunUnderAcf() {
    CommandLine full = Cli.commandLine().getSubcommands().get("run");
    CommandLine alone = Cli.runCommandLine();
    assertThat(alone.getUsageMessage(CommandLine.Help.Ansi.OFF))
        .isEqualTo(full.getUsageMessage(CommandLine.Help.Ansi.OFF));
    java.io.StringWriter a = new java.io.StringWriter();
    java.io.StringWriter b = new java.io.StringWriter();
    alone.setErr(new java.io.PrintWriter(a));
    full.setErr(new java.io.PrintWriter(b));
    int sa = alone.execute("--no-such-option", "x");
    int sb =
        Cli.commandLine()
            .getSubcommands()
            .get("run")
            .setErr(new java.io.PrintWriter(b))
            .getParent()
            .execute("run", "--no-such-option", "x");
    assertThat(sa).isEqualTo(ExitStatus.USAGE);
    assertThat(sb).isEqualTo(ExitStatus.USAGE);
    assertThat(a.toString()).contains("Run `acf run --help`");
    assertThat(a.toString()).isEqualTo(b.toString());
  }

  /**
   * A line that names a subcommand is parsed by {@code acf} with that subcommand alone (a fresh JVM
   * reads every subcommand's annotations in about 0.3 s): its help, its usage errors and the name
   * it answers to are the full command line's.
   */
  @Test
  void eachSubcommandAloneReadsAsUnderTheFullCommandLine() {
    CommandLine all = Cli.commandLine();
    java.util.List<String> listed = new java.util.ArrayList<>(Cli.COMMANDS.keySet());
    listed.add("completion");
    listed.add("help");
    assertThat(all.getSubcommands().keySet()).containsExactlyElementsIn(listed).inOrder();
    for (Map.Entry<String, Class<?>> e : Cli.COMMANDS.entrySet()) {
      CommandLine.Command declared = e.getValue().getAnnotation(CommandLine.Command.class);
      assertWithMessage("@Command name of %s", e.getValue())
          .that(declared.name())
          .isEqualTo(e.getKey());
      CommandLine alone = Cli.commandLine(e.getKey());
      assertThat(alone.getSubcommands().keySet()).containsExactly(e.getKey());
      assertWithMessage("acf %s --help", e.getKey())
          .that(alone.getSubcommands().get(e.getKey()).getUsageMessage(CommandLine.Help.Ansi.OFF))
          .isEqualTo(
              all.getSubcommands().get(e.getKey()).getUsageMessage(CommandLine.Help.Ansi.OFF));
      java.io.StringWriter a = new java.io.StringWriter();
      java.io.StringWriter b = new java.io.StringWriter();
      int sa = alone.setErr(new java.io.PrintWriter(a)).execute(e.getKey(), "--no-such-option");
      int sb =
          Cli.commandLine()
              .setErr(new java.io.PrintWriter(b))
              .execute(e.getKey(), "--no-such-option");
      assertWithMessage("acf %s --no-such-option", e.getKey()).that(sa).isEqualTo(sb);
      assertWithMessage("acf %s --no-such-option", e.getKey())
          .that(a.toString())
          .isEqualTo(b.toString());
    }
  }

  @Test
  void everySubcommandHasHelpWithExamplesThatFitsEightyColumns() {
    for (Map.Entry<String, CommandLine> e : Cli.commandLine().getSubcommands().entrySet()) {
      if (e.getKey().equals("help")) {
        continue;
      }
      String[] footer = e.getValue().getCommandSpec().usageMessage().footer();
      // picocli formats help text with String.format and only warns (on stderr) about a stray
      // '%', printing the raw text: catch that here.
      java.io.PrintStream oldErr = System.err;
      java.io.ByteArrayOutputStream warnings = new java.io.ByteArrayOutputStream();
      String help;
      try {
        System.setErr(new java.io.PrintStream(warnings, true));
        help = e.getValue().getUsageMessage(CommandLine.Help.Ansi.OFF);
      } finally {
        System.setErr(oldErr);
      }
      assertWithMessage("acf %s --help warnings", e.getKey()).that(warnings.toString()).isEmpty();
      assertWithMessage("acf %s --help", e.getKey())
          .that(help)
          .containsMatch("(?m)^Examples[^\\n]*:$");
      // A comma-separated list option reads --x=N[,N...], not picocli's N,...[,N,......].
      assertWithMessage("acf %s --help", e.getKey()).that(help).doesNotContain("...[");
      for (int i = 0; i < footer.length; i++) {
        String line = footer[i];
        boolean example = line.startsWith("  ");
        boolean continued =
            i + 1 < footer.length && !footer[i + 1].isEmpty() && !footer[i + 1].startsWith("  ");
        // picocli wraps a long line at 80 columns: fine for a paragraph written as one line,
        // but a command example, or a hand-broken prose line followed by its continuation,
        // comes out ragged.
        if (example || continued) {
          assertWithMessage("acf %s footer line: %s", e.getKey(), line)
              .that(line.length())
              .isAtMost(80);
        }
      }
    }
  }

  @Test
  void aUsageErrorIsAShortMessageWithTheSynopsisNotTheWholeHelp() {
    ConfigCommandTest.Result r = ConfigCommandTest.acf("run");
    assertThat(r.status()).isEqualTo(ExitStatus.USAGE);
    assertThat(r.stderr())
        .startsWith("acf: Missing required parameter: 'PROGRAM'\nUsage: acf run ");
    assertThat(r.stderr()).endsWith("Run `acf run --help` for the options and examples.\n");
    assertThat(r.stderr()).doesNotContain("Examples");
    assertThat(r.stderr().split("\n").length).isLessThan(12);

    r = ConfigCommandTest.acf("run", "--max-insns", "abc", "prog");
    assertThat(r.status()).isEqualTo(ExitStatus.USAGE);
    assertThat(r.stderr()).startsWith("acf: Invalid value for option '--max-insns': 'abc'");

    // A misspelt command gets a suggestion.
    r = ConfigCommandTest.acf("chek", "x.acf");
    assertThat(r.status()).isEqualTo(ExitStatus.USAGE);
    assertThat(r.stderr()).contains("check");
    assertThat(r.stderr()).contains("Run `acf --help`");

    // No command at all is a usage error too, after the list of commands.
    r = ConfigCommandTest.acf();
    assertThat(r.status()).isEqualTo(ExitStatus.USAGE);
    assertThat(r.stderr()).contains("Commands:");
    assertThat(r.stderr()).endsWith("acf: no command given; see the list above\n");
  }

  @Test
  void disasmHelpExamplesShowCode() {
    String[] footer =
        Cli.commandLine().getSubcommands().get("disasm").getCommandSpec().usageMessage().footer();
    int run = 0;
    for (String line : footer) {
      if (!line.startsWith("  ./acf disasm ")) {
        continue;
      }
      java.util.List<String> args = new java.util.ArrayList<>();
      for (String w : line.substring("  ./acf ".length()).split(" +")) {
        args.add(w.startsWith("examples/") ? ConfigCommandTest.ROOT.resolve(w).toString() : w);
      }
      ConfigCommandTest.Result r = ConfigCommandTest.acf(args.toArray(String[]::new));
      assertWithMessage(line).that(r.status()).isEqualTo(0);
      // Instructions, not the zero padding before the text section (a little alignment
      // padding between functions is fine).
      long padding = r.stdout().lines().filter(l -> l.contains(".short\t0x0")).count();
      assertWithMessage(line).that(padding).isAtMost(r.stdout().lines().count() / 4);
      assertWithMessage(line).that(r.stdout()).containsMatch("\t(addi|auipc|jal|c\\.|mv|li)");
      run++;
    }
    assertThat(run).isAtLeast(2);
  }

  @Test
  void runEnvReplacesTheHostsValueAndRefusesABareName() {
    assertThat(System.getenv("PATH")).isNotNull();
    RunCommand run = new RunCommand();
    run.env = new java.util.ArrayList<>(java.util.List.of("PATH=/guest"));
    // The guest's getenv returns the first PATH=: the host's must not precede ours.
    assertThat(
            run.values().machine(Path.of("."), System.err).env().stream()
                .filter(v -> v.startsWith("PATH="))
                .toList())
        .containsExactly("PATH=/guest");

    ConfigCommandTest.Result r =
        ConfigCommandTest.acf("run", "--env", "FOO", ConfigCommandTest.PROGRAM);
    assertThat(r.status()).isEqualTo(ExitStatus.USAGE);
    assertThat(r.stderr()).isEqualTo("acf: --env FOO: expected NAME=VALUE\n");
  }

  @Test
  void versionNamesTheTool() {
    CheckFmtCommandTest.Run r = CheckFmtCommandTest.run("--version");
    assertThat(r.status()).isEqualTo(0);
    assertThat(r.out()).startsWith("acf " + Version.VERSION);
  }

  @Test
  void diagnosticsAreColouredOnlyWhenAskedAndReadTheSameOtherwise(@TempDir Path dir)
      throws Exception {
    Path f = dir.resolve("bad.acf");
    Files.writeString(f, "P: T.OPCLASS == brnach => null, inc_0\n");
    var result = Frontend.standard().check(new SourceFile(f.toString(), Files.readString(f)), f);
    var ds = result.diagnostics().sorted();
    String plain = DiagnosticRenderer.renderAll(ds, false);
    String coloured = DiagnosticRenderer.renderAll(ds, true);
    assertThat(plain).doesNotContain("\u001b[");
    assertThat(coloured).contains("\u001b[1;31merror:\u001b[0m");
    // Stripping the escapes gives back exactly the plain text.
    assertThat(coloured.replaceAll("\u001b\\[[0-9;]*m", "")).isEqualTo(plain);
    // In tests stderr is a pipe, not a terminal: acf check prints no escapes.
    CheckFmtCommandTest.Run r = CheckFmtCommandTest.run("check", f.toString());
    assertThat(r.err()).doesNotContain("\u001b[");
    assertThat(Tty.isTerminal(2)).isFalse();
  }
}
