package org.dise.runtime.linux;

import static com.google.common.truth.Truth.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.dise.runtime.Machine;
import org.dise.runtime.cpu.StopReason;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Guest processes: exec of a RISC-V program (which qemu-riscv64 cannot do on a host without
 * binfmt_misc, so the expected output is written here), ENOEXEC for anything else, the process
 * limit ending a fork bomb with EAGAIN, and system() without a RISC-V shell. fork, wait and pipes
 * are compared with qemu by DifferentialTest (processes.c).
 */
class ProcessesTest {
  private static final Path PROCESSES =
      GuestRun.ROOT.resolve("runtime/emulator/src/test/resources/isa/processes.elf");

  @TempDir Path cwd;

  record Run(String stdout, String notices, Machine.Outcome outcome, Machine m) {}

  private Run run(Path program, Sandbox sandbox) throws Exception {
    return run(program, sandbox, 500_000_000L);
  }

  private Run run(Path program, Sandbox sandbox, long maxInsns) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream notices = new PrintStream(err, true, StandardCharsets.UTF_8);
    Machine.Options options = new Machine.Options(sandbox, List.of(), 0x5eed, notices);
    Machine m = Machine.load(program, List.of(), options);
    m.kernel().setStdio(0, new ByteArrayInputStream(new byte[0]), null);
    m.kernel().setStdio(1, null, out);
    Machine.Outcome o = m.run(maxInsns);
    return new Run(
        out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8), o, m);
  }

  private Sandbox sandbox() {
    Sandbox s = new Sandbox(cwd);
    s.allowRead(GuestRun.PROGRAMS);
    return s;
  }

  @Test
  void execRunsTheRiscvProgramInTheSameProcessAndRefusesAnythingElse() throws Exception {
    Run r = run(GuestRun.program("exec"), sandbox());
    assertThat(r.stdout())
        .isEqualTo(
            "child: argc=3 arg2=two words env=yes fd3=closed\n"
                + "exec: exited=1 status=7\n"
                + "junk: rc=-1 errno=ENOEXEC\n"
                + "missing: rc=-1 errno=ENOENT\n"
                + "child: argc=2 arg2=- env=- fd3=closed\n");
    assertThat(r.outcome().exitStatus()).isEqualTo(7);
    assertThat(r.notices()).contains("acf: execve of ./not_a_program: not a program acf can run");
    assertThat(r.m().argv()).containsExactly(GuestRun.program("exec").toString(), "child");
  }

  @Test
  void theInstructionLimitBoundsTheWholeProcessTree() throws Exception {
    Run full = run(PROCESSES, sandbox());
    assertThat(full.outcome().reason()).isEqualTo(StopReason.EXITED);
    long first = full.m().cpu().instret();
    long tree = full.m().treeInstructions();
    assertThat(tree).isGreaterThan(first + 1000);
    // A limit the first process alone stays under, which the tree passes: the run stops there.
    long limit = first + (tree - first) / 2;
    Run cut = run(PROCESSES, sandbox(), limit);
    assertThat(cut.m().treeInstructions()).isAtMost(limit);
    assertThat(cut.m().treeInstructions()).isGreaterThan(limit - 100_000);
    boolean stopped = cut.outcome().reason() == StopReason.STEP_LIMIT;
    assertThat(stopped || cut.notices().contains("the instruction limit (--max-insns")).isTrue();
    if (stopped) {
      assertThat(cut.outcome().report()).contains("instructions of the process tree");
    }
    // The same limit stops at the same place every time.
    Run again = run(PROCESSES, sandbox(), limit);
    assertThat(again.m().treeInstructions()).isEqualTo(cut.m().treeInstructions());
    assertThat(again.stdout()).isEqualTo(cut.stdout());
  }

  @Test
  void aBlockedCallsEcallCountsOnce() throws Exception {
    // rdinstret around a read() of a pipe: the same count whether the data was there or the read
    // blocked until a child wrote it (the ecall runs again when the read may go on).
    Run r = run(GuestRun.program("blockcount"), sandbox());
    assertThat(r.stdout())
        .matches("read with data ready: (\\d+) instructions, read that blocked: \\1\n");
    assertThat(r.outcome().exitStatus()).isEqualTo(0);
  }

  @Test
  void aForkBombEndsInEagainAtTheProcessLimit() throws Exception {
    Run r = run(GuestRun.program("forkbomb"), sandbox());
    assertThat(r.stdout()).isEqualTo("processes=" + GuestLimits.DEFAULT_NPROC + " error=EAGAIN\n");
    Sandbox small = sandbox();
    small.setLimits(small.limits().with("nproc=5"));
    assertThat(run(GuestRun.program("forkbomb"), small).stdout())
        .isEqualTo("processes=5 error=EAGAIN\n");
  }

  @Test
  void systemWithoutARiscvShellReturns127AndSaysWhy() throws Exception {
    Run r = run(GuestRun.program("system"), sandbox());
    assertThat(r.stdout()).isEqualTo("system() returned 32512 (exited=1 status=127)\n");
    assertThat(r.notices()).contains("there is no RISC-V shell");
  }

  @Test
  void aProcessTreeRunsTheSameOnEveryRun() throws Exception {
    Run a = run(PROCESSES, new Sandbox(cwd));
    Run b = run(PROCESSES, new Sandbox(cwd));
    assertThat(a.outcome().reason()).isEqualTo(StopReason.EXITED);
    assertThat(a.stdout()).contains("tree: reaped=3 statuses=66 then=ECHILD\n");
    assertThat(b.stdout()).isEqualTo(a.stdout());
    List<Machine> kids = a.m().descendants();
    assertThat(kids).hasSize(12);
    assertThat(b.m().descendants()).hasSize(12);
    for (int i = 0; i < kids.size(); i++) {
      Machine x = kids.get(i);
      Machine y = b.m().descendants().get(i);
      assertThat(y.pid()).isEqualTo(x.pid());
      assertThat(y.cpu().instret()).isEqualTo(x.cpu().instret());
      assertThat(x.shellStatus()).isAtLeast(0); // every one ended
    }
    assertThat(b.outcome().instructions()).isEqualTo(a.outcome().instructions());
  }
}
