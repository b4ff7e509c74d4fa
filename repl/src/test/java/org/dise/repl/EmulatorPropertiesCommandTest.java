package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dise.testsupport.Captured;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.api.Test;

/**
 * A bad {@code -Dacf.*} property stops {@code acf} before the run with one line naming it and the
 * usage status, never an error from inside a class's initialisation; an unknown one is a warning
 * and the run goes on (spec/emulator.md, "System properties"). In a fresh JVM, since the knobs are
 * read once per process.
 */
class EmulatorPropertiesCommandTest {
  private static final Path HELLO = RepositoryRoot.resolve("examples/programs/bin/hello");

  private static Captured acf(String property, String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(AcfJvm.java());
    command.add("-Xss16m");
    command.add(property);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(Main.class.getName());
    command.addAll(List.of(args));
    return Captured.process(command, RepositoryRoot.path(), 120);
  }

  /** A run of hello with {@code property}: refused with the usage status and only this line. */
  private static void refused(String property, String line) throws Exception {
    Captured c = acf(property, "run", HELLO.toString());
    assertThat(c.status()).isEqualTo(2);
    assertThat(c.stderr()).isEqualTo("acf: " + line + "\n");
    assertThat(c.stdout()).isEmpty();
  }

  @Test
  void aBadValueIsAUsageErrorNamingTheProperty() throws Exception {
    refused("-Dacf.unitRegs=foo", "-Dacf.unitRegs=foo: expected memory or locals (default memory)");
  }

  @Test
  void aValueOutOfRangeIsRefusedNotClamped() throws Exception {
    refused(
        "-Dacf.unitBytes=100",
        "-Dacf.unitBytes=100: expected a whole number from 500 to 8000 (default 4000)");
  }

  @Test
  void anUnknownNameIsAWarningAndTheRunGoesOn() throws Exception {
    Captured c = acf("-Dacf.unitReg=locals", "run", HELLO.toString());
    assertThat(c.status()).isEqualTo(0);
    assertThat(c.stdout()).startsWith("hello from RISC-V");
    assertThat(c.stderr()).contains("acf: warning: -Dacf.unitReg is not a property acf reads");
  }
}
