package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;
import static org.dise.repl.ConfigCommandTest.acf;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.dise.runtime.Machine;
import org.dise.runtime.elf.ProgramSymbols;
import org.dise.runtime.linux.Sandbox;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code symbol(NAME)} of a library the program opens later (dlopen) binds when the library loads
 * (issue 28, spec/emulator.md "Symbols of libraries opened later"): the same profile as the
 * library's constant addresses, code decoded and translated before the load matched again, a name
 * that never appears warned about at exit, and a waiting symbol outside a pattern refused. The
 * program is the emulator's dyn_dlopen, which dlopens libplug.so
 * (runtime/emulator/src/test/dynamic).
 */
class LateSymbolsCommandTest {
  static final Path DYN =
      RepositoryRoot.path().resolve("runtime/emulator/src/test/resources/dynamic");
  static final Path PROGRAM = DYN.resolve("dyn_dlopen.elf");

  /** dyn_dlopen's exit status: its sum modulo 100. */
  static final int EXIT = 50;

  /** Every test here runs dynamically linked programs. */
  @BeforeAll
  static void needsSysroot() {
    String missing = DynamicProgramsCommandTest.sysrootMissing(LateSymbolsCommandTest.class);
    Assumptions.assumeTrue(missing == null, missing);
  }

  private static ConfigCommandTest.Result run(String... more) {
    List<String> args = new ArrayList<>(List.of("run", "--allow-read", DYN.toString()));
    args.addAll(List.of(more));
    args.add(PROGRAM.toString());
    return acf(args.toArray(String[]::new));
  }

