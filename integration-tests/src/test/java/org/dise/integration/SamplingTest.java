package org.dise.integration;

import static com.google.common.truth.Truth.assertThat;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.dise.runtime.Machine;
import org.dise.runtime.cpu.StopReason;
import org.dise.runtime.dise.DiseEngine;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.dise.ProfilingEngine;
import org.dise.runtime.dise.TriggerDriver;
import org.dise.runtime.profiles.sampling.SamplingRun;
import org.dise.runtime.profiles.sampling.Sweep;
import org.dise.runtime.trigger.ExhaustiveTrigger;
import org.dise.runtime.trigger.PeriodicTrigger;
import org.dise.runtime.trigger.PhasePredictor;
import org.dise.runtime.trigger.PhaseTracker;
import org.dise.runtime.trigger.TriggerSpec;
import org.junit.jupiter.api.Test;

/**
 * Sampling end to end (issue 5): the library's trigger productions, the trigger sources and the
 * phase tracker on real workloads, both engines, interpreted and translated code.
 */
class SamplingTest {
  static final Path PHASES = examples().resolve("examples/programs/bin/phases");

  /** Hot code regions under the external trigger of equations (1) and (2). */
  static final String REGIONS =
      "import sampling;\nuse external_trigger;\n"
          + "P1: T.OPCLASS == branch && zero_0 => R1, null\n"
          + "R1: call(Branch_handler, T.INSN); T.INSN;\n";

  static Path examples() {
    Path p = Path.of("").toAbsolutePath();
    while (p != null && !Files.exists(p.resolve("examples/programs"))) {
      p = p.getParent();
    }
    return p;
  }

