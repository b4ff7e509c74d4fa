package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.dise.repl.common.ExitStatus;
import org.dise.repl.common.GuestSettings;
import org.dise.repl.common.UserError;
import org.dise.repl.shell.ReplSession;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The run service that {@code acf run} and the REPL share: the same bad input gets the same message
 * from both (the CLI's {@code acf: MESSAGE}, the REPL's {@code error: MESSAGE}), with only the
 * option's name ({@code --env} / {@code :env}) and the consequence told apart.
 */
class RunServiceTest {
  private static final Path ROOT = RepositoryRoot.path();
  private static final String HELLO = ROOT.resolve("examples/programs/bin/hello").toString();
  private static final String ACF = ROOT.resolve("examples/acf/hot_call_pairs.acf").toString();

  @TempDir static Path dir;

  /** The CLI's arguments and the REPL's lines for one mistake. */
  record Case(String name, List<String> cli, List<String> repl) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() throws Exception {
    Path foreign = dir.resolve("foreign");
    Files.createDirectories(foreign);
    Files.writeString(foreign.resolve("notes.txt"), "mine\n");
    String missing = dir.resolve("no/such/folder").toString();
    return Stream.of(
        new Case("no such program", List.of("run", missing), List.of(":program " + missing)),
        new Case(
            "a folder as the program", List.of("run", dir.toString()), List.of(":program " + dir)),
        new Case("not an ELF", List.of("run", ACF), List.of(":program " + ACF)),
        new Case(
            "an environment variable without =",
            List.of("run", "--env", "HOME", HELLO),
            List.of(":env HOME")),
        new Case(
            "a limit out of range",
            List.of("run", "--limit", "nofile=2", HELLO),
            List.of(":limit nofile=2")),
        new Case(
            "an unknown limit",
            List.of("run", "--limit", "files=3", HELLO),
            List.of(":limit files=3")),
        new Case(
            "profiles into a folder of other files",
            List.of("run", "--acf", ACF, "--out", foreign.toString(), HELLO),
            List.of(":load " + ACF, ":program " + HELLO, ":run", ":out " + foreign)),
        new Case(
            "a configuration into a missing folder",
            List.of("compile", ACF, "-o", missing + "/pairs.dcfg"),
            List.of(":load " + ACF, ":save " + missing + "/pairs.dcfg")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void theCliAndTheReplReportAMistakeInTheSameWords(Case c) {
    DamagedInputTest.Run cli = DamagedInputTest.acf(c.cli().toArray(String[]::new));
    assertWithMessage("%s: acf %s", c, c.cli()).that(cli.status()).isNotEqualTo(0);
    String fromCli =
        cli.stderr()
            .lines()
            .filter(l -> l.startsWith("acf: "))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no acf: line in " + cli.stderr()))
            .substring("acf: ".length());
    ReplSession s = new ReplSession(ROOT);
    String last = "";
    for (String line : c.repl()) {
      last = s.execute(line);
    }
    String fromRepl =
        last.lines()
            .filter(l -> l.startsWith("error: "))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no error in " + c.repl() + ": " + s))
            .substring("error: ".length());
    assertThat(s.errors()).isEqualTo(1);
    assertWithMessage("%s", c).that(neutral(fromRepl)).isEqualTo(neutral(fromCli));
  }

  /** The message without what rightly differs: the option's spelling and the consequence. */
  private static String neutral(String message) {
    return message
        .replaceAll("(--|:)(env|limit|out) ", "OPTION ")
        .replace("nothing was written", "CONSEQUENCE")
        .replace("nothing was run", "CONSEQUENCE");
  }

  @Test
  void guestSettingsReplaceAVariableAndCheckLimitsWhenSet() {
    GuestSettings g =
        new GuestSettings().set("A=1", "--env").set("B=2", "--env").set("A=3", "--env");
    assertThat(g.env()).containsExactly("B=2", "A=3").inOrder();
    g.limit("nofile=16", "--limit");
    g.limit("nofile=32", "--limit");
    assertThat(g.limits()).containsExactly("nofile=32");
    UserError e =
        org.junit.jupiter.api.Assertions.assertThrows(
            UserError.class, () -> g.limit("as=1K", ":limit"));
    assertThat(e.getMessage()).startsWith(":limit as=1K: must be between 16M and 4G");
    assertThat(e.status()).isEqualTo(ExitStatus.USAGE);
    assertThat(g.options(dir, System.err).sandbox().limits().nofile()).isEqualTo(32);
  }
}
