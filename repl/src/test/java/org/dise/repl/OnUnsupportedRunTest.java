package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;

import org.dise.repl.common.ExitStatus;
import org.dise.testsupport.Captured;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.api.Test;

/**
 * {@code acf run --on-unsupported}: a system call acf does not implement stops the run by default
 * with a report and status 159 (SIGSYS); {@code enosys} and {@code warn} let the guest see ENOSYS;
 * another value is a usage error.
 */
class OnUnsupportedRunTest {
  static final String PROGRAM =
      RepositoryRoot.path()
          .resolve("runtime/emulator/src/test/resources/sandbox/unsupported.elf")
          .toString();

  private static Captured acf(String... args) {
    return Captured.run(() -> Main.execute(args));
  }

  @Test
  void byDefaultTheRunStopsNamingTheCall() {
    Captured r = acf("run", PROGRAM);
    assertThat(r.status()).isEqualTo(159);
    assertThat(r.stderr()).contains("acf: guest fault (SIGSYS): system call io_setup(0x1, 0x");
    assertThat(r.stderr()).contains("is not implemented by acf");
  }

  @Test
  void enosysAndWarnLetTheGuestGoOn() {
    for (String policy : new String[] {"enosys", "warn"}) {
      Captured r = acf("run", "--on-unsupported", policy, PROGRAM);
      assertThat(r.status()).isEqualTo(3);
      assertThat(r.stderr()).contains("which acf does not implement; it returned ENOSYS");
    }
    Captured picocli = acf("run", "--stats", "--on-unsupported=enosys", PROGRAM);
    assertThat(picocli.status()).isEqualTo(3);
  }

  @Test
  void anUnknownPolicyIsAUsageError() {
    Captured r = acf("run", "--on-unsupported", "ignore", PROGRAM);
    assertThat(r.status()).isEqualTo(ExitStatus.USAGE);
    assertThat(r.stderr())
        .isEqualTo("acf: --on-unsupported ignore: expected fail, enosys or warn\n");
  }
}
