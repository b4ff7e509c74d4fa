package org.dise.runtime;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.dise.runtime.GuestComparison.Case;
import org.dise.runtime.GuestComparison.Result;
import org.dise.runtime.cpu.StopReason;
import org.dise.runtime.elf.ElfException;
import org.dise.runtime.elf.LinkMap;
import org.dise.runtime.linux.Sandbox;
import org.dise.runtime.linux.Sysroot;
import org.dise.testsupport.ExternalTool;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Dynamically linked programs (PT_INTERP) run with the dynamic linker and libraries of the sysroot,
 * as under {@code qemu-riscv64 -L /usr/riscv64-linux-gnu}: same stdout, stderr and exit status; the
 * libraries' functions are named in the symbol table once mapped; load addresses are the same on
 * every run. The programs are {@code src/test/dynamic/*.c} (built into {@code resources/dynamic})
 * and the example workloads built dynamically ({@code examples/programs/bin-dynamic}).
 */
class DynamicLinkTest {
  private static final Path DYN =
      GuestComparison.ROOT.resolve("runtime/emulator/src/test/resources/dynamic");
  private static final Path BIN = GuestComparison.ROOT.resolve("examples/programs/bin-dynamic");
  private static final long MAX_INSNS = 2_000_000_000L;

  private static String sysrootMissing;
  private static String qemuMissing;

  @BeforeAll
  static void findTools() {
    sysrootMissing = ExternalTool.sysrootMissing();
    if (sysrootMissing != null) {
      System.out.println("DynamicLinkTest: skipped: " + sysrootMissing);
    }
    qemuMissing = ExternalTool.qemuMissing();
    if (qemuMissing != null) {
      System.out.println("DynamicLinkTest: live comparisons skipped: " + qemuMissing);
    }
  }

  static Stream<Case> testPrograms() {
    return Stream.of(
        new Case("dyn_libc", DYN.resolve("dyn_libc.elf"), List.of()),
        new Case("dyn_dlopen", DYN.resolve("dyn_dlopen.elf"), List.of()));
  }

  /** Each example workload, dynamically linked, at a small size (as DifferentialTest's). */
  static Stream<Case> workloads() {
    return GuestComparison.workloads(
        BIN,
        new Case("arrays", BIN.resolve("arrays"), List.of()),
        new Case("maps", BIN.resolve("maps"), List.of()),
        new Case("callstack", BIN.resolve("callstack"), List.of()));
  }

  static Stream<Case> allCases() {
    return Stream.concat(testPrograms(), workloads());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("testPrograms")
  void matchesRecordedQemuOutput(Case c, @TempDir Path cwd) throws Exception {
    Assumptions.assumeTrue(sysrootMissing == null, sysrootMissing);
    String expected = Files.readString(DYN.resolve(c.name() + ".expected"), StandardCharsets.UTF_8);
    assertWithMessage("%s against %s.expected (qemu-riscv64 -L)", c, c.name())
        .that(ours(c, cwd).render())
        .isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("allCases")
  void matchesQemuLive(Case c, @TempDir Path cwd) throws Exception {
    Assumptions.assumeTrue(sysrootMissing == null, sysrootMissing);
    Assumptions.assumeTrue(qemuMissing == null, qemuMissing);
    Path ourCwd = Files.createDirectory(cwd.resolve("ours"));
    Path qemuCwd = Files.createDirectory(cwd.resolve("qemu"));
    ours(c, ourCwd).assertSameAs(GuestComparison.qemu(c, qemuCwd, ExternalTool.SYSROOT), c);
  }

  @Test
  void librariesAreNamedOnceMappedAndTheirAddressesAreTheSameOnEveryRun(@TempDir Path cwd)
      throws Exception {
    Assumptions.assumeTrue(sysrootMissing == null, sysrootMissing);
    Case c = new Case("dyn_dlopen", DYN.resolve("dyn_dlopen.elf"), List.of());
    Machine first = machine(c, cwd, new ByteArrayOutputStream(), new ByteArrayOutputStream());
    // Before the run: the program and its dynamic linker, nothing else.
    assertThat(names(first)).containsExactly("dyn_dlopen.elf", "ld-linux-riscv64-lp64d.so.1");
    assertThat(first.symbols().byName("main")).isPresent();
    assertThat(first.symbols().byName("printf@libc.so.6")).isEmpty();
    assertThat(first.run(MAX_INSNS).reason()).isEqualTo(StopReason.EXITED);
    assertThat(names(first))
        .containsExactly("dyn_dlopen.elf", "ld-linux-riscv64-lp64d.so.1", "libc.so.6", "libplug.so")
        .inOrder();
    // The table taken before the run has grown: the libraries' functions name their PCs.
    long printf = first.symbols().byName("printf@libc.so.6").orElseThrow().address();
    long plugSum = first.symbols().byName("plug_sum@libplug.so").orElseThrow().address();
    assertThat(first.symbols().describe(printf + 4)).isEqualTo("printf@libc.so.6+0x4");
    assertThat(first.linkMap().objectAt(plugSum).orElseThrow().name()).isEqualTo("libplug.so");
    // symbol(NAME): qualified, and a library's global by its plain name when the program has none.
    assertThat(first.programSymbols().lookup("plug_sum@libplug.so").orElseThrow().address())
        .isEqualTo(plugSum);
    assertThat(first.programSymbols().lookup("printf").orElseThrow().address()).isEqualTo(printf);
    assertThat(first.programSymbols().lookup("main")).isPresent();

    Machine second = machine(c, cwd, new ByteArrayOutputStream(), new ByteArrayOutputStream());
    second.run(MAX_INSNS);
    assertThat(biases(second)).isEqualTo(biases(first));
    // Below the dynamic linker, which sits at the top of the mmap area.
    LinkMap.LoadedObject ld = first.linkMap().objects().get(1);
    for (LinkMap.LoadedObject o : first.linkMap().objects().subList(2, 4)) {
      assertThat(o.bias()).isLessThan(ld.bias());
    }
  }

  @Test
  void withoutASysrootADynamicProgramIsRefusedWithAReason(@TempDir Path cwd) throws Exception {
    ElfException e = refusedWithSysroot(cwd, null);
    assertThat(e).hasMessageThat().contains("ld-linux-riscv64-lp64d.so.1");
    assertThat(e).hasMessageThat().contains("--sysroot");
  }

  @Test
  void aSysrootWithoutTheDynamicLinkerIsNamed(@TempDir Path cwd) throws Exception {
    ElfException e = refusedWithSysroot(cwd, Sysroot.at(cwd));
    assertThat(e).hasMessageThat().contains("not in the sysroot " + cwd.toRealPath());
  }

  /** Why loading dyn_libc with {@code sysroot} (null: none) fails. */
  private static ElfException refusedWithSysroot(Path cwd, Sysroot sysroot) {
    Sandbox s = new Sandbox(cwd);
    s.setSysroot(sysroot);
    return org.junit.jupiter.api.Assertions.assertThrows(
        ElfException.class,
        () ->
            Machine.load(
                DYN.resolve("dyn_libc.elf"),
                List.of(),
                new Machine.Options(s, GuestComparison.ENV, 1, System.err)));
  }

  private static List<String> names(Machine m) {
    return m.linkMap().objects().stream().map(LinkMap.LoadedObject::name).toList();
  }

  private static List<Long> biases(Machine m) {
    return m.linkMap().objects().stream().map(LinkMap.LoadedObject::bias).toList();
  }

  private static Machine machine(
      Case c, Path cwd, ByteArrayOutputStream out, ByteArrayOutputStream err) throws Exception {
    PrintStream notices = new PrintStream(err, true, StandardCharsets.UTF_8);
    Sandbox sandbox = new Sandbox(cwd);
    sandbox.allowRead(DYN); // dyn_dlopen's libplug.so, beside it
    Machine m =
        Machine.load(
            c.program(),
            c.args(),
            new Machine.Options(sandbox, GuestComparison.ENV, 0x5eed, notices));
    GuestComparison.captureStdio(m, out, err);
    return m;
  }

  private static Result ours(Case c, Path cwd) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Machine m = machine(c, cwd, out, err);
    return GuestComparison.run("DynamicLinkTest", c, m, MAX_INSNS, true, out, err);
  }
}