  static Machine machine(Path program, int translateThreshold, String... args) {
    try {
      Machine m =
          TranslatedProductionsTest.quietMachine(program, List.of(args), translateThreshold);
      m.kernel().setStdio(1, null, OutputStream.nullOutputStream());
      return m;
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  static SamplingRun.Setup setup(String acf, Path program, String... args) {
    return setup(acf, Machine.Options.DEFAULT_TRANSLATE_THRESHOLD, program, args);
  }

  /** {@code acf} on {@code program}, blocks translated after {@code threshold} runs (0: never). */
  static SamplingRun.Setup setup(String acf, int threshold, Path program, String... args) {
    ProductionSet set = EngineEndToEndTest.lower(acf);
    return new SamplingRun.Setup() {
      @Override
      public Machine machine() {
        return SamplingTest.machine(program, threshold, args);
      }

      @Override
      public ProfilingEngine engine() {
        return new DiseEngine(set);
      }
    };
  }

  static TriggerSpec spec(String strategy) {
    return TriggerSpec.parse(strategy).with("interval", "1000000");
  }

  static List<Integer> collapse(List<?> xs, Map<Object, Integer> ids) {
    List<Integer> out = new ArrayList<>();
    for (Object x : xs) {
      int id = ids.computeIfAbsent(x, k -> ids.size());
      if (out.isEmpty() || out.get(out.size() - 1) != id) {
        out.add(id);
      }
    }
    return out;
  }

  @Test
  void phaseIdsFollowTheKnownSchedule() {
    // phases 4: blocks of about 4M instructions, schedule AABBACCADDBA, 1M intervals.
    SamplingRun.FirstPass first =
        SamplingRun.firstPass(
            setup(REGIONS, PHASES, "4"), spec("phase").with("threshold", "25"), -1);
    List<Integer> ids = new ArrayList<>();
    for (int i = 0; i < first.plan().intervals(); i++) {
      ids.add(first.plan().phase(i));
    }
    List<Character> letters = new ArrayList<>();
    for (char c : "AABBACCADDBA".toCharArray()) {
      letters.add(c);
    }
    // Same kernel, same ID; another kernel, another ID; in the schedule's order.
    assertThat(collapse(ids, new HashMap<>())).isEqualTo(collapse(letters, new HashMap<>()));
    assertThat(new HashSet<>(ids)).hasSize(4);
    assertThat(ids.size()).isAtLeast(47);
  }

  /** Only the codewords' productions: every inserted instruction is a codeword. */
  static final String CODEWORDS_ONLY = "import sampling;\nuse external_trigger;\n";

  static TriggerDriver onOffDriver(Machine m, ProfilingEngine engine) {
    engine.install(m.cpu());
    // Sampled, unsampled, sampled, ...: a codeword at every boundary.
    return new TriggerDriver(m, engine, new PeriodicTrigger(100_000, 2, 1), null);
  }

  @Test
  void maxInsnsEndingOnABoundaryRunsNoCodewordPastIt() {
    Machine m = machine(PHASES, 0, "1");
    ProfilingEngine engine = new DiseEngine(EngineEndToEndTest.lower(CODEWORDS_ONLY));
    TriggerDriver d = onOffDriver(m, engine);
    // The limit is used up exactly at the first boundary, so the next interval's codeword
    // must not run: one codeword and the first interval's 100,000 instructions.
    Machine.Outcome out = d.run(100_000);
    assertThat(out.reason()).isEqualTo(StopReason.STEP_LIMIT);
    assertThat(out.instructions()).isEqualTo(100_001L);
    assertThat(engine.injectedCodewords()).isEqualTo(1L);
    assertThat(d.intervals()).isEqualTo(1L);
    assertThat(d.length(0)).isEqualTo(100_000L);
    assertThat(out.report()).contains("100,000 application instructions");
  }

  @Test
  void maxInsnsStopsTheFirstPassAndTheSampledRunAtTheSameApplicationInstruction() {
    // The first pass (exhaustive: every branch replaced) inserts far more instructions than the
    // sampled run; counted in all instructions, the two passes would stop at different points
    // of the program and the oracle's plan would not cover the sampled run's intervals.
    // One inserted instruction per sampled branch.
    String counting = REGIONS.replace("R1: ", "R1: addi $dr0, $dr0, 1; ");
    SamplingRun.Setup setup = setup(counting, PHASES, "2");
    TriggerSpec oracle = spec("phase").with("predictor", "oracle");
    SamplingRun.FirstPass first = SamplingRun.firstPass(setup, oracle, 2_050_000);
    SamplingRun.Result r = SamplingRun.run(setup, oracle, true, first, 2_050_000);
    assertThat(r.outcome().reason()).isEqualTo(StopReason.STEP_LIMIT);
    assertThat((long) first.plan().intervals()).isEqualTo(r.driver().intervals());
    assertThat(r.driver().applicationInstructions()).isEqualTo(2_050_000L);
    assertThat(r.driver().intervals()).isEqualTo(3L);
  }

  @Test
  void aOneInstructionSliceRunsAnApplicationInstructionWithItsCodeword() {
    Machine m = machine(PHASES, 0, "1");
    ProfilingEngine engine = new DiseEngine(EngineEndToEndTest.lower(CODEWORDS_ONLY));
    TriggerDriver d = onOffDriver(m, engine);
    // :step in the REPL: the codeword goes with the instruction it was put before.
    long pc = m.cpu().pc;
    assertThat(d.advance(1)).isEqualTo(StopReason.STEP_LIMIT);
    assertThat(d.applicationInstructions()).isEqualTo(1L);
    assertThat(m.cpu().pc).isNotEqualTo(pc);
    // Resumed in slices, the run still ends intervals at exact boundaries.
    for (int i = 0; i < 1000 && d.applicationInstructions() < 250_000; i++) {
      d.advance(997);
    }
    assertThat(d.intervals()).isEqualTo(2L);
    assertThat(d.length(1)).isEqualTo(100_000L);
    assertThat(engine.injectedCodewords()).isEqualTo(3L);
  }

  @Test
  void aCodewordWhoseReplacementFaultsIsAGuestFaultNotACrash() {
    Machine m = machine(PHASES, 0, "1");
    ProfilingEngine engine =
        new DiseEngine(
            EngineEndToEndTest.lower(
                "P: T.OP == on_trig_inst => R, null\nR: ld $dr0, 0(zero); T.INSN;\n"));
    engine.install(m.cpu());
    long entry = m.cpu().pc;
    TriggerDriver d = new TriggerDriver(m, engine, new ExhaustiveTrigger(100_000), null);
    Machine.Outcome out = d.run(-1);
    assertThat(out.reason()).isEqualTo(StopReason.FAULT);
    assertThat(m.cpu().fault().pc()).isEqualTo(entry);
    assertThat(out.report()).contains("SIGSEGV");
  }

  @Test
  void translatedAndInterpretedCodeGiveTheTrackerTheSameFootprints() {
    // Exhaustive: every branch goes through the decode stage (REGIONS matches them all).
    assertSameFootprints(false);
    // Periodic: in unsampled intervals branches end blocks inside translated code, so the
    // translations' own observe calls are what the tracker sees there.
    assertSameFootprints(true);
  }

  static void assertSameFootprints(boolean periodic) {
    long[] translatedInsns = new long[1];
    List<double[]> interpreted = footprints(0, periodic, null);
    List<double[]> translated = footprints(1, periodic, translatedInsns);
    assertThat(translatedInsns[0]).isGreaterThan(1_000_000L);
    assertThat(translated.size()).isEqualTo(interpreted.size());
    for (int i = 0; i < interpreted.size(); i++) {
      assertThat(translated.get(i)).isEqualTo(interpreted.get(i));
    }
  }

  static List<double[]> footprints(int translateThreshold, boolean periodic, long[] translated) {
    Machine m = machine(PHASES, translateThreshold, "1");
    ProfilingEngine engine = new DiseEngine(EngineEndToEndTest.lower(REGIONS));
    engine.install(m.cpu());
    PhaseTracker tracker = new PhaseTracker(32, 25, PhasePredictor.named("last"));
    TriggerDriver d =
        new TriggerDriver(
            m,
            engine,
            periodic ? new PeriodicTrigger(500_000, 2, 1) : new ExhaustiveTrigger(1_000_000),
            tracker);
    if (translateThreshold > 0) {
      // Translation is in the background: let the hot blocks' code arrive before going on,
      // or a short run may finish all interpreted (as this test once did, unnoticed).
      assertThat(d.advance(300_000)).isEqualTo(StopReason.STEP_LIMIT);
      try {
        assertThat(m.cpu().blockCompiler().awaitIdle(120_000)).isTrue();
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
    }
    assertThat(d.run(-1).reason()).isEqualTo(StopReason.EXITED);
    if (translated != null) {
      translated[0] = m.cpu().counters().translatedInstructions();
    }
    List<double[]> out = new ArrayList<>();
    for (int i = 0; i < tracker.intervals(); i++) {
      out.add(tracker.footprint(i));
    }
    return out;
  }

  @Test
  void interpretedAndTranslatedCodeSampleAndEstimateAlike() {
    SamplingRun.Result a =
        SamplingRun.run(setup(REGIONS, PHASES, "2"), spec("phase"), false, null, -1);
    SamplingRun.Result b =
        SamplingRun.run(setup(REGIONS, 0, PHASES, "2"), spec("phase"), false, null, -1);
    assertThat(b.estimate()).isEqualTo(a.estimate());
    assertThat(b.engine().cost()).isEqualTo(a.engine().cost());
    assertThat(b.sampledFraction()).isEqualTo(a.sampledFraction());
    assertThat(a.sampledFraction()).isGreaterThan(0.0);
    assertThat(a.sampledFraction()).isLessThan(0.5);
    for (long i = 0; i < a.driver().intervals(); i++) {
      assertThat(b.trigger().phases().phase(i)).isEqualTo(a.trigger().phases().phase(i));
      assertThat(b.driver().sampled(i)).isEqualTo(a.driver().sampled(i));
    }
    // Only sampled intervals pay: two codewords per sample, no replacement outside them.
    assertThat(a.engine().injectedCodewords()).isAtMost(2 * a.driver().intervals() + 1);
  }

  @Test
  void anExhaustiveTriggerEstimatesTheExactProfile() {
    SamplingRun.Result r =
        SamplingRun.run(setup(REGIONS, PHASES, "1"), spec("exhaustive"), true, null, -1);
    assertThat(r.sampledFraction()).isEqualTo(1.0);
    assertThat(r.primary().countError()).isEqualTo(0.0);
    assertThat(r.primary().hotError()).isEqualTo(0.0);
  }

  @Test
  void sameSeedSameProfileOtherSeedOtherSamples() {
    SamplingRun.Setup s = setup(REGIONS, PHASES, "1");
    SamplingRun.Result a = SamplingRun.run(s, spec("random:3:11"), false, null, -1);
    SamplingRun.Result b = SamplingRun.run(s, spec("random:3:11"), false, null, -1);
    SamplingRun.Result c = SamplingRun.run(s, spec("random:3:12"), false, null, -1);
    assertThat(b.estimate()).isEqualTo(a.estimate());
    assertThat(sampled(b)).isEqualTo(sampled(a));
    assertThat(sampled(c)).isNotEqualTo(sampled(a));
    assertThat(c.estimate()).isNotEqualTo(a.estimate());
  }

  static List<Long> sampled(SamplingRun.Result r) {
    List<Long> out = new ArrayList<>();
    for (long i = 0; i < r.driver().intervals(); i++) {
      if (r.driver().sampled(i)) {
        out.add(i);
      }
    }
    return out;
  }

  @Test
  void phaseAwareReachesFivePercentErrorWithLessSampledThanPeriodicAndRandom() {
    List<Sweep.Point> points =
        Sweep.run(
            "phases 2",
            setup(REGIONS, PHASES, "2"),
            new Sweep.Plan(
                1_000_000,
                List.of(25.0),
                List.of(2L, 3L, 4L, 6L),
                List.of(2L, 3L, 4L, 6L),
                List.of(1L, 2L),
                "third",
                "last"),
            null);
    Map<String, Double> at5 = Sweep.fractionAtError(points, 0.05).get("phases 2");
    assertThat(at5.get("phase:third")).isNotNull();
    for (String other : List.of("periodic", "random")) {
      Double f = at5.get(other);
      if (f != null) {
        assertThat(at5.get("phase:third")).isLessThan(f);
      }
    }
  }

  @Test
  void aTriggerDeclaredInTheAcfRuns() {
    String acf = REGIONS + "trigger every = periodic(interval = 1000000, period = 4);\n";
    ProductionSet set = EngineEndToEndTest.lower(acf);
    assertThat(set.triggers()).hasSize(1);
    SamplingRun.Result r =
        SamplingRun.run(
            setup(acf, PHASES, "1"), TriggerSpec.of(set.triggers().get(0)), false, null, -1);
    assertThat(r.trigger().component()).isEqualTo("periodic");
    assertThat(sampled(r)).containsAtLeast(0L, 4L, 8L).inOrder();
    assertThat(sampled(r)).doesNotContain(1L);
  }

  // ---------------------------------------------------------------- internal triggers

  static final String CHECK =
      "(T.OPCLASS == proc_call || (T.OPCLASS == branch && T.TARGET < T.PC))";

  /** Counts every check and, in a second sink, the checks made while sampling is on. */
  static String counted(String trigger) {
    return "import sampling;\n"
        + trigger
        + "\n"
        + "sink sampled = region_counter(cost = 1);\nsink all = region_counter(cost = 1);\n"
        + "S: "
        + CHECK
        + " && overflow_1 => RS, null\n"
        + "RS: call(sampled, T.INSN); T.INSN;\n"
        + "acf every() {\n  E: "
        + CHECK
        + " => RE, null\n"
        + "  RE: call(all, T.INSN); T.INSN;\n}\nuse every;\n";
  }

  static double checksSampled(String acf) throws Exception {
    Machine m = EngineEndToEndTest.load(List.of("20"));
    m.kernel().setStdio(1, null, OutputStream.nullOutputStream());
    ProductionSet set = EngineEndToEndTest.lower(acf);
    ProfilingEngine e = new DiseEngine(set);
    e.install(m.cpu());
    assertThat(m.run(-1).reason()).isEqualTo(StopReason.EXITED);
    long sampled = total(e, m, 0);
    long all = total(e, m, 1);
    assertThat(all).isGreaterThan(5000L);
    return (double) sampled / all;
  }

  static long total(ProfilingEngine e, Machine m, int sink) {
    for (var s : e.sinks()) {
      if (s.name().equals(sink == 0 ? "sampled" : "all")) {
        return s.table(m.symbols()).rows().stream().mapToLong(r -> Long.parseLong(r.get(2))).sum();
      }
    }
    throw new AssertionError("no sink");
  }

  @Test
  void burstyTracingSamplesNInstrOfEveryNCheckPlusNInstrChecks() throws Exception {
    assertThat(checksSampled(counted("use bursty_tracing(nCheck0 = 40, nInstr0 = 10);")))
        .isWithin(0.002)
        .of(10.0 / 50);
    assertThat(checksSampled(counted("use bursty_tracing(nCheck0 = 300, nInstr0 = 2);")))
        .isWithin(0.002)
        .of(2.0 / 302);
  }

  @Test
  void arnoldRyderSamplesOneCheckPeriodInNCheckPlusOne() throws Exception {
    assertThat(checksSampled(counted("use arnold_ryder(nCheck0 = 19);")))
        .isWithin(0.002)
        .of(1.0 / 20);
  }

  @Test
  void aBurstSpansProcedureBoundaries() throws Exception {
    Machine m = EngineEndToEndTest.load(List.of("3"));
    m.kernel().setStdio(1, null, OutputStream.nullOutputStream());
    ProfilingEngine e =
        new DiseEngine(
            EngineEndToEndTest.lower(counted("use bursty_tracing(nCheck0 = 40, nInstr0 = 10);")));
    e.install(m.cpu());
    // Step the guest and note the functions each burst (overflow_1 on) runs in.
    List<Set<String>> bursts = new ArrayList<>();
    boolean on = false;
    while (m.cpu().run(1) == StopReason.STEP_LIMIT) {
      boolean now = e.hps().overflow(1);
      if (now && !on) {
        bursts.add(new HashSet<>());
      }
      if (now) {
        bursts
            .get(bursts.size() - 1)
            .add(m.symbols().lookup(m.cpu().pc).map(s -> s.name()).orElse("?"));
      }
      on = now;
    }
    assertThat(bursts.size()).isGreaterThan(3);
    assertThat(bursts.stream().mapToInt(Set::size).max().getAsInt()).isAtLeast(2);
    assertThat(
            bursts.stream()
                .filter(
                    b ->
                        b.contains("fib") && b.contains("main")
                            || b.contains("leaf") && b.contains("twice"))
                .count())
        .isGreaterThan(0L);
  }
}
