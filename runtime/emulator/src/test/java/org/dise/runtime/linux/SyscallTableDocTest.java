package org.dise.runtime.linux;

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

  @TempDir Path cwd;

  @Test
  void specTableIsTheKernelsTable() {
    LinuxKernel k = new LinuxKernel(new Memory(), new Sandbox(cwd), System.err, "/x", 1);
    Golden.assertSection(SPEC, "syscalls", k.table().markdownTable());
  }
}
