package org.dise.integration;

import static com.google.common.truth.Truth.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.dise.runtime.Machine;
import org.dise.runtime.cpu.StopReason;
import org.dise.runtime.dise.DiseEngine;
import org.junit.jupiter.api.Test;

/**
 * Hot reload ({@code EngineState.carryOver}, spec/engine.md "Changing the productions of a paused
 * program"): a changed production set installed into a paused program keeps the counters and sinks
 * it can, says what it reset, and the run goes on as if uninterrupted where nothing changed.
 */
class HotReloadTest {
  static final String PAIRS =
      "import profiles;\nuse hot_call_pairs;\n"
          + "counter kept(index = 1);\ncounter changed(index = 2, init = 5);\n"
          + "sink extra = method_counter(cost = 40);\n"
          + "Calls: T.OPCLASS == proc_call => Count, inc(kept)\nCount: call(extra, T.INSN); T.INSN;\n";

  /** The same pairs, counter 2 declared anew, `extra` rebound, and returns counted in 3. */
  static final String CHANGED =
      "import profiles;\nuse hot_call_pairs;\n"
          + "counter kept(index = 1);\ncounter changed(index = 2, init = 9);\n"
          + "sink extra = method_counter(cost = 50);\ncounter returns(index = 3);\n"
          + "Calls: T.OPCLASS == proc_call => Count, inc(kept)\nCount: call(extra, T.INSN); T.INSN;\n"
          + "Returns: T.OPCLASS == return => null, inc(returns)\n";

  record Paused(Machine machine, DiseEngine engine, ByteArrayOutputStream out) {}

  static Paused start(String acf) throws Exception {
    Machine m = ProfilesLibraryTest.load(EngineEndToEndTest.CALLS, List.of("4"));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    m.kernel().setStdio(1, null, out);
    DiseEngine e = new DiseEngine(EngineEndToEndTest.lower(acf));
    e.install(m.cpu());
    return new Paused(m, e, out);
  }

  @Test
  void aChangedSetKeepsWhatItCanAndTheRunGoesOnUnderIt() throws Exception {
    // The reference: one run under the first set, uninterrupted.
    Paused whole = start(PAIRS);
    assertThat(whole.machine().cpu().run(Long.MAX_VALUE)).isEqualTo(StopReason.EXITED);
    Map<String, Long> ownPairs =
        EngineEndToEndTest.ownPairs(whole.out().toString(StandardCharsets.UTF_8));

    Paused p = start(PAIRS);
    assertThat(p.machine().cpu().run(10_000)).isEqualTo(StopReason.STEP_LIMIT);
    long callsSoFar = p.engine().hps().value(1);
    assertThat(callsSoFar).isGreaterThan(0L);
    DiseEngine next = new DiseEngine(EngineEndToEndTest.lower(CHANGED));
    List<String> reset = next.carryOver(p.engine());
    next.install(p.machine().cpu()); // a new decode stage: every pattern folds again

    assertThat(reset)
        .containsExactly(
            "counter 2 restarts at 9 (its declaration changed; it was 5)",
            "sink extra starts empty (its component, parameters or cost changed)");
    assertThat(next.hps().value(1)).isEqualTo(callsSoFar);
    assertThat(next.sinks().get(sinkIndex(next, "CallPair_handler")))
        .isSameInstanceAs(p.engine().sinks().get(sinkIndex(p.engine(), "CallPair_handler")));
    assertThat(next.sinks().get(sinkIndex(next, "extra")))
        .isNotSameInstanceAs(p.engine().sinks().get(sinkIndex(p.engine(), "extra")));

    assertThat(p.machine().cpu().run(Long.MAX_VALUE)).isEqualTo(StopReason.EXITED);
    // The kept sink has the whole run's pairs, as the program counts them itself.
    assertThat(
            EngineEndToEndTest.profiledPairs(
                next.sinks().get(sinkIndex(next, "CallPair_handler")).table(p.machine().symbols())))
        .isEqualTo(ownPairs);
    // Counter 1 counted every call, before and after; the new production counted returns
    // decoded after the change, including returns decoded (and folded) before it.
    assertThat(next.hps().value(1)).isEqualTo(whole.engine().hps().value(1));
    assertThat(next.hps().value(3)).isGreaterThan(0L);
    assertThat(next.hps().value(3)).isLessThan(whole.engine().hps().value(1));
    // One application-instruction count across the change, the same as without it.
    assertThat(next.cost().applicationInstructions())
        .isEqualTo(whole.engine().cost().applicationInstructions());
    assertThat(next.cost().replacements()).isEqualTo(whole.engine().cost().replacements());
  }

