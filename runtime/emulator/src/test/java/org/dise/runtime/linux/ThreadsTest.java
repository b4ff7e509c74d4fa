package org.dise.runtime.linux;

import static com.google.common.truth.Truth.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.dise.runtime.CapturedRun;
import org.dise.runtime.Machine;
import org.dise.runtime.cpu.StopReason;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Guest threads on one emulated core: the pthreads program of the differential suite gives its
 * invariants under any quantum, down to a switch every few instructions (inside LR/SC sequences and
 * between AMOs), and the same quantum gives the same run, instruction for instruction; a deadlock
 * stops the run with a report instead of hanging.
 */
class ThreadsTest {
  private static final Path THREADS =
      GuestRun.ROOT.resolve("runtime/emulator/src/test/resources/isa/threads.elf");

  @TempDir Path cwd;

  record Run(String stdout, String notices, Machine.Outcome outcome, long switches, Machine m) {}

  private Run run(Path program, long quantum, int translateThreshold) throws Exception {
    CapturedRun r =
        CapturedRun.run(
            program,
            List.of(),
            notices ->
                new Machine.Options(new Sandbox(cwd), List.of(), 0x5eed, notices)
                    .withQuantum(quantum)
                    .withTranslateThreshold(translateThreshold),
            500_000_000L);
    return new Run(
        r.stdout(),
        r.stderr(),
        r.outcome(),
        r.machine().kernel().threads().switches(),
        r.machine());
  }

  private static String expectedStdout() throws Exception {
    String e =
        Files.readString(
            GuestRun.ROOT.resolve("runtime/emulator/src/test/resources/isa/threads.expected"));
    return e.substring(0, e.indexOf("--- stderr\n"));
  }

  @Test
  void invariantsHoldWhenThreadsSwitchEverySevenInstructions() throws Exception {
    Run r = run(THREADS, 7, Machine.Options.DEFAULT_TRANSLATE_THRESHOLD);
    assertThat(r.outcome().reason()).isEqualTo(StopReason.EXITED);
    assertThat(r.stdout()).isEqualTo(expectedStdout());
    assertThat(r.switches()).isGreaterThan(100_000L);
  }

  @Test
  void theSameQuantumGivesTheSameRunAndAnotherQuantumAnotherSchedule() throws Exception {
    Run a = run(THREADS, 1000, Machine.Options.DEFAULT_TRANSLATE_THRESHOLD);
    Run b = run(THREADS, 1000, Machine.Options.DEFAULT_TRANSLATE_THRESHOLD);
    assertThat(a.stdout()).isEqualTo(expectedStdout());
    assertThat(b.outcome().instructions()).isEqualTo(a.outcome().instructions());
    assertThat(b.switches()).isEqualTo(a.switches());
    // Interpreted only: where switches fall does not depend on what was translated.
    Run c = run(THREADS, 1000, 0);
    assertThat(c.outcome().instructions()).isEqualTo(a.outcome().instructions());
    assertThat(c.switches()).isEqualTo(a.switches());
    Run d = run(THREADS, 997, Machine.Options.DEFAULT_TRANSLATE_THRESHOLD);
    assertThat(d.stdout()).isEqualTo(expectedStdout());
    assertThat(d.switches()).isNotEqualTo(a.switches());
  }

  @Test
  void aDeadlockStopsTheRunWithTheBlockedThreads() throws Exception {
    Run r = run(GuestRun.program("deadlock"), Machine.Options.DEFAULT_QUANTUM, 50);
    assertThat(r.outcome().reason()).isEqualTo(StopReason.DEADLOCK);
    assertThat(r.outcome().exitStatus()).isEqualTo(1);
    assertThat(r.stdout()).isEqualTo("both hold one lock\n");
    assertThat(r.outcome().report()).startsWith("deadlock: every thread of the guest is blocked");
    assertThat(r.outcome().report()).contains("thread 1000: futex wait on 0x");
    assertThat(r.outcome().report()).contains("thread 1001: futex wait on 0x");
    assertThat(r.outcome().report()).contains("in __lll_lock_wait");
  }

  @Test
  void aSingleThreadedProgramNeverHasAScheduler() throws Exception {
    Run r =
        run(
            GuestRun.ROOT.resolve("examples/programs/bin/hello"),
            Machine.Options.DEFAULT_QUANTUM,
            50);
    assertThat(r.outcome().reason()).isEqualTo(StopReason.EXITED);
    assertThat(r.m().cpu().scheduler()).isNull();
  }
}
