package org.dise.testsupport;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Optional host tools (qemu-riscv64, the cross compiler, objdump, chromium): a test that needs one
 * asks why it cannot run, and skips with that reason printed when there is one.
 */
public final class ExternalTool {
  private ExternalTool() {}

  /**
   * Why {@code command} (for example {@code qemu-riscv64 --version}) cannot be used, or null when
   * it runs and exits with status 0 within 30 seconds.
   */
  public static String missing(String... command) {
    String name = String.join(" ", command);
    try {
      Process p = new ProcessBuilder(List.of(command)).redirectErrorStream(true).start();
      p.getOutputStream().close();
      p.getInputStream().readAllBytes();
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return name + " did not finish in 30 s";
      }
      return p.exitValue() == 0 ? null : name + " failed (exit status " + p.exitValue() + ")";
    } catch (IOException e) {
      return command[0] + " not found on PATH: " + e.getMessage();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return name + " interrupted";
    }
  }

  /** {@link #missing} for {@code qemu-riscv64 --version}. */
  public static String qemuMissing() {
    return missing("qemu-riscv64", "--version");
  }

  /** Where Debian's libc6-riscv64-cross installs the RISC-V dynamic linker and libraries. */
  public static final java.nio.file.Path SYSROOT = java.nio.file.Path.of("/usr/riscv64-linux-gnu");

  /**
   * Why dynamically linked RISC-V programs cannot run here (no sysroot with the dynamic linker at
   * {@link #SYSROOT}), or null when they can.
   */
  public static String sysrootMissing() {
    java.nio.file.Path ld = SYSROOT.resolve("lib/ld-linux-riscv64-lp64d.so.1");
    return java.nio.file.Files.isRegularFile(ld)
        ? null
        : "no RISC-V sysroot: " + ld + " is missing (apt-get install libc6-riscv64-cross)";
  }
}
