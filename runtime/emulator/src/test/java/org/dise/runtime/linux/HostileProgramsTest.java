package org.dise.runtime.linux;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ordinary programs and hostile system-call arguments ({@code src/test/sandbox/hostile.c}): each
 * must get the errno or signal Linux gives (compared with qemu-riscv64 where it runs), never an
 * internal error of the tool, and guest limits must hold like Linux's.
 */
class HostileProgramsTest {
  @TempDir Path cwd;

  private GuestRun.Result run(Sandbox s, String... args) throws Exception {
    GuestRun.Result r = GuestRun.ours(s, "hostile", args);
    assertWithMessage("%s", r).that(r.stderr()).doesNotContain("Exception");
    return r;
  }

  private GuestRun.Result run(String... args) throws Exception {
    return run(new Sandbox(cwd), args);
  }

  @Test
  void badArgumentsGetLinuxErrnosAsUnderQemu() throws Exception {
    GuestRun.Result ours = run("errnos");
    assertThat(ours.exit()).isEqualTo(0);
    // A 3 GiB file mapping is beyond the default address-space limit (qemu maps it).
    assertThat(ours.stdout().lines().toList())
        .containsAtLeast(
            "mmap-3g: ENOMEM",
            "read-neg: -1 errno=14",
            "writev-neg: -1 errno=22",
            "sigprocmask-size-neg: -1 errno=22",
            "mprotect-huge: -1 errno=12",
            "dup3-neg: -1 errno=9",
            "open-long: -1 errno=36",
            "brk-1t-moves: 0");
    assertThat(Files.exists(cwd.resolve("big.bin"))).isFalse();
    String missing = GuestRun.qemuMissing();
    Assumptions.assumeTrue(missing == null, missing);
    Path q = Files.createDirectory(cwd.resolve("q"));
    GuestRun.Result qemu = GuestRun.qemu(q, "hostile", "errnos");
    assertThat(withoutMmap3g(ours.stdout())).isEqualTo(withoutMmap3g(qemu.stdout()));
  }

  private static String withoutMmap3g(String s) {
    return s.lines()
        .filter(l -> !l.startsWith("mmap-3g") && !l.startsWith("lseek-pipe"))
        .collect(Collectors.joining("\n"));
  }

  @Test
  void stdioOnAPipeWorks() throws Exception {
    // fstat of a pipe ended in an internal NullPointerException.
    assertRuns("pipe-stdio", "through a pipe 42\nfifo: 1\n", 0);
  }

  @Test
  void writingToAPipeNobodyReadsKillsWithSigpipeUnlessIgnored() throws Exception {
    assertRuns("sigpipe", "before\n", 141);
    assertRuns("sigpipe-ign", "before\nwrite returned -1 errno 32\n", 0);
  }

  /** The hostile program run in {@code mode} prints {@code stdout} and ends with {@code exit}. */
  private void assertRuns(String mode, String stdout, int exit) throws Exception {
    GuestRun.Result r = run(mode);
    assertWithMessage("%s: stdout", mode).that(r.stdout()).isEqualTo(stdout);
    assertWithMessage("%s: exit status", mode).that(r.exit()).isEqualTo(exit);
  }

  @Test
  void aPipeHoldsWhatLinuxHoldsThenEagain() throws Exception {
    GuestRun.Result r = run("fill-pipe");
    assertThat(r.stdout()).isEqualTo("full after 65536 bytes: errno 11\n");
  }

  @Test
  void descriptorsStopAtRlimitNofile() throws Exception {
    GuestRun.Result r = run("nofile");
    assertThat(r.stdout())
        .isEqualTo("soft 1024 hard 1024\nopened 1021, then errno 24, last fd 1023\n");
    Sandbox s = new Sandbox(cwd);
    s.setLimits(s.limits().with("nofile=64"));
    assertThat(run(s, "nofile").stdout())
        .isEqualTo("soft 64 hard 64\nopened 61, then errno 24, last fd 63\n");
  }

  @Test
  void addressSpaceLimitGivesEnomemNotAToolFailure() throws Exception {
    Sandbox s = new Sandbox(cwd);
    s.setLimits(s.limits().with("as=64M"));
    assertThat(run(s, "rlimits").stdout()).contains("as 67108864 67108864\n");
    assertThat(run(s, "malloc", "32").stdout()).isEqualTo("malloc 32 MiB: ok\n");
    assertThat(run(s, "malloc", "100").stdout()).isEqualTo("malloc 100 MiB: NULL errno 12\n");
    // The default limit stays below the JVM's heap: a huge malloc fails in the guest.
    assertThat(run("malloc", "3500").stdout()).isEqualTo("malloc 3500 MiB: NULL errno 12\n");
  }

  @Test
  void instructionsCountWhileALoopRunsWithoutSystemCalls() throws Exception {
    // The progress line reads instret() from another thread; it stayed 0 until a system call.
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    org.dise.runtime.Machine m =
        org.dise.runtime.Machine.load(
            GuestRun.program("hostile"),
            List.of("spin", "40000000"),
            new org.dise.runtime.Machine.Options(
                new Sandbox(cwd), List.of(), 1, new java.io.PrintStream(out)));
    m.kernel().setStdio(1, null, out);
    java.util.concurrent.atomic.AtomicLong seen = new java.util.concurrent.atomic.AtomicLong();
    java.util.concurrent.atomic.AtomicBoolean running =
        new java.util.concurrent.atomic.AtomicBoolean(true);
    // The first non-zero count seen: a later reading may already be the final count (the run
    // can end between the read and the flag), the first one is taken while the loop runs.
    Thread sampler =
        new Thread(
            () -> {
              while (running.get() && seen.get() == 0) {
                seen.set(m.cpu().instret());
                Thread.onSpinWait();
              }
            });
    sampler.start();
    org.dise.runtime.Machine.Outcome o = m.run(-1);
    running.set(false);
    sampler.join();
    assertThat(o.exitStatus()).isEqualTo(0);
    assertThat(seen.get()).isGreaterThan(0L);
    assertThat(seen.get()).isLessThan(o.instructions());
  }

  @Test
  void aMaxInsnsLimitStillStopsExactly() throws Exception {
    org.dise.runtime.Machine m =
        org.dise.runtime.Machine.load(
            GuestRun.program("hostile"),
            List.of("spin", "40000000"),
            new org.dise.runtime.Machine.Options(
                new Sandbox(cwd),
                List.of(),
                1,
                new java.io.PrintStream(new java.io.ByteArrayOutputStream())));
    org.dise.runtime.Machine.Outcome o = m.run(45_000_001L);
    assertThat(o.reason()).isEqualTo(org.dise.runtime.cpu.StopReason.STEP_LIMIT);
    assertThat(o.instructions()).isEqualTo(45_000_001L);
  }

  @Test
  void limitSettingsAreCheckedWithClearMessages() {
    GuestLimits d = GuestLimits.defaults();
    assertThat(d.nofile()).isEqualTo(1024);
    assertThat(d.with("as=1G").addressSpace()).isEqualTo(1L << 30);
    assertThat(d.with("nofile=100").nofile()).isEqualTo(100);
    for (String bad :
        List.of(
            "as",
            "as=lots",
            "as=8G",
            "nofile=2",
            "nofile=-1",
            "cpu=3",
            "as=99999999999999999999G")) {
      IllegalArgumentException e =
          org.junit.jupiter.api.Assertions.assertThrows(
              IllegalArgumentException.class, () -> d.with(bad));
      assertWithMessage(bad).that(e.getMessage()).isNotEmpty();
    }
  }
}
