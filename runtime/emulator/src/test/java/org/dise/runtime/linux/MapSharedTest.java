package org.dise.runtime.linux;

import static com.google.common.truth.Truth.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.dise.runtime.Machine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the differential program {@code isa/mmap_shared.c} cannot see from inside the guest: a
 * MAP_SHARED mapping's stores reach the file when the process exits without msync or munmap (issue
 * 31).
 */
class MapSharedTest {
  @TempDir Path cwd;

  private String run(Path program, String arg) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream notices =
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    Machine m =
        Machine.load(
            program, List.of(arg), new Machine.Options(new Sandbox(cwd), List.of(), 1, notices));
    m.kernel().setStdio(0, new ByteArrayInputStream(new byte[0]), null);
    m.kernel().setStdio(1, null, out);
    Machine.Outcome o = m.run(100_000_000L);
    assertThat(o.exitStatus()).isEqualTo(0);
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void sharedStoresReachTheFileAtExit() throws Exception {
    run(GuestRun.program("exitmap"), "map");
    byte[] file = Files.readAllBytes(cwd.resolve("exit.bin"));
    assertThat(file).hasLength(4096);
    assertThat(new String(file, 0, 15, StandardCharsets.US_ASCII)).isEqualTo("written at exit");
  }
}
