package org.dise.runtime.linux;

import static com.google.common.truth.Truth.assertWithMessage;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.dise.runtime.mem.Memory;
import org.dise.testsupport.Golden;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * spec/emulator.md's table of system calls is the kernel's own {@link SyscallTable}: generated, and
 * this test fails when the two differ ({@code -Dacf.updateGolden=true} rewrites the table).
 */
class SyscallTableDocTest {
  static final Path SPEC = RepositoryRoot.path().resolve("spec/emulator.md");
  static final String BEGIN = "<!-- syscalls:begin -->\n";
  static final String END = "<!-- syscalls:end -->";

  @TempDir Path cwd;

  @Test
  void specTableIsTheKernelsTable() throws Exception {
    String text = Files.readString(SPEC, StandardCharsets.UTF_8);
    int b = text.indexOf(BEGIN);
    int e = text.indexOf(END);
    String table = text.substring(b + BEGIN.length(), e);
    LinuxKernel k = new LinuxKernel(new Memory(), new Sandbox(cwd), System.err, "/x", 1);
    String expected = k.table().markdownTable();
    if (Golden.updating()) {
      Files.writeString(
          SPEC,
          text.substring(0, b + BEGIN.length()) + expected + text.substring(e),
          StandardCharsets.UTF_8);
      return;
    }
    assertWithMessage("spec/emulator.md's system call table; rerun with -Dacf.updateGolden=true")
        .that(table)
        .isEqualTo(expected);
  }
}
