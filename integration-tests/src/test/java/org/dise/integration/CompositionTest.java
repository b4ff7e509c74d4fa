package org.dise.integration;

import static com.google.common.truth.Truth.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.dise.compiler.Composition;
import org.dise.compiler.Frontend;
import org.dise.compiler.diag.DiagnosticRenderer;
import org.dise.compiler.diag.Diagnostics;
import org.dise.compiler.diag.SourceFile;
import org.dise.compiler.lower.Lowering;
import org.dise.compiler.sem.CheckedProgram;
import org.dise.integration.EngineEndToEndTest.Engine;
import org.dise.runtime.Machine;
import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.dise.ProfilingEngine;
import org.dise.runtime.sink.Sink;
import org.junit.jupiter.api.Test;

/**
 * Several ACF files active at once (Section 3.5, "merging ... overlapping profiles";
 * spec/engine.md, "Composition"): each profile is what it would be alone, the hardware is shared by
 * index, conflicting declarations are reported with both places, and merged replacement sequences
 * run in the documented order.
 */
class CompositionTest {
  /** The composed production set of {@code files} (name, text), or the rendered errors. */
  static Object compose(String... files) {
    Diagnostics diags = new Diagnostics();
    List<CheckedProgram> programs = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (int i = 0; i < files.length; i += 2) {
      Frontend.Result r =
          Frontend.standard().check(new SourceFile(files[i], files[i + 1]), Path.of(files[i]));
      r.diagnostics().all().forEach(diags::add);
      r.program().ifPresent(programs::add);
      names.add(files[i]);
    }
    Optional<ProductionSet> set =
        Composition.compose(programs, names, diags).flatMap(p -> Lowering.lower(p, diags));
    if (diags.errorCount() > 0) {
      return DiagnosticRenderer.renderAll(diags.sorted());
    }
    return set.orElseThrow();
  }

  record Run(String stdout, Machine machine, ProfilingEngine engine) {
    String profile(String sink) {
      for (Sink s : engine.sinks()) {
        if (s.name().equalsIgnoreCase(sink)) {
          return s.table(machine.symbols()).rows().toString();
        }
      }
      throw new AssertionError("no sink " + sink + " in " + engine.sinks());
    }
  }

  static Run run(Engine kind, ProductionSet set, String... args) throws Exception {
    Machine m = EngineEndToEndTest.load(List.of(args));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    m.kernel().setStdio(1, null, out);
    ProfilingEngine engine = kind.create(set);
    engine.install(m.cpu());
    m.run(-1);
    return new Run(out.toString(StandardCharsets.UTF_8), m, engine);
  }

  @OnEveryEngine
  void eachComposedProfileIsWhatItIsAlone(Engine kind) throws Exception {
    Run pairs = run(kind, (ProductionSet) compose("pairs.acf", EngineEndToEndTest.CALL_PAIRS), "3");
    Run methods =
        run(kind, (ProductionSet) compose("methods.acf", EngineEndToEndTest.METHODS), "3");
    Run both =
        run(
            kind,
            (ProductionSet)
                compose(
                    "pairs.acf",
                    EngineEndToEndTest.CALL_PAIRS,
                    "methods.acf",
                    EngineEndToEndTest.METHODS),
            "3");
    assertThat(both.profile("CallPair_handler")).isEqualTo(pairs.profile("CallPair_handler"));
    assertThat(both.profile("HotMethod_handler")).isEqualTo(methods.profile("HotMethod_handler"));
    assertThat(both.stdout()).isEqualTo(pairs.stdout());
    // Calls match both ACFs: one replacement (one stall) with both handler calls in it.
    assertThat(both.engine().cost().handlerCalls())
        .isEqualTo(pairs.engine().cost().handlerCalls() + methods.engine().cost().handlerCalls());
    assertThat(both.engine().cost().replacements())
        .isEqualTo(methods.engine().cost().replacements());
    assertThat(both.engine().cost().applicationInstructions())
        .isEqualTo(pairs.engine().cost().applicationInstructions());
  }

