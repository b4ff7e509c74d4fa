package org.dise.integration;

import static com.google.common.truth.Truth.assertThat;

import java.util.Map;
import org.dise.integration.EngineEndToEndTest.Engine;
import org.dise.integration.RapEndToEndTest.Run;
import org.dise.runtime.dise.CostReport;
import org.dise.runtime.dise.DiseEngine;
import org.dise.runtime.profiles.sink.coproc.EdgeProfiler;
import org.dise.runtime.profiles.sink.coproc.SampledValueProfiler;
import org.dise.runtime.profiles.sink.coproc.ValueProfiler;
import org.junit.jupiter.api.Test;

/**
 * The profiling co-processor (coproc.acf, tag(sink)) on the program with known value distributions
 * (src/test/c/values.c): its invariance estimates fall within a stated tolerance of the truth, it
 * respects its memory bounds, tagging costs the main pipeline no replacement, and the engines
 * agree.
 */
class CoprocEndToEndTest {
  /** The loads of the value phases only (constant, alternating, skewed). */
  static String loads() throws Exception {
    return "("
        + RapEndToEndTest.inFunction("constant_loads")
        + " || "
        + RapEndToEndTest.inFunction("alternating_loads")
        + " || "
        + RapEndToEndTest.inFunction("skewed_loads")
        + ")";
  }

  static long pcOfLoadIn(Map<Long, Map<Long, Long>> exact, Run r, String function) {
    return exact.keySet().stream()
        .filter(
            pc ->
                r.machine().symbols().lookup(pc).map(s -> s.name().equals(function)).orElse(false))
        .findFirst()
        .orElseThrow();
  }

  @OnEveryEngine
  void invarianceEstimatesAreWithinTolerance(Engine kind) throws Exception {
    String acf =
        "sink v = value_profile(slots = 8, buffer = 8, service_cycles = 4);\n"
            + "P: T.OPCLASS == load && "
            + loads()
            + " => tag(v), null\n";
    Run r = RapEndToEndTest.run(kind, acf);
    ValueProfiler vp = (ValueProfiler) r.engine().sinks().get(0);
    Map<Long, Map<Long, Double>> est = vp.estimates();
    long constant = pcOfLoadIn(vp.exact(), r, "constant_loads");
    long alternating = pcOfLoadIn(vp.exact(), r, "alternating_loads");
    long skewed = pcOfLoadIn(vp.exact(), r, "skewed_loads");
    // The truth, from the exact profile of the same run.
    assertThat(vp.exact().get(constant)).containsExactly(42L, (long) RapEndToEndTest.N);
    assertThat(vp.exact().get(alternating).get(1000L)).isEqualTo(RapEndToEndTest.N / 2);
    // Tolerances: 2 points for the constant load, 10 for the alternating and skewed ones.
    assertThat(est.get(constant).get(42L)).isWithin(0.02).of(1.0);
    assertThat(est.get(alternating).get(1000L)).isWithin(0.10).of(0.5);
    assertThat(est.get(alternating).get(2000L)).isWithin(0.10).of(0.5);
    assertThat(est.get(skewed).get(7L)).isWithin(0.10).of(0.9);
    assertThat(vp.weightedRmsError()).isLessThan(10.0);
    // Memory bounds: the buffer never holds more than its entries.
    assertThat(vp.buffer().maxOccupancy()).isAtMost(8);
  }

  @Test
  void taggingCostsNoReplacementAndInterruptsAreCharged() throws Exception {
    String acf =
        "sink v = value_profile(slots = 8, interrupt_cycles = 1000, copy_cycles = 10);\n"
            + "P: T.OPCLASS == load && "
            + loads()
            + " => tag(v), null\n";
    Run r = RapEndToEndTest.run(Engine.INTERPRETED, acf);
    ValueProfiler vp = (ValueProfiler) r.engine().sinks().get(0);
    CostReport c = r.engine().cost();
    assertThat(c.replacements()).isEqualTo(0);
    assertThat(c.insertedInstructions()).isEqualTo(0);
    assertThat(c.stallCycles()).isEqualTo(0);
    assertThat(c.interrupts()).isGreaterThan(0L);
    assertThat(c.interruptCycles()).isEqualTo(1000 * c.interrupts() + 10 * vp.slotsCopied());
    assertThat(c.totalCycles()).isEqualTo(c.applicationInstructions() + c.interruptCycles());
    // A slow co-processor with a small buffer drops samples instead of stalling the program.
    Run slow =
        RapEndToEndTest.run(
            Engine.INTERPRETED,
            "sink v = value_profile(buffer = 2, service_cycles = 200);\n"
                + "P: T.OPCLASS == load && "
                + loads()
                + " => tag(v), null\n");
    ValueProfiler s = (ValueProfiler) slow.engine().sinks().get(0);
    assertThat(s.buffer().dropped()).isGreaterThan(0L);
    assertThat(s.buffer().maxOccupancy()).isAtMost(2);
    assertThat(slow.engine().cost().applicationInstructions())
        .isEqualTo(c.applicationInstructions());
  }

