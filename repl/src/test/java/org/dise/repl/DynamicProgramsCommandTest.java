package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;
import static org.dise.repl.ConfigCommandTest.acf;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.dise.repl.common.ExitStatus;
import org.dise.testsupport.ExternalTool;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Dynamically linked programs through the commands a user types: {@code acf run} prints what
 * qemu-riscv64 -L prints, a hot call pair profile of each example built dynamically names libc's
 * functions ({@code NAME@libc.so.6}), {@code symbol(printf)} binds in libc, and {@code acf check
 * --program} and {@code acf disasm} say what a dynamic program's symbols cover.
 */
class DynamicProgramsCommandTest {
  static final Path ROOT = RepositoryRoot.path();
  static final Path DYN = ROOT.resolve("examples/programs/bin-dynamic");
  static final String PAIRS = ROOT.resolve("examples/acf/hot_call_pairs.acf").toString();

  private static String sysrootMissing;

  @BeforeAll
  static void findSysroot() {
    sysrootMissing = sysrootMissing(DynamicProgramsCommandTest.class);
  }

  /**
   * Why dynamically linked programs cannot run here, printed as the skip reason of {@code test}'s
   * tests, or null when they can.
   */
  static String sysrootMissing(Class<?> test) {
    String missing = ExternalTool.sysrootMissing();
    if (missing != null) {
      System.out.println(test.getSimpleName() + ": skipped: " + missing);
    }
    return missing;
  }

  /** Each example at its smallest size, with the arguments DifferentialTest gives it. */
  static Stream<List<String>> examples() {
    return Stream.of(
        List.of("phases", "1", "ABCD"),
        List.of("jpeg", "1"),
        List.of("adpcm", "1"),
        List.of("motion", "1"),
        List.of("lz77", "1"),
        List.of("mcf", "1"),
        List.of("interp", "1"),
        List.of("chess", "1"),
        List.of("arrays"),
        List.of("maps"),
        List.of("callstack"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("examples")
  void hotCallPairsOfEachDynamicExampleNameLibcFunctions(List<String> example, @TempDir Path dir)
      throws Exception {
    Assumptions.assumeTrue(sysrootMissing == null, sysrootMissing);
    String name = example.get(0);
    List<String> args = new ArrayList<>(List.of("run", "--acf", PAIRS, "--out", dir.toString()));
    args.add(DYN.resolve(name).toString());
    args.addAll(example.subList(1, example.size()));
    // (The guest's output is compared with qemu-riscv64 -L's in the emulator's DynamicLinkTest.)
    ConfigCommandTest.Result dynamic = acf(args.toArray(String[]::new));
    assertThat(dynamic.status()).isEqualTo(0);
    String csv = Files.readString(dir.resolve("CallPair_handler.csv"), StandardCharsets.UTF_8);
    assertThat(csv).containsMatch("(?m)^[^,]*,[A-Za-z_0-9]+@libc\\.so\\.6,");
  }

  @Test
  void runOfADynamicHelloPrintsWhatQemuPrints() throws Exception {
    Assumptions.assumeTrue(sysrootMissing == null, sysrootMissing);
    String qemuMissing = ExternalTool.qemuMissing();
    Assumptions.assumeTrue(qemuMissing == null, qemuMissing);
    String hello = DYN.resolve("hello").toString();
    // A process of its own, as ./acf runs it: the guest writes to the real standard output.
    Process a =
        new ProcessBuilder(
                AcfJvm.command(
                    List.of("--add-opens", "java.base/sun.nio.fs=ALL-UNNAMED"),
                    "run",
                    hello,
                    "one",
                    "two three"))
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    a.getOutputStream().close();
    String ours = new String(a.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(a.waitFor(120, TimeUnit.SECONDS)).isTrue();
    Process p =
        new ProcessBuilder(
                "qemu-riscv64", "-L", ExternalTool.SYSROOT.toString(), hello, "one", "two three")
            .redirectErrorStream(false)
            .start();
    p.getOutputStream().close();
    String qemu = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(ours).isEqualTo(qemu);
    assertThat(ours).startsWith("hello from RISC-V\nargc=3\n");
    assertThat(a.exitValue()).isEqualTo(p.exitValue());
  }

  @Test
  void symbolsOfLibcBindBeforeTheRunAndCheckSaysWhatItSearched(@TempDir Path dir) throws Exception {
    Assumptions.assumeTrue(sysrootMissing == null, sysrootMissing);
    Path acf = dir.resolve("printf.acf");
    Files.writeString(
        acf,
        String.join(
            "\n",
            "sink in_printf = region_counter(cost = 40);",
            "P1: T.PC >= symbol(printf) && T.PC < symbol_end(\"printf@libc.so.6\") => R1, null",
            "R1: call(in_printf, T.PC); T.INSN;",
            ""),
        StandardCharsets.UTF_8);
    String hello = DYN.resolve("hello").toString();
    ConfigCommandTest.Result check = acf("check", "--program", hello, acf.toString());
    assertThat(check.status()).isEqualTo(0);
    assertThat(check.stderr()).contains(hello + " is dynamically linked");
    assertThat(check.stderr()).contains("libc.so.6");

    ConfigCommandTest.Result run = acf("run", "--acf", acf.toString(), hello, "x");
    assertThat(run.status()).isEqualTo(0);
    assertThat(run.stderr()).contains("printf@libc.so.6");

    Path bad = dir.resolve("bad.acf");
    Files.writeString(
        bad,
        Files.readString(acf, StandardCharsets.UTF_8).replace("symbol(printf)", "symbol(prinft)"),
        StandardCharsets.UTF_8);
    // Not in the program or its start-up libraries: it may come with a library the program opens
    // later (LateSymbolsCommandTest), so the run goes on, warned at the start and at exit.
    ConfigCommandTest.Result waited = acf("run", "--acf", bad.toString(), hello);
    assertThat(waited.status()).isEqualTo(0);
    assertThat(waited.stderr()).contains("have no symbol `prinft`");
    assertThat(waited.stderr()).contains("did you mean `printf`?");
    assertThat(waited.stderr())
        .contains("warning: no library the program loaded defines `prinft`, so the productions");
    assertThat(waited.stderr()).contains("profile in_printf: 0 entries");
  }

  @Test
  void disasmNamesPltStubsAndSaysLibrariesBindAtRunTime() {
    Assumptions.assumeTrue(sysrootMissing == null, sysrootMissing);
    ConfigCommandTest.Result r = acf("disasm", DYN.resolve("hello").toString(), "-f", "main");
    assertThat(r.status()).isEqualTo(0);
    assertThat(r.stdout()).contains("<main>:");
    assertThat(r.stdout()).contains("<printf@plt>");
    assertThat(r.stderr()).contains("is dynamically linked");
    assertThat(r.stderr()).contains("(libc.so.6) bind at run time");
  }

  @Test
  void aSysrootThatIsNotADirectoryIsAUsageError(@TempDir Path dir) {
    ConfigCommandTest.Result r =
        acf("run", "--sysroot", dir.resolve("nowhere").toString(), DYN.resolve("hello").toString());
    assertThat(r.status()).isEqualTo(ExitStatus.USAGE);
    assertThat(r.stderr()).contains("--sysroot " + dir.resolve("nowhere") + ": no such directory");
  }
}
