package org.dise.integration;

import static com.google.common.truth.Truth.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.dise.compiler.Frontend;
import org.dise.compiler.diag.DiagnosticRenderer;
import org.dise.compiler.diag.Diagnostics;
import org.dise.compiler.diag.SourceFile;
import org.dise.compiler.lower.Lowering;
import org.dise.runtime.Machine;
import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.cpu.GuestFault;
import org.dise.runtime.cpu.StopReason;
import org.dise.runtime.dise.DiseEngine;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.dise.ProfilingEngine;
import org.dise.runtime.dise.config.ConfigFormat;
import org.dise.runtime.dise.config.DeployableConfig;
import org.dise.runtime.elf.Symbol;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.OpClass;
import org.dise.runtime.sink.ProfileTable;

/**
 * The tests 1-4 end to end: ACF text through the front end and lowering into the
 * interpreted engine, and the interpreted engine on a production set read back from a deployable
 * configuration, each checked against the program's own counts or an independent count
 * (EngineCasesTest runs the folder of cases whose whole output must agree). The test program counts
 * its own calls (src/test/c/calls.c).
 */
class EngineEndToEndTest {
  static final Path CALLS = Path.of("src/test/c/bin/calls");
  static final Set<String> OURS =
      Set.of("main", "leaf", "twice", "fib", "apply", "phase1", "phase2", "phase3");

  static final String TRIGGERS =
      "P0: T.OP == on_trig_inst -> set_0(HPS_R0), null\n"
          + "Q0: T.OP == off_trig_inst -> set_0(HPS_R1), null\n";
  static final String CALL_PAIRS =
      TRIGGERS
          + "P3: T.OPCLASS == proc_call && zero_0 => R3, null\n"
          + "R3: call(CallPair_handler, T.INSN); T.INSN;\n";
  static final String METHODS =
      TRIGGERS
          + "P2: (T.OPCLASS == proc_call || (T.OPCLASS == branch && T.PC > T.TARGET)) && zero_0"
          + " => R2, null\n"
          + "R2: call(HotMethod_handler, T.INSN); T.INSN;\n";
  static final String REGIONS =
      TRIGGERS
          + "P1: T.OPCLASS == branch && zero_0 => R1, null\n"
          + "R1: call(Branch_handler, T.INSN); T.INSN;\n";

  /** How the productions run. */
  enum Engine {
    INTERPRETED,
    /** Interpreted, from the set written as a deployable configuration and read back. */
    CONFIG;

    ProfilingEngine create(ProductionSet set) throws Exception {
      return switch (this) {
        case INTERPRETED -> new DiseEngine(set);
        case CONFIG -> {
          ProductionSet back =
              ConfigFormat.fromBytes(
                      ConfigFormat.toBytes(new DeployableConfig("test.acf", set)), "test.dcfg")
                  .productions();
          assertThat(back).isEqualTo(set);
          yield new DiseEngine(back);
        }
      };
    }
  }

  /** One run: the guest's stdout, how it ended, and the engine (null without productions). */
  record Run(String stdout, Machine.Outcome outcome, Machine machine, ProfilingEngine engine) {
    ProfileTable profile() {
      return engine.sinks().get(0).table(machine.symbols());
    }

    ProfileTable profile(String sink) {
      return engine.sinks().stream()
          .filter(s -> s.name().equals(sink))
          .findFirst()
          .orElseThrow()
          .table(machine.symbols());
    }
  }

  static ProductionSet lower(String acf) {
    Frontend.Result r =
        Frontend.standard().check(new SourceFile("test.acf", acf), Path.of("test.acf"));
    Diagnostics diags = r.diagnostics();
    ProductionSet set = r.program().flatMap(p -> Lowering.lower(p, diags)).orElse(null);
    assertThat(
            DiagnosticRenderer.renderAll(
                diags.sorted().stream().filter(d -> d.severity().name().equals("ERROR")).toList()))
        .isEmpty();
    return set;
  }

  static Machine load(List<String> args) throws Exception {
    return TranslatedProductionsTest.quietMachine(CALLS, args);
  }

  static Run run(Engine kind, String acf, String... args) throws Exception {
    Machine m = load(List.of(args));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    m.kernel().setStdio(1, null, out);
    ProfilingEngine engine = null;
    if (acf != null) {
      engine = kind.create(lower(acf));
      engine.install(m.cpu());
    }
    Machine.Outcome o = m.run(-1);
    return new Run(out.toString(StandardCharsets.UTF_8), o, m, engine);
  }

