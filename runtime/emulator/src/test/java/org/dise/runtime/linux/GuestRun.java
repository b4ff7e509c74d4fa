package org.dise.runtime.linux;

import java.nio.file.Path;
import java.util.List;
import org.dise.runtime.CapturedRun;
import org.dise.runtime.Machine;
import org.dise.testsupport.ExternalTool;
import org.dise.testsupport.QemuRun;
import org.dise.testsupport.RepositoryRoot;

/** Runs a guest program of the sandbox tests in-process or under qemu-riscv64, capturing all. */
final class GuestRun {
  static final Path ROOT = RepositoryRoot.path();
  static final Path PROGRAMS = ROOT.resolve("runtime/emulator/src/test/resources/sandbox");

  /** What a run produced. */
  record Result(String stdout, String stderr, int exit) {}

  private GuestRun() {}

  static Path program(String name) {
    return PROGRAMS.resolve(name + ".elf");
  }

  static Result ours(Sandbox sandbox, String program, String... args) throws Exception {
    CapturedRun r =
        CapturedRun.run(
            program(program),
            List.of(args),
            notices -> new Machine.Options(sandbox, List.of("PATH=/usr/bin:/bin"), 0x5eed, notices),
            2_000_000_000L);
    String report = r.outcome().report() == null ? "" : r.outcome().report();
    return new Result(r.stdout(), r.stderr() + report, r.outcome().exitStatus());
  }

  /** The reason qemu-riscv64 cannot be used, or null when it can. */
  static String qemuMissing() {
    return ExternalTool.qemuMissing();
  }

  static Result qemu(Path cwd, String program, String... args) throws Exception {
    QemuRun.Result q = QemuRun.run(cwd, null, QemuRun.PATH_ONLY, program(program), List.of(args));
    return new Result(q.stdout(), q.stderr(), q.exit());
  }
}