  /**
   * The rule: the parts before T.INSN of each ACF's sequence in ACF (command-line) order, T.INSN
   * once, then the parts after in ACF order. Each part shifts a digit into $dr0, so its final value
   * spells the order (the last ecall, exit_group, ends the run after its before-parts: ...1234 1234
   * 12, so 0x123412 in the low digits); the guest's output shows each ecall ran once.
   */
  @OnEveryEngine
  void mergedSequencesRunBeforePartsThenTheInstructionOnceThenAfterParts(Engine kind)
      throws Exception {
    String a =
        "A: T.OP == ecall => RA, null\n"
            + "RA: slli $dr0, $dr0, 4; addi $dr0, $dr0, 1; T.INSN; slli $dr0, $dr0, 4;"
            + " addi $dr0, $dr0, 3;\n";
    String b =
        "B: T.OP == ecall => RB, null\n"
            + "RB: slli $dr0, $dr0, 4; addi $dr0, $dr0, 2; T.INSN; slli $dr0, $dr0, 4;"
            + " addi $dr0, $dr0, 4;\n";
    Run plain = run(kind, (ProductionSet) compose("none.acf", "N: T.OP == ebreak => null\n"), "3");
    Run both = run(kind, (ProductionSet) compose("a.acf", a, "b.acf", b), "3");
    assertThat(both.stdout()).isEqualTo(plain.stdout());
    assertThat(both.machine().cpu().x[Cpu.DISE_REG_BASE] & 0xffffff).isEqualTo(0x123412L);
    Run reversed = run(kind, (ProductionSet) compose("b.acf", b, "a.acf", a), "3");
    assertThat(reversed.machine().cpu().x[Cpu.DISE_REG_BASE] & 0xffffff).isEqualTo(0x214321L);
  }

  @Test
  void aCounterDeclaredDifferentlyInTwoFilesIsAnErrorNamingBoth() {
    Object r =
        compose(
            "a.acf",
            "counter flag(index = 0, init = 1);\n" + EngineEndToEndTest.CALL_PAIRS,
            "b.acf",
            "counter flag(index = 0, init = 0);\n" + EngineEndToEndTest.METHODS);
    assertThat(r).isInstanceOf(String.class);
    assertThat((String) r).contains("b.acf:1:");
    assertThat((String) r).contains("counter 0 is declared with width");
    assertThat((String) r).contains("a.acf:1:");
  }

  @Test
  void aSinkNameBoundDifferentlyIsRenamedAndBothProfilesKept() throws Exception {
    String a =
        "sink S = region_counter(cost = 1);\n"
            + "P: T.OPCLASS == branch => R, null\nR: call(S, T.INSN); T.INSN;\n";
    String b =
        "sink S = method_counter(cost = 2);\n"
            + "Q: T.OPCLASS == proc_call => R, null\nR: call(S, T.INSN); T.INSN;\n";
    ProductionSet set = (ProductionSet) compose("a.acf", a, "b.acf", b);
    assertThat(set.sinks().stream().map(s -> s.name() + "=" + s.component()).toList())
        .containsExactly("S=region_counter", "S@b=method_counter")
        .inOrder();
    Run r = run(Engine.INTERPRETED, set, "3");
    assertThat(r.profile("S")).contains("0x");
    assertThat(r.profile("S@b")).contains("leaf");
  }

  @Test
  void aTaggedSinkBoundDifferentlyIsRenamedInTheTagToo() throws Exception {
    String a = "sink V = value_profile(slots = 8);\nP: T.OPCLASS == load => tag(V)\n";
    String b = "sink V = value_profile(slots = 16);\nQ: T.OPCLASS == load => tag(V)\n";
    ProductionSet set = (ProductionSet) compose("a.acf", a, "b.acf", b);
    assertThat(set.sinks().stream().map(s -> s.name()).toList())
        .containsExactly("V", "V@b")
        .inOrder();
    assertThat(set.productions().stream().map(p -> p.tag()).toList())
        .containsExactly(0, 1)
        .inOrder();
    Run r = run(Engine.INTERPRETED, set, "3");
    // Both co-processors saw every load (each keeps the exact profile of what it was tagged).
    assertThat(
            ((org.dise.runtime.profiles.sink.coproc.ValueProfiler) r.engine().sinks().get(0))
                .exact())
        .isEqualTo(
            ((org.dise.runtime.profiles.sink.coproc.ValueProfiler) r.engine().sinks().get(1))
                .exact());
  }

  @Test
  void theBudgetAppliesToTheComposedSet() {
    StringBuilder a = new StringBuilder();
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < 20; i++) {
      a.append("A").append(i).append(": T.OP == addi && T.IMM == ").append(i).append(" => null\n");
      b.append("B").append(i).append(": T.OP == addi && T.IMM == ").append(i).append(" => null\n");
    }
    assertThat(compose("a.acf", a.toString())).isInstanceOf(ProductionSet.class);
    Object r = compose("a.acf", a.toString(), "b.acf", b.toString());
    assertThat(r).isInstanceOf(String.class);
    assertThat((String) r).contains("32");
  }
}