  /** "caller callee" -> count, as the program printed its own pair counts. */
  static Map<String, Long> ownPairs(String stdout) {
    Map<String, Long> pairs = new HashMap<>();
    for (String line : stdout.split("\n")) {
      String[] f = line.split(" ");
      if (f[0].equals("pair")) {
        pairs.put(f[1] + " " + f[2], Long.parseLong(f[3]));
      }
    }
    return pairs;
  }

  static Map<String, Long> profiledPairs(ProfileTable t) {
    Map<String, Long> pairs = new HashMap<>();
    for (List<String> row : t.rows()) {
      if (OURS.contains(row.get(0)) && OURS.contains(row.get(1))) {
        pairs.merge(row.get(0) + " " + row.get(1), Long.parseLong(row.get(2)), Long::sum);
      }
    }
    return pairs;
  }

  @OnEveryEngine
  void callPairProfileEqualsTheProgramsOwnCounts(Engine kind) throws Exception {
    Run r = run(kind, CALL_PAIRS, "4");
    Map<String, Long> own = ownPairs(r.stdout());
    assertThat(own).containsKey("apply leaf"); // indirect calls
    assertThat(own).containsKey("fib fib"); // recursion
    assertThat(profiledPairs(r.profile())).isEqualTo(own);
    assertThat(r.engine().cost().replacements()).isEqualTo(r.engine().cost().handlerCalls());
  }

  /** An independent count, instruction by instruction with the plain interpreter. */
  record Exhaustive(
      Map<Long, long[]> branches,
      Map<Long, Long> callees,
      Map<Long, Long> backwardTaken,
      long instructions) {}

  static Exhaustive stepThrough(String... args) throws Exception {
    Machine m = load(List.of(args));
    m.kernel().setStdio(1, null, new ByteArrayOutputStream());
    Cpu cpu = m.cpu();
    Map<Long, long[]> branches = new HashMap<>();
    Map<Long, Long> callees = new HashMap<>();
    Map<Long, Long> backward = new HashMap<>();
    long mark = 0;
    while (!cpu.halted()) {
      DecodedInsn d = cpu.decodedAt(cpu.pc);
      long before = cpu.instret();
      StopReason s = cpu.run(1);
      if (d.opClass() == OpClass.BRANCH) {
        long[] e = branches.computeIfAbsent(d.pc, k -> new long[2]);
        e[0]++;
        e[1] += before + 1 - mark;
        mark = before + 1;
        if (cpu.pc != d.npc && d.target() < d.pc) {
          backward.merge(d.pc, 1L, Long::sum);
        }
      } else if (d.opClass() == OpClass.PROC_CALL) {
        callees.merge(cpu.pc, 1L, Long::sum);
      }
      assertThat(s).isAnyOf(StopReason.STEP_LIMIT, StopReason.EXITED);
    }
    return new Exhaustive(branches, callees, backward, cpu.instret());
  }

  @OnEveryEngine
  void regionProfileEqualsAnIndependentBranchCounter(Engine kind) throws Exception {
    Run r = run(kind, REGIONS, "2");
    Exhaustive x = stepThrough("2");
    Map<Long, List<Long>> expected = new HashMap<>();
    x.branches().forEach((pc, e) -> expected.put(pc, List.of(e[0], e[1])));
    Map<Long, List<Long>> profiled = new HashMap<>();
    for (List<String> row : r.profile().rows()) {
      profiled.put(
          Long.decode(row.get(0)), List.of(Long.parseLong(row.get(2)), Long.parseLong(row.get(3))));
    }
    assertThat(profiled).isEqualTo(expected);
    assertThat(r.engine().cost().applicationInstructions()).isEqualTo(x.instructions());
  }

  /** How often each of our functions was called, from the program's own call-pair output. */
  static Map<String, Long> ownInvocations(Run r) {
    Map<String, Long> own = new HashMap<>();
    ownPairs(r.stdout()).forEach((pair, n) -> own.merge(pair.split(" ")[1], n, Long::sum));
    return own;
  }

  /** The backward branches {@code x} saw taken, summed by the function they are in. */
  static Map<String, Long> backwardTakenByFunction(Run r, Exhaustive x) {
    Map<String, Long> out = new HashMap<>();
    x.backwardTaken()
        .forEach(
            (pc, n) ->
                out.merge(
                    r.machine().symbols().lookup(pc).map(Symbol::name).orElse("?"), n, Long::sum));
    return out;
  }