  @Test
  void theCoprocessorBeatsSimpleSamplingAtLowerOverhead() throws Exception {
    String filter = "T.OPCLASS == load && " + loads();
    Run co =
        RapEndToEndTest.run(
            Engine.INTERPRETED, "import coproc;\nP: " + filter + " => tag(load_values), null\n");
    Run sampled =
        RapEndToEndTest.run(
            Engine.INTERPRETED,
            "import coproc;\nP: " + filter + " => tag(sampled_load_values), null\n");
    ValueProfiler vp = (ValueProfiler) co.engine().sinks().get(0);
    SampledValueProfiler sp = (SampledValueProfiler) sampled.engine().sinks().get(0);
    assertThat(co.engine().cost().interruptCycles())
        .isLessThan(sampled.engine().cost().interruptCycles());
    assertThat(vp.weightedRmsError()).isAtMost(sp.weightedRmsError());
  }

  @Test
  void edgeProfilingIsASecondProgramOfTheSameHardware() throws Exception {
    Run r =
        RapEndToEndTest.run(
            Engine.INTERPRETED,
            "import coproc;\nP: T.OPCLASS == branch && "
                + RapEndToEndTest.inFunction("zero_loads")
                + " => tag(branch_edges), null\n");
    EdgeProfiler ep = (EdgeProfiler) r.engine().sinks().get(0);
    // zero_loads has a loop branch (taken N-1 times, falling through once) and the branch
    // that picks zeros[] or table[] on odd iterations.
    long profiled =
        ep.edges().values().stream()
            .flatMap(m -> m.values().stream())
            .mapToLong(Long::longValue)
            .sum();
    long exact =
        ep.exact().values().stream()
            .flatMap(m -> m.values().stream())
            .mapToLong(Long::longValue)
            .sum();
    assertThat(profiled).isAtMost(exact);
    assertThat(profiled).isGreaterThan(0L);
    for (Map.Entry<Long, Map<Long, Long>> e : ep.edges().entrySet()) {
      for (Map.Entry<Long, Long> t : e.getValue().entrySet()) {
        assertThat(t.getValue()).isAtMost(ep.exact().get(e.getKey()).get(t.getKey()));
      }
    }
  }

  @Test
  void aSinkThatTakesNoTagsIsRefusedByName() {
    // The compiler refuses it at the production (the catalogue says what takes tags)...
    org.dise.compiler.Frontend.Result r =
        org.dise.compiler.Frontend.standard()
            .check(
                new org.dise.compiler.diag.SourceFile(
                    "t.acf",
                    "sink r = call_pair_counter();\nP: T.OPCLASS == load => tag(r), null\n"),
                null);
    assertThat(r.diagnostics().sorted().get(0).headline())
        .startsWith(
            "t.acf:2:1: error:"
                + " production `P` tags instructions for `r`, a call_pair_counter, which takes no tagged"
                + " instructions");
    // ... and the runtime refuses a production set (a configuration) that tags for one.
    org.dise.runtime.dise.ProductionSet ok =
        EngineEndToEndTest.lower(
            "sink r = call_pair_counter();\nsink v = value_profile();\n"
                + "P: T.OPCLASS == load => tag(v), null\n");
    java.util.List<org.dise.runtime.dise.Production> ps = new java.util.ArrayList<>();
    for (org.dise.runtime.dise.Production p : ok.productions()) {
      ps.add(
          new org.dise.runtime.dise.Production(
              p.name(), p.acf(), p.pattern(), p.control(), p.replacement(), 0));
    }
    IllegalArgumentException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class,
            () ->
                new DiseEngine(
                    new org.dise.runtime.dise.ProductionSet(
                        ps,
                        ok.replacements(),
                        ok.counters(),
                        ok.hpsRegisters(),
                        ok.sinks(),
                        ok.triggers(),
                        ok.stallCycles(),
                        ok.budget())));
    assertThat(e)
        .hasMessageThat()
        .startsWith(
            "production `P` tags instructions for sink `r`,"
                + " a call_pair_counter, which takes no tagged instructions");
  }
}
