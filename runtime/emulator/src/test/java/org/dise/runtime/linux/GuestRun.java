package org.dise.runtime.linux;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.dise.runtime.Machine;
import org.dise.testsupport.ExternalTool;
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
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream notices = new PrintStream(err, true, StandardCharsets.UTF_8);
    Machine.Options options =
        new Machine.Options(sandbox, List.of("PATH=/usr/bin:/bin"), 0x5eed, notices);
    Machine m = Machine.load(program(program), List.of(args), options);
    m.kernel().setStdio(0, new ByteArrayInputStream(new byte[0]), null);
    m.kernel().setStdio(1, null, out);
    m.kernel().setStdio(2, null, err);
    Machine.Outcome o = m.run(2_000_000_000L);
    String report = o.report() == null ? "" : o.report();
    return new Result(
        out.toString(StandardCharsets.UTF_8),
        err.toString(StandardCharsets.UTF_8) + report,
        o.exitStatus());
  }

  /** The reason qemu-riscv64 cannot be used, or null when it can. */
  static String qemuMissing() {
    return ExternalTool.qemuMissing();
  }

  static Result qemu(Path cwd, String program, String... args) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add("qemu-riscv64");
    cmd.add(program(program).toString());
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile());
    pb.environment().clear();
    pb.environment().put("PATH", "/usr/bin:/bin");
    pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    Path out = Files.createTempFile("qemu", ".out");
    Path err = Files.createTempFile("qemu", ".err");
    try {
      pb.redirectOutput(out.toFile());
      pb.redirectError(err.toFile());
      Process p = pb.start();
      if (!p.waitFor(120, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError("qemu did not finish in 120 s");
      }
      return new Result(Files.readString(out), Files.readString(err), p.exitValue());
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }
}
