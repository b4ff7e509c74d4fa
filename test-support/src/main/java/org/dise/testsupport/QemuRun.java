package org.dise.testsupport;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One run of a RISC-V program under {@code qemu-riscv64}, the reference the differential tests
 * compare the emulator with: the given environment only, stdin empty, stdout and stderr captured
 * whole, at most 120 s. Callers first skip, saying why, when {@link ExternalTool#qemuMissing} gives
 * a reason.
 */
public final class QemuRun {
  /** What qemu's run produced; a death by signal S is 128+S, as the shell reports it. */
  public record Result(String stdout, String stderr, int exit) {}

  /** The environment the differential tests give both emulators. */
  public static final List<String> PATH_ONLY = List.of("PATH=/usr/bin:/bin");

  private QemuRun() {}

  /**
   * Runs {@code program} with {@code args} in {@code cwd} under {@code env} (NAME=VALUE each);
   * {@code sysroot} is qemu's {@code -L} for a dynamically linked program (null: none).
   */
  public static Result run(
      Path cwd, Path sysroot, List<String> env, Path program, List<String> args) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add("qemu-riscv64");
    if (sysroot != null) {
      cmd.add("-L");
      cmd.add(sysroot.toString());
    }
    cmd.add(program.toString());
    cmd.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile());
    pb.environment().clear();
    for (String v : env) {
      int eq = v.indexOf('=');
      pb.environment().put(v.substring(0, eq), v.substring(eq + 1));
    }
    pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    // Outside cwd: a guest that lists its folder must not see qemu's own files.
    Path out = Files.createTempFile("qemu", ".out");
    Path err = Files.createTempFile("qemu", ".err");
    try {
      pb.redirectOutput(out.toFile());
      pb.redirectError(err.toFile());
      Process p = pb.start();
      if (!p.waitFor(120, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError(program.getFileName() + ": qemu did not finish in 120 s");
      }
      return new Result(
          Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8),
          p.exitValue());
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }
}
