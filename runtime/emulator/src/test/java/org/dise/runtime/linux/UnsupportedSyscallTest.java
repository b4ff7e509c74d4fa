package org.dise.runtime.linux;

import static com.google.common.truth.Truth.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.dise.runtime.CapturedRun;
import org.dise.runtime.Machine;
import org.dise.runtime.cpu.StopReason;
import org.dise.runtime.mem.Memory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A system call acf does not implement never passes silently (issue 28): by default the run stops
 * with a report naming the call and its arguments; with {@code enosys} or {@code warn} the guest
 * sees ENOSYS and the notice stream says so. Calls refused on purpose (rseq) and numbers riscv64
 * does not have answer ENOSYS in every mode, as Linux does.
 */
class UnsupportedSyscallTest {
  @TempDir Path cwd;

  private record Run(String stdout, String notices, int exit, StopReason reason, String report) {}

  private Run run(OnUnsupported policy) throws Exception {
    CapturedRun r =
        CapturedRun.run(
            GuestRun.program("unsupported"),
            List.of(),
            notices ->
                new Machine.Options(new Sandbox(cwd), List.of(), 0x5eed, notices)
                    .withOnUnsupported(policy),
            100_000_000L);
    Machine.Outcome o = r.outcome();
    return new Run(r.stdout(), r.stderr(), o.exitStatus(), o.reason(), o.report());
  }

  @Test
  void byDefaultTheRunStopsAtTheCallWithItsNameAndArguments() throws Exception {
    assertThat(Machine.Options.defaults().onUnsupported()).isEqualTo(OnUnsupported.FAIL);
    Run r = run(OnUnsupported.FAIL);
    assertThat(r.stdout()).isEqualTo("rseq       -> -1 errno 38\nnr 500     -> -1 errno 38\n");
    assertThat(r.reason()).isEqualTo(StopReason.FAULT);
    assertThat(r.exit()).isEqualTo(128 + 31);
    assertThat(r.report()).contains("guest fault (SIGSYS): system call io_setup(0x1, 0x");
    assertThat(r.report()).contains("[0] is not implemented by acf");
    assertThat(r.report()).contains("--on-unsupported=enosys");
    assertThat(r.report()).contains("instruction: 00000073  ecall");
  }

  @Test
  void enosysLetsTheGuestSeeEnosysAndReportsTheCallOnce() throws Exception {
    Run r = run(OnUnsupported.ENOSYS);
    assertThat(r.exit()).isEqualTo(3);
    assertThat(r.stdout())
        .isEqualTo(
            "rseq       -> -1 errno 38\nnr 500     -> -1 errno 38\n"
                + "io_setup   -> -1 errno 38\nio_setup   -> -1 errno 38\n");
    assertThat(r.notices()).contains("acf: guest made system call io_setup(0x1, 0x");
    assertThat(r.notices().split("io_setup", -1)).hasLength(2);
    assertThat(r.notices()).contains("system call 500, which riscv64 Linux does not have");
    assertThat(r.notices()).doesNotContain("rseq");
  }

  @Test
  void warnReportsEveryCall() throws Exception {
    Run r = run(OnUnsupported.WARN);
    assertThat(r.exit()).isEqualTo(3);
    assertThat(r.notices()).contains("io_setup(0x1, 0x");
    assertThat(r.notices()).contains("io_setup(0x2, 0x");
  }

  @Test
  void theNameTableKnowsEveryRiscv64CallByNumber() {
    assertThat(Syscall.name(103)).isEqualTo("setitimer");
    assertThat(Syscall.name(139)).isEqualTo("rt_sigreturn");
    assertThat(Syscall.name(258)).isEqualTo("riscv_hwprobe");
    assertThat(Syscall.name(435)).isEqualTo("clone3");
    assertThat(Syscall.of(38)).isNull(); // renameat: not on riscv64
    assertThat(Syscall.of(300)).isNull();
    assertThat(Syscall.of(-1)).isNull();
    assertThat(Syscall.values()).hasLength(324);
  }

  @Test
  void everyEntryOfTheTableIsANamedCallWithAStatus() {
    LinuxKernel k = new LinuxKernel(new Memory(), new Sandbox(cwd), System.err, "/x", 1);
    List<SyscallTable.Entry> all = k.table().all();
    assertThat(all).hasSize(Syscall.values().length);
    for (SyscallTable.Entry e : all) {
      if (e.status() == SyscallTable.Status.PARTIAL || e.status() == SyscallTable.Status.REFUSED) {
        assertThat(e.note()).isNotEmpty();
      }
      assertThat(e.handler() == null).isEqualTo(e.status() == SyscallTable.Status.UNSUPPORTED);
    }
    assertThat(k.table().lookup(Syscall.RSEQ.number).status())
        .isEqualTo(SyscallTable.Status.REFUSED);
  }

  @Test
  void aBadPolicyNamesTheAcceptedValues() {
    IllegalArgumentException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class, () -> OnUnsupported.parse("ignore"));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo("--on-unsupported ignore: expected fail, enosys or warn");
  }
}