  private static Path write(Path dir, String name, String... lines) throws Exception {
    Path f = dir.resolve(name);
    Files.writeString(f, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
    return f;
  }

  /**
   * Where the dynamic linker puts plug_sum: a run of the program, as the emulator's API sees it.
   */
  private static ProgramSymbols.Entry plugSumAfterARun(Path cwd) throws Exception {
    Sandbox sandbox = new Sandbox(cwd);
    sandbox.allowRead(DYN);
    PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
    Machine m =
        Machine.load(
            PROGRAM,
            List.of(),
            new Machine.Options(sandbox, List.of("PATH=/usr/bin:/bin"), 1, quiet));
    m.kernel().setStdio(1, null, OutputStream.nullOutputStream());
    m.kernel().setStdio(2, null, OutputStream.nullOutputStream());
    m.run(2_000_000_000L);
    return m.programSymbols().lookup("plug_sum@libplug.so").orElseThrow();
  }

  @Test
  void aDlopenedFunctionCountsAsItsConstantAddressDoes(@TempDir Path dir) throws Exception {
    ProgramSymbols.Entry plugSum = plugSumAfterARun(dir);
    String body = "R1: call(in_plug, T.PC); T.INSN;";
    Path bySymbol =
        write(
            dir,
            "symbol.acf",
            "sink in_plug = region_counter(cost = 40);",
            "P1: T.PC >= symbol(plug_sum) && T.PC < symbol_end(plug_sum) => R1, null",
            body);
    Path byAddress =
        write(
            dir,
            "address.acf",
            "sink in_plug = region_counter(cost = 40);",
            String.format(
                "P1: T.PC >= 0x%x && T.PC < 0x%x => R1, null", plugSum.address(), plugSum.end()),
            body);

    ConfigCommandTest.Result late = run("--acf", bySymbol.toString());
    ConfigCommandTest.Result fixed = run("--acf", byAddress.toString());
    assertThat(late.status()).isEqualTo(EXIT);
    assertThat(fixed.status()).isEqualTo(EXIT);
    assertThat(late.stderr())
        .contains(
            "symbol.acf:2:13: warning: "
                + PROGRAM
                + " and the libraries it maps at start-up have no symbol `plug_sum`");
    // The profile (every pc of plug_sum, its calls and instructions) and the costs, identical.
    assertThat(ConfigCommandTest.profile(late.stderr()))
        .isEqualTo(ConfigCommandTest.profile(fixed.stderr()));
    // dyn_dlopen calls plug_sum 3 times; each call runs its loop 100 times.
    assertThat(late.stderr())
        .containsMatch(String.format("0x%x\\s+plug_sum@libplug\\.so\\s+3\\s", plugSum.address()));
    assertThat(late.stderr()).doesNotContain("matched nothing");
  }

  @Test
  void codeDecodedAndTranslatedBeforeTheLoadIsMatchedAgain(@TempDir Path dir) throws Exception {
    // printf runs once before libplug.so is mapped and 4 times after: its entry was decoded (and,
    // at threshold 1, translated) while the second ACF's production could not match yet.
    Path all =
        write(
            dir,
            "all.acf",
            "sink all_printf = region_counter(cost = 1);",
            "P1: T.PC == symbol(printf) => R1, null",
            "R1: call(all_printf, T.PC); T.INSN;");
    Path after =
        write(
            dir,
            "after.acf",
            "sink late_printf = region_counter(cost = 1);",
            "P2: T.PC == symbol(printf) && symbol(plug_sum) != 0 => R2, null",
            "R2: call(late_printf, T.PC); T.INSN;");
    for (String threshold : List.of("1", "0")) {
      ConfigCommandTest.Result r =
          run(
              "--translate-threshold",
              threshold,
              "--acf",
              all.toString(),
              "--acf",
              after.toString());
      assertThat(r.status()).isEqualTo(EXIT);
      assertThat(count(r.stderr(), "all_printf")).isEqualTo(5);
      assertThat(count(r.stderr(), "late_printf")).isEqualTo(4);
    }
  }

  /** The count of the one row of sink {@code sink}'s profile (printf's entry). */
  private static long count(String stderr, String sink) {
    Matcher m =
        Pattern.compile(
                "profile "
                    + sink
                    + ": 1 entries.*\\n.*\\n\\s*0x[0-9a-f]+\\s+printf@libc\\.so\\.6\\s+(\\d+)\\s")
            .matcher(stderr);
    assertThat(m.find()).isTrue();
    return Long.parseLong(m.group(1));
  }

  @Test
  void aNameNoLibraryDefinesIsWarnedAboutAtStartAndAtExit(@TempDir Path dir) throws Exception {
    Path typo =
        write(
            dir,
            "typo.acf",
            "sink in_plug = region_counter(cost = 40);",
            "P1: T.PC == symbol(plug_sm) => R1, null",
            "R1: call(in_plug, T.PC); T.INSN;");
    ConfigCommandTest.Result r = run("--acf", typo.toString());
    assertThat(r.status()).isEqualTo(EXIT);
    assertThat(r.stderr()).contains("have no symbol `plug_sm`");
    assertThat(r.stderr())
        .contains(
            "typo.acf:2:13: warning: no library the program loaded defines `plug_sm`, so the"
                + " productions naming symbol(plug_sm) matched nothing");
    assertThat(r.stderr()).contains("profile in_plug: 0 entries");

    ConfigCommandTest.Result check = acf("check", "--program", PROGRAM.toString(), typo.toString());
    assertThat(check.status()).isEqualTo(0);
    assertThat(check.stderr()).contains("warning: " + PROGRAM + " has no symbol `plug_sm`");
    assertThat(check.stderr()).contains("(dlopen) defines it");
  }

  @Test
  void aWaitingSymbolOutsideAPatternIsRefusedBeforeTheRun(@TempDir Path dir) throws Exception {
    Path acf =
        write(
            dir,
            "arg.acf",
            "sink byfn = count_map();",
            "P1: T.OPCLASS == proc_call => R1, null",
            "R1: call(byfn, symbol(plug_sum)); T.INSN;");
    ConfigCommandTest.Result r = run("--acf", acf.toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.stdout()).isEmpty();
    assertThat(r.stderr()).contains("has no symbol `plug_sum`");
    assertThat(r.stderr()).contains("may be named in a pattern only");
    assertThat(r.stderr()).contains("nothing was run");
  }
}
