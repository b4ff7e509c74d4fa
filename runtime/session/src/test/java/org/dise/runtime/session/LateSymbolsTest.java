package org.dise.runtime.session;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import org.dise.runtime.Machine;
import org.dise.runtime.cpu.StopReason;
import org.dise.runtime.dise.CounterSpec;
import org.dise.runtime.dise.DiseEngine;
import org.dise.runtime.dise.HardwareBudget;
import org.dise.runtime.dise.InsnField;
import org.dise.runtime.dise.MicroOp;
import org.dise.runtime.dise.PatternExpr;
import org.dise.runtime.dise.Production;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.dise.ReplacementInsn;
import org.dise.runtime.dise.ReplacementSequence;
import org.dise.runtime.dise.Slot;
import org.dise.runtime.dise.SymbolBinding;
import org.dise.runtime.dise.SymbolRef;
import org.dise.runtime.elf.ProgramSymbols;
import org.dise.runtime.linux.Sandbox;
import org.dise.testsupport.ExternalTool;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Symbols of a library the program opens later (spec/emulator.md, "Symbols of libraries opened
 * later"): {@link SymbolBinding#bindDeferring} leaves a pattern's absent symbol waiting and refuses
 * one elsewhere; a {@link DiseEngine} binds it when the library loads, in place, or at once when it
 * is installed in a process that has the library already (a forked child).
 */
class LateSymbolsTest {
  static final Path DYN =
      RepositoryRoot.path().resolve("runtime/emulator/src/test/resources/dynamic");

  private static final SymbolRef PLUG_SUM = new SymbolRef("plug_sum", false, "p.acf:1:10");

  /** {@code T.PC == symbol(NAME)} counting in counter {@code counter}. */
  private static Production entryOf(String name, SymbolRef ref, int counter) {
    return new Production(
        name,
        0,
        new PatternExpr.Binary(
            PatternExpr.BinaryOp.EQ,
            new PatternExpr.Field(InsnField.PC),
            new PatternExpr.SymbolAddr(ref)),
        List.of(MicroOp.inc(counter)),
        -1);
  }

  private static ProductionSet set(List<Production> productions, List<ReplacementSequence> rs) {
    return new ProductionSet(
        productions,
        rs,
        List.of(new CounterSpec(0, 16, 0), new CounterSpec(1, 16, 0)),
        List.of(),
        List.of(),
        List.of(),
        ProductionSet.DEFAULT_STALL_CYCLES,
        HardwareBudget.PAPER);
  }

  private static final ProgramSymbols STARTUP =
      new ProgramSymbols(
          List.of(
              new ProgramSymbols.Entry("main", 0x40000100L, 64, ProgramSymbols.Kind.FUNC, true),
              new ProgramSymbols.Entry(
                  "printf", 0xef000000L, 200, ProgramSymbols.Kind.FUNC, true)));

  @Test
  void anAbsentPatternSymbolWaitsAndTheOthersBind() {
    ProductionSet s =
        set(
            List.of(
                entryOf("Late", PLUG_SUM, 0),
                entryOf("Main", new SymbolRef("main", false, "p.acf:2:10"), 1)),
            List.of());
    SymbolBinding.Binding b = SymbolBinding.bindDeferring(s, STARTUP, "prog");
    assertThat(b.late()).containsExactly(PLUG_SUM);
    assertThat(b.set().patternSymbols()).containsExactly(PLUG_SUM);
    assertThat(b.set().productions().get(1).pattern())
        .isEqualTo(
            new PatternExpr.Binary(
                PatternExpr.BinaryOp.EQ,
                new PatternExpr.Field(InsnField.PC),
                new PatternExpr.Const(0x40000100L)));
    DiseEngine e = new DiseEngine(b.set());
    assertThat(e.unbound()).containsExactly(PLUG_SUM);
    // A library that defines it: bound in place.
    ProgramSymbols later =
        new ProgramSymbols(
            List.of(
                new ProgramSymbols.Entry(
                    "plug_sum", 0xee0005eaL, 88, ProgramSymbols.Kind.FUNC, true)));
    assertThat(e.rebind(STARTUP)).isFalse();
    assertThat(e.rebind(later)).isTrue();
    assertThat(e.unbound()).isEmpty();
    assertThat(e.rebind(later)).isFalse();
  }

  @Test
  void anAbsentSymbolOutsideAPatternIsRefused() {
    ReplacementSequence r =
        new ReplacementSequence(
            "R",
            List.of(
                new ReplacementInsn.LoadImmediate(
                    Slot.dise(0), Slot.symbol(new SymbolRef("plug_sum", false, "p.acf:3:8"))),
                new ReplacementInsn.Original()));
    ProductionSet s =
        set(
            List.of(
                new Production(
                    "P",
                    0,
                    new PatternExpr.ClassIs(org.dise.runtime.isa.OpClass.LOAD),
                    List.of(),
                    0)),
            List.of(r));
    SymbolBinding.UnresolvedSymbolsException x =
        assertThrows(
            SymbolBinding.UnresolvedSymbolsException.class,
            () -> SymbolBinding.bindDeferring(s, STARTUP, "prog"));
    assertThat(x.problems()).hasSize(1);
    assertThat(x.problems().get(0)).startsWith("p.acf:3:8: error: prog has no symbol `plug_sum`");
    assertThat(x.problems().get(0)).contains("may be named in a pattern only");
  }

  private static Machine dynDlopen(Path cwd) throws Exception {
    Sandbox sandbox = new Sandbox(cwd);
    sandbox.allowRead(DYN);
    PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
    Machine m =
        Machine.load(
            DYN.resolve("dyn_dlopen.elf"),
            List.of(),
            new Machine.Options(sandbox, List.of("PATH=/usr/bin:/bin"), 1, quiet));
    m.kernel().setStdio(1, null, OutputStream.nullOutputStream());
    m.kernel().setStdio(2, null, OutputStream.nullOutputStream());
    return m;
  }

  @Test
  void theEngineBindsWhenTheLibraryLoadsAndAtInstallWhenItIsThere(@TempDir Path cwd)
      throws Exception {
    String missing = ExternalTool.sysrootMissing();
    Assumptions.assumeTrue(missing == null, missing);
    Machine m = dynDlopen(cwd);
    ProductionSet s =
        SymbolBinding.bindDeferring(
                set(List.of(entryOf("Late", PLUG_SUM, 0)), List.of()),
                m.startupSymbols(),
                "dyn_dlopen")
            .set();
    DiseEngine e = new DiseEngine(s);
    e.install(m.cpu());
    assertThat(e.unbound()).containsExactly(PLUG_SUM);
    assertThat(m.run(2_000_000_000L).reason()).isEqualTo(StopReason.EXITED);
    assertThat(e.unbound()).isEmpty();
    assertThat(e.hps().value(0)).isEqualTo(3); // dyn_dlopen calls plug_sum 3 times

    // Installed in a process whose link map holds the library already (as a forked child's).
    DiseEngine child = new DiseEngine(s);
    child.install(m.cpu());
    assertThat(child.unbound()).isEmpty();
  }
}
