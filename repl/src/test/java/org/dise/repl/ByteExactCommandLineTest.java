package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code acf run} in a fresh JVM under {@code LC_ALL=C} and a UTF-8 locale, with arguments,
 * environment, an --allow-write directory and file names holding bytes 0x80-0xff: the guest sees
 * the bytes typed and the host gets the bytes the guest wrote, as under qemu-riscv64 ({@code
 * runtime/emulator/src/test/sandbox/names.c}). Without the JDK's byte paths opened to acf, a name
 * the locale cannot hold is a clean EILSEQ, never an InvalidPathException. A working directory
 * named with such bytes is the guest's, exactly.
 */
class ByteExactCommandLineTest {
  static final Path ROOT = RepositoryRoot.path();
  static final Path NAMES = ROOT.resolve("runtime/emulator/src/test/resources/sandbox/names.elf");

  /** A shell line that starts acf in a fresh JVM; {@code opens} adds the launchers' option. */
  private static String acf(boolean opens) {
    return "'"
        + AcfJvm.java()
        + "' -Xss16m"
        + (opens ? " --add-opens java.base/sun.nio.fs=ALL-UNNAMED" : "")
        + " -cp '"
        + System.getProperty("java.class.path")
        + "' "
        + Main.class.getName();
  }

  /** Runs a bash script (ASCII, with $'\xNN' for the bytes) in {@code dir}; its stdout+stderr. */
  private static String bash(Path dir, String script) throws Exception {
    Process p =
        new ProcessBuilder("bash", "-c", script)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .start();
    byte[] out = p.getInputStream().readAllBytes();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    return new String(out, StandardCharsets.ISO_8859_1);
  }

  @ParameterizedTest
  @ValueSource(strings = {"C", "C.UTF-8"})
  void argumentsEnvironmentAndAllowedDirectoryKeepTheirBytes(String locale, @TempDir Path dir)
      throws Exception {
    String out =
        bash(
            dir,
            "mkdir $'b\\xe9' && env -i LC_ALL="
                + locale
                + " T_A=$'x\\xff\\x80y' T_B=é "
                + acf(true)
                + " run --env-from-host"
                + " --env T_C=$'\\xfe' --allow-write=$'b\\xe9' '"
                + NAMES
                + "' args $'a\\x80' $'a\\xff'"
                + " é '' && "
                + acf(true)
                + " run --allow-write $'b\\xe9' '"
                + NAMES
                + "' files $'b\\xe9' > files.out && mkdir $'c\\xe9' && cd $'c\\xe9' && "
                + acf(true)
                + " run '"
                + NAMES
                + "' files > ../cwd.out; echo status $?");
    assertThat(out)
        .startsWith(
            """
        arg: 61 80
        arg: 61 ff
        arg: c3 a9
        arg:
        """);
    assertThat(out).contains("env: 54 5f 41 3d 78 ff 80 79\n");
    assertThat(out).contains("env: 54 5f 42 3d c3 a9\n");
    assertThat(out).contains("env: 54 5f 43 3d fe\n");
    assertThat(out).endsWith("status 0\n");
    String files = Files.readString(dir.resolve("files.out"));
    assertThat(files).doesNotContain("failed");
    assertThat(files).contains("created: 6 entries\n  f 2: 61 80\n  f 2: 61 ff\n");
    assertThat(files).contains("cwd ends: 64 fe\n");
    // A working directory whose name the locale cannot hold (the JDK's user.dir is wrong there).
    assertThat(Files.readString(dir.resolve("cwd.out"))).isEqualTo(files);
    if (qemuPresent()) {
      String q = bash(dir, "mkdir q && cd q && qemu-riscv64 '" + NAMES + "' files");
      assertThat(files).isEqualTo(q);
    } else {
      System.out.println("qemu comparison skipped: qemu-riscv64 not on PATH");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"C", "C.UTF-8"})
  void withoutByteExactPathsANameTheLocaleCannotHoldIsEilseq(String locale, @TempDir Path dir)
      throws Exception {
    String out =
        bash(
            dir,
            "env -i LC_ALL="
                + locale
                + " "
                + acf(false)
                + " run '"
                + NAMES
                + "' files; echo status $?");
    assertThat(out).contains("create failed: errno 84 on: 61 80\n");
    assertThat(out).contains("so the call returned EILSEQ");
    assertThat(out).doesNotContain("Exception");
    assertThat(out).doesNotContain("internal error");
    assertThat(out).endsWith("status 0\n");
  }

  private static boolean qemuPresent() {
    try {
      Process p = new ProcessBuilder("qemu-riscv64", "--version").redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor() == 0;
    } catch (java.io.IOException | InterruptedException e) {
      return false;
    }
  }
}
