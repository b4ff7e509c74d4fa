package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;

import org.dise.repl.common.ExitStatus;
import org.dise.testsupport.Captured;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.api.Test;

/**
 * {@code acf run PROGRAM ARGS...} without options skips picocli's model (PlainRun) and must be
 * indistinguishable from the same command line parsed by picocli: output, messages, exit status.
 */
class PlainRunTest {
  static final String HELLO =
      RepositoryRoot.path().resolve("examples/programs/bin/hello").toString();

  @Test
  void appliesOnlyToARunWhoseFirstArgumentIsTheProgram() {
    assertThat(PlainRun.applies(new String[] {"run", HELLO})).isTrue();
    assertThat(PlainRun.applies(new String[] {"run", HELLO, "--stats", "-x"})).isTrue();
    assertThat(PlainRun.applies(new String[] {"run", "--stats", HELLO})).isFalse();
    assertThat(PlainRun.applies(new String[] {"run", "--help"})).isFalse();
    assertThat(PlainRun.applies(new String[] {"run", "@options.txt"})).isFalse();
    assertThat(PlainRun.applies(new String[] {"run", ""})).isFalse();
    assertThat(PlainRun.applies(new String[] {"run"})).isFalse();
    assertThat(PlainRun.applies(new String[] {"disasm", HELLO})).isFalse();
  }

  @Test
  void aPlainRunBehavesAsPicocliParsedIt() {
    // Arguments after the program are the guest's, even when they look like options.
    assertSame("run", HELLO, "a", "--stats", "-x");
    assertSame("run", HELLO);
  }

  @Test
  void aMissingOrUnrunnableProgramIsTheSameOneLineError() {
    Captured missing = assertSame("run", "/no/such/program");
    assertThat(missing.status()).isEqualTo(ExitStatus.FAILURE);
    assertThat(missing.stderr()).isEqualTo("acf: /no/such/program: no such file\n");
    Captured directory = assertSame("run", RepositoryRoot.path().resolve("examples").toString());
    assertThat(directory.status()).isEqualTo(ExitStatus.FAILURE);
    assertThat(directory.stderr()).contains("is a directory, not a program");
  }

  /** Runs a command line through Main's fast paths and through picocli: both must agree. */
  static Captured assertSame(String... args) {
    Captured plain = Captured.run(() -> Main.execute(args));
    Captured parsed = Captured.run(() -> Cli.commandLine().execute(args));
    assertThat(plain).isEqualTo(parsed);
    return plain;
  }
}