  @OnEveryEngine
  void methodProfileEqualsTheProgramsCallsAndAnIndependentBranchCounter(Engine kind)
      throws Exception {
    Run r = run(kind, METHODS, "3");
    Exhaustive x = stepThrough("3");
    Map<String, Long> ownInvocations = ownInvocations(r);
    Map<String, Long> expectedBranches = backwardTakenByFunction(r, x);
    Map<String, Long> invocations = new HashMap<>();
    Map<String, Long> branches = new HashMap<>();
    for (List<String> row : r.profile().rows()) {
      if (OURS.contains(row.get(0)) && !row.get(0).equals("main")) {
        invocations.put(row.get(0), Long.parseLong(row.get(1)));
      }
      if (Long.parseLong(row.get(2)) > 0) {
        branches.put(row.get(0), Long.parseLong(row.get(2)));
      }
    }
    ownInvocations.remove("main");
    assertThat(invocations).isEqualTo(ownInvocations);
    assertThat(branches).isEqualTo(expectedBranches);
  }

  @OnEveryEngine
  void codewordsSwitchSamplingOnAndOff(Engine kind) throws Exception {
    Run r = run(kind, CALL_PAIRS, "codewords", "5");
    Map<String, Long> own = ownPairs(r.stdout());
    Map<String, Long> profiled = profiledPairs(r.profile());
    // Equations (1) and (2): only what runs between on_trig_inst and off_trig_inst is profiled.
    assertThat(profiled).containsExactly("main phase2", 1L, "phase2 twice", 5L, "twice leaf", 10L);
    assertThat(own).containsEntry("phase1 leaf", 5L);
    assertThat(own).containsEntry("phase3 fib", 5L);
    assertThat(r.engine().hps().zero(0)).isFalse();
  }

  static final String WATCH =
      "W: T.OPCLASS == store => Check, null\n"
          + "Check: addi $dr0, T.RS1, T.IMM;\n"
          + "  li $dr1, %d; bltu $dr0, $dr1, .ok;\n"
          + "  li $dr1, %d; bgeu $dr0, $dr1, .ok;\n"
          + "  ebreak;\n"
          + "  .ok: T.INSN\n";

  @OnEveryEngine
  void storeWatchpointStopsExactlyOnWritesIntoTheRange(Engine kind) throws Exception {
    Run plain = run(kind, null, "store", "5");
    String[] first = plain.stdout().split("\n")[0].split(" ");
    long lo = Long.decode(first[1]);
    long hi = Long.decode(first[2]);
    String acf = String.format(WATCH, lo, hi);

    Run outside = run(kind, acf, "store", "5");
    assertThat(outside.outcome().reason()).isEqualTo(StopReason.EXITED);
    assertThat(outside.stdout()).isEqualTo(plain.stdout());
    assertThat(outside.engine().cost().applicationInstructions())
        .isEqualTo(plain.outcome().instructions());
    assertThat(outside.engine().cost().insertedInstructions()).isGreaterThan(0L);

    Run inside = run(kind, acf, "store", "2");
    assertThat(inside.outcome().reason()).isEqualTo(StopReason.FAULT);
    GuestFault f = inside.machine().cpu().fault();
    assertThat(f.signal()).isEqualTo(GuestFault.SIGTRAP);
    assertThat(inside.machine().symbols().lookup(f.pc()).map(Symbol::name)).hasValue("main");
  }

  @OnEveryEngine
  void withTheFlagOffNothingIsReplacedAndTheRunIsUnchanged(Engine kind) throws Exception {
    String acf = "counter sampling(index = 0, init = 1);\n" + CALL_PAIRS;
    Run plain = run(kind, null, "3");
    Run off = run(kind, acf, "3");
    assertThat(off.stdout()).isEqualTo(plain.stdout());
    assertThat(off.outcome().instructions()).isEqualTo(plain.outcome().instructions());
    assertThat(off.engine().cost().replacements()).isEqualTo(0L);
    assertThat(off.engine().cost().totalCycles()).isEqualTo(plain.outcome().instructions());
    assertThat(off.profile().rows()).isEmpty();
  }

  // How every engine agrees exactly with the interpreter on whole profiles and costs: the cases
  // of src/test/cases, run by EngineCasesTest.
}
