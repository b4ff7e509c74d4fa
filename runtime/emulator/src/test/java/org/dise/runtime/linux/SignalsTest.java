package org.dise.runtime.linux;

import static com.google.common.truth.Truth.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.dise.runtime.CapturedRun;
import org.dise.runtime.Machine;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Signals where Linux, not qemu-riscv64, is the reference, and the determinism acf promises (the
 * differential programs {@code isa/sig_*.c} compare the rest with qemu): sa_mask is honoured, a
 * guest that waits for a signal nothing can send is stopped with a report, and timer signals land
 * at the same instruction whether the code is interpreted or translated.
 */
class SignalsTest {
  @TempDir Path cwd;

  private record Run(String stdout, String notices, int exit, long instructions, String report) {}

  private Run run(Path program, int translateThreshold, String... args) throws Exception {
    CapturedRun r =
        CapturedRun.run(
            program,
            List.of(args),
            notices ->
                new Machine.Options(
                    new Sandbox(cwd), List.of(), 0x5eed, notices, translateThreshold),
            500_000_000L);
    Machine.Outcome o = r.outcome();
    return new Run(r.stdout(), r.stderr(), o.exitStatus(), o.instructions(), o.report());
  }

  private Run run(String... args) throws Exception {
    return run(GuestRun.program("signals"), 50, args);
  }

  @Test
  void aSignalInTheHandlersMaskWaitsUntilTheHandlerReturns() throws Exception {
    assertThat(run("samask").stdout()).isEqualTo("usr2 ran 1, nested inside usr1 0\n");
  }

  @Test
  void waitingForASignalNothingCanSendStopsTheRunWithAReport() throws Exception {
    Run r = run("forever");
    assertThat(r.stdout()).isEqualTo("pausing\n");
    assertThat(r.exit()).isEqualTo(128 + 9);
    assertThat(r.report()).contains("waits for a signal that nothing can send");
    assertThat(r.report()).contains("guest fault (SIGKILL)");
    assertThat(r.report()).contains("in pause");
  }

  @Test
  void timerSignalsLandAtTheSameInstructionInterpretedAndTranslated() throws Exception {
    Run interpreted = run(GuestRun.program("signals"), 0, "ticks");
    Run translated = run(GuestRun.program("signals"), 1, "ticks");
    Run again = run(GuestRun.program("signals"), 50, "ticks");
    assertThat(interpreted.exit()).isEqualTo(0);
    assertThat(interpreted.stdout()).contains("tick 7 at spin ");
    assertThat(translated.stdout()).isEqualTo(interpreted.stdout());
    assertThat(again.stdout()).isEqualTo(interpreted.stdout());
    assertThat(translated.instructions()).isEqualTo(interpreted.instructions());
    assertThat(again.instructions()).isEqualTo(interpreted.instructions());
  }

  @Test
  void pendingSignalsAreDeliveredLowestFirstAndRealTimeOnesInTheOrderQueued() throws Exception {
    // Linux delivers one signal per return to user mode, the lowest-numbered first (qemu 7.2 stacks
    // every pending handler at once, so its order is reversed: the differential output leaves the
    // order out). SIGUSR2 (12), then SIGRTMIN (34) x3 in sigqueue order, then SIGRTMIN+1 (35) x2.
    Path isa = RepositoryRoot.path().resolve("runtime/emulator/src/test/resources/isa");
    Run r = run(isa.resolve("sig_restart.elf"), 50, "order");
    assertThat(r.exit()).isEqualTo(0);
    assertThat(r.stdout()).contains("\norder: 12/0 34/11 34/12 34/7 35/102 35/103\n");
    // The blocking calls it interrupts ran once each: the same run is the same count every time.
    assertThat(run(isa.resolve("sig_restart.elf"), 0, "order").instructions())
        .isEqualTo(r.instructions());
  }

  @Test
  void theIssueRowsRunAsOnLinux() throws Exception {
    Path isa = RepositoryRoot.path().resolve("runtime/emulator/src/test/resources/isa");
    Run handler = run(isa.resolve("sig_handler.elf"), 50);
    assertThat(handler.stdout())
        .startsWith("sigaction -> 0\nhandler: sig 10 signo 10 code -6 self-blocked 1");
    Run alarm = run(isa.resolve("sig_alarm.elf"), 50);
    assertThat(alarm.stdout()).startsWith("alarm(1) -> 0\npause -> -1 errno 4, alarms 1\n");
    assertThat(alarm.exit()).isEqualTo(128 + 14);
    assertThat(alarm.notices()).contains("guest killed by signal 14 (SIGALRM)");
  }
}