  @Test
  void perSiteCountersGoOnAcrossAReload() throws Exception {
    // Code regions and hot methods translated from the first execution count in their sinks'
    // per-site counters (spec/emulator.md). A reload drops every translated unit; the units
    // translated again under the new engine must find the kept sinks' same counters, so the
    // profiles read as in one uninterrupted run, and a sink that starts empty starts from zero.
    String acf =
        "sink m = method_counter();\n"
            + "P: T.OPCLASS == branch => R, null\n"
            + "R: call(Branch_handler, T.INSN); call(m, T.INSN); T.INSN;\n";
    String changed = acf.replace("method_counter()", "method_counter(cost = 3)");
    Paused whole = startTranslated(acf);
    assertThat(whole.machine().cpu().run(Long.MAX_VALUE)).isEqualTo(StopReason.EXITED);
    assertThat(whole.engine().siteCallsEmitted()).isGreaterThan(10L);

    Paused p = startTranslated(acf);
    assertThat(p.machine().cpu().run(20_000)).isEqualTo(StopReason.STEP_LIMIT);
    DiseEngine next = new DiseEngine(EngineEndToEndTest.lower(changed));
    assertThat(next.carryOver(p.engine()))
        .containsExactly("sink m starts empty (its component, parameters or cost changed)");
    next.install(p.machine().cpu());
    assertThat(p.machine().cpu().run(Long.MAX_VALUE)).isEqualTo(StopReason.EXITED);
    assertThat(next.siteCallsEmitted()).isGreaterThan(10L);

    String regions = "Branch_handler";
    assertThat(rows(next, regions, p)).isEqualTo(rows(whole.engine(), regions, whole));
    // The new method sink saw only the second part: fewer taken branches, none more.
    long before = events(whole.engine(), "m", whole);
    long after = events(next, "m", p);
    assertThat(after).isGreaterThan(0L);
    assertThat(after).isLessThan(before);
  }

  /** As {@link #start}, translating every block from its first execution. */
  private static Paused startTranslated(String acf) throws Exception {
    Machine m = TranslatedProductionsTest.quietMachine(EngineEndToEndTest.CALLS, List.of("4"), 1);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    m.kernel().setStdio(1, null, out);
    DiseEngine e = new DiseEngine(EngineEndToEndTest.lower(acf));
    e.install(m.cpu());
    return new Paused(m, e, out);
  }

  private static List<List<String>> rows(DiseEngine e, String sink, Paused p) {
    return e.sinks().get(sinkIndex(e, sink)).table(p.machine().symbols()).rows();
  }

  /** The events column (invocations plus backward branches) of a method sink, summed. */
  private static long events(DiseEngine e, String sink, Paused p) {
    return rows(e, sink, p).stream().mapToLong(r -> Long.parseLong(r.get(3))).sum();
  }

  @Test
  void aSinkNoProductionBindsIsDroppedAndSaidSo() throws Exception {
    Paused p = start(PAIRS);
    p.machine().cpu().run(10_000);
    DiseEngine next =
        new DiseEngine(EngineEndToEndTest.lower("import profiles;\nuse hot_call_pairs;\n"));
    assertThat(next.carryOver(p.engine()))
        .contains("sink extra is gone with its profile (no production binds it now)");
  }

  private static int sinkIndex(DiseEngine e, String name) {
    for (int i = 0; i < e.sinks().size(); i++) {
      if (e.sinks().get(i).name().equals(name)) {
        return i;
      }
    }
    throw new AssertionError("no sink " + name);
  }
}
