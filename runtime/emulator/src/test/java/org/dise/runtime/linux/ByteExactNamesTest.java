package org.dise.runtime.linux;

import static com.google.common.truth.Truth.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.dise.runtime.Machine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Arguments, environment and file names with bytes 0x80-0xff reach the guest and the host file
 * system byte for byte ({@code src/test/sandbox/names.c}), as under qemu-riscv64: two names that
 * differ only in a byte that is not UTF-8 stay two files, and getdents64, readlink and getcwd give
 * back the host's bytes.
 */
class ByteExactNamesTest {
  @Test
  void argumentsAndEnvironmentReachTheGuestAsBytes(@TempDir Path dir) throws Exception {
    String a = SurrogateEscape.decode(new byte[] {'a', (byte) 0x80});
    String b = SurrogateEscape.decode(new byte[] {'a', (byte) 0xff});
    String env = SurrogateEscape.decode(new byte[] {'T', '_', 'A', '=', (byte) 0xfe, 'x'});
    String out = run(dir, List.of(env, "T_B=é"), "args", a, b, "é", "");
    assertThat(out)
        .isEqualTo(
            """
        arg: 61 80
        arg: 61 ff
        arg: c3 a9
        arg:
        env: 54 5f 41 3d fe 78
        env: 54 5f 42 3d c3 a9
        """);
  }

  @Test
  void fileNamesWithAnyBytesAreCreatedListedAndReadBackExactly(@TempDir Path root)
      throws Exception {
    Path ours = Files.createDirectories(root.resolve("ours"));
    String out = run(ours, List.of(), "files");
    assertThat(out).doesNotContain("failed");
    assertThat(out)
        .contains(
            "created: 6 entries\n  f 2: 61 80\n  f 2: 61 ff\n  f 1: 80\n"
                + "  f 2: c3 a9\n  f 3: e9 74 e9\n  f 3: ed b2 80\n");
    assertThat(out).contains("cwd ends: 64 fe\n");
    assertThat(out).contains("inside: 1 entries\n  f 4: 69 6e fe fd\n");
    assertThat(out).contains("link: 61 80\n  read: 6c f0\n  held: 61 80\n");
    // On the host, seen by a program that is not Java: the same bytes.
    assertThat(tree(ours))
        .isEqualTo(
            "d d\\376\nf \\200\nf \\303\\251\nf \\355\\262\\200\n"
                + "f a\\200\nf b\\376\nf d\\376/in\\376\\375\nl l\\360\n");

    String missing = GuestRun.qemuMissing();
    if (missing != null) {
      System.out.println("qemu comparison skipped: " + missing);
      return;
    }
    Path theirs = Files.createDirectories(root.resolve("qemu"));
    GuestRun.Result q = GuestRun.qemu(theirs, "names", "files");
    assertThat(out).isEqualTo(q.stdout());
    assertThat(tree(ours)).isEqualTo(tree(theirs));
  }

  private static String run(Path cwd, List<String> env, String... args) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Machine.Options options =
        new Machine.Options(
            new Sandbox(cwd), env, 0x5eed, new PrintStream(err, true, StandardCharsets.UTF_8));
    Machine m = Machine.load(GuestRun.program("names"), List.of(args), options);
    m.kernel().setStdio(0, new ByteArrayInputStream(new byte[0]), null);
    m.kernel().setStdio(1, null, out);
    m.kernel().setStdio(2, null, err);
    Machine.Outcome o = m.run(2_000_000_000L);
    assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
    assertThat(o.exitStatus()).isEqualTo(0);
    return out.toString(StandardCharsets.UTF_8);
  }

  /** The tree under {@code dir} as find(1) prints it: type and name, bytes above 0x7f octal. */
  private static String tree(Path dir) throws Exception {
    Process p =
        new ProcessBuilder("find", ".", "-mindepth", "1", "-printf", "%y %P\\n")
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .start();
    byte[] b = p.getInputStream().readAllBytes();
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    StringBuilder s = new StringBuilder();
    for (byte x : b) {
      s.append((x & 0xff) < 0x80 ? String.valueOf((char) x) : String.format("\\%03o", x & 0xff));
    }
    String[] lines = s.toString().split("\n");
    java.util.Arrays.sort(lines);
    return String.join("\n", lines) + "\n";
  }
}
