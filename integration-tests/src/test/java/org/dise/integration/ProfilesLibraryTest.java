package org.dise.integration;

import static com.google.common.truth.Truth.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.dise.integration.EngineEndToEndTest.Engine;
import org.dise.integration.EngineEndToEndTest.Run;
import org.dise.runtime.Machine;
import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.cpu.GuestFault;
import org.dise.runtime.cpu.StopReason;
import org.dise.runtime.dise.ProfilingEngine;
import org.dise.runtime.elf.Symbol;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.OpClass;
import org.dise.runtime.profiles.sink.BasicBlockVectors;
import org.dise.runtime.profiles.sink.BurstTrace;
import org.dise.runtime.profiles.sink.SimPointBb;
import org.dise.runtime.sink.ProfileTable;
import org.junit.jupiter.api.Test;

/**
 * The library's ACFs (profiles.acf, utilities.acf), used as a user uses them ({@code import
 * profiles; use hot_call_pairs;}), on test programs with known ground truth: counts the programs
 * print themselves, or an independent count made by stepping the plain interpreter. Sampling is
 * exhaustive (counter 0 stays 0) unless a test brackets the region with codewords.
 */
class ProfilesLibraryTest {
  static final Path CALLS = EngineEndToEndTest.CALLS;
  static final Path MEMORY = Path.of("src/test/c/bin/memory");

  static Machine load(Path program, List<String> args) throws Exception {
    return TranslatedProductionsTest.quietMachine(program, args);
  }

  static Run run(Engine kind, String acf, Path program, String... args) throws Exception {
    Machine m = load(program, List.of(args));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    m.kernel().setStdio(1, null, out);
    ProfilingEngine engine = kind.create(EngineEndToEndTest.lower(acf));
    engine.install(m.cpu());
    Machine.Outcome o = m.run(-1);
    return new Run(out.toString(StandardCharsets.UTF_8), o, m, engine);
  }

  static String use(String block) {
    return "import profiles;\nuse " + block + ";\n";
  }

  // ------------------------------------------------------------------ Fig. 6 profile types

  @OnEveryEngine
  void hotCallPairsEqualTheProgramsOwnCounts(Engine kind) throws Exception {
    Run r = run(kind, use("hot_call_pairs"), CALLS, "4");
    Map<String, Long> own = EngineEndToEndTest.ownPairs(r.stdout());
    assertThat(own).containsKey("apply leaf"); // resolved at execution: an indirect call
    assertThat(EngineEndToEndTest.profiledPairs(r.profile("CallPair_handler"))).isEqualTo(own);
  }

  @Test
  void hotCodeRegionsEqualAnIndependentBranchCounter() throws Exception {
    Run r = run(Engine.INTERPRETED, use("hot_code_regions"), CALLS, "2");
    EngineEndToEndTest.Exhaustive x = EngineEndToEndTest.stepThrough("2");
    Map<Long, List<Long>> expected = new HashMap<>();
    x.branches().forEach((pc, e) -> expected.put(pc, List.of(e[0], e[1])));
    Map<Long, List<Long>> profiled = new HashMap<>();
    for (List<String> row : r.profile("Branch_handler").rows()) {
      profiled.put(
          Long.decode(row.get(0)), List.of(Long.parseLong(row.get(2)), Long.parseLong(row.get(3))));
    }
    assertThat(profiled).isEqualTo(expected);
  }

  @Test
  void hotMethodsEqualTheProgramsCallsAndTheBackwardBranchesTaken() throws Exception {
    Run r = run(Engine.INTERPRETED, use("hot_methods"), CALLS, "3");
    EngineEndToEndTest.Exhaustive x = EngineEndToEndTest.stepThrough("3");
    Map<String, Long> own = EngineEndToEndTest.ownInvocations(r);
    Map<String, Long> backward = EngineEndToEndTest.backwardTakenByFunction(r, x);
    Map<String, Long> invocations = new HashMap<>();
    Map<String, Long> branches = new HashMap<>();
    for (List<String> row : r.profile("HotMethod_handler").rows()) {
      if (own.containsKey(row.get(0))) {
        invocations.put(row.get(0), Long.parseLong(row.get(1)));
      }
      if (Long.parseLong(row.get(2)) > 0) {
        branches.put(row.get(0), Long.parseLong(row.get(2)));
      }
    }
    assertThat(invocations).isEqualTo(own);
    assertThat(branches).isEqualTo(backward);
  }

  @Test
  void libraryBlocksComposeWithTheTriggerProductions() throws Exception {
    // Equations (1) and (2) switch counter 0; the block reads it as its sampling flag.
    Run r =
        run(
            Engine.INTERPRETED,
            EngineEndToEndTest.TRIGGERS + use("hot_call_pairs"),
            CALLS,
            "codewords",
            "5");
    assertThat(EngineEndToEndTest.profiledPairs(r.profile("CallPair_handler")))
        .containsExactly("main phase2", 1L, "phase2 twice", 5L, "twice leaf", 10L);
  }

  // ------------------------------------------------------------------ basic block vectors

  /**
   * Per interval, instructions per (start, end) block, counted by stepping the interpreter; the
   * first block (its start unknown to the sink) and, with {@code triggers}, the blocks while the
   * codewords turn sampling off and the first one after it are left out.
   */
  static List<Map<String, Long>> steppedVectors(long interval, boolean triggers, String... args)
      throws Exception {
    Machine m = load(CALLS, List.of(args));
    m.kernel().setStdio(1, null, new ByteArrayOutputStream());
    Cpu cpu = m.cpu();
    Set<OpClass> transfers =
        Set.of(OpClass.BRANCH, OpClass.JUMP, OpClass.PROC_CALL, OpClass.RETURN);
    Map<Long, Map<String, Long>> byInterval = new java.util.TreeMap<>();
    long mark = 0;
    long start = 0;
    boolean known = false;
    boolean sampling = true;
    while (!cpu.halted()) {
      DecodedInsn d = cpu.decodedAt(cpu.pc);
      long now = cpu.instret() + 1;
      cpu.run(1);
      if (triggers && d.opClass() == OpClass.CODEWORD) {
        sampling = d.op.name().startsWith("ON");
        known &= sampling;
      }
      if (sampling && transfers.contains(d.opClass())) {
        if (known) {
          byInterval
              .computeIfAbsent((now - 1) / interval, k -> new LinkedHashMap<>())
              .merge(Long.toHexString(start) + "-" + Long.toHexString(d.pc), now - mark, Long::sum);
        }
        known = true;
        mark = now;
        start = cpu.pc;
      }
    }
    return new ArrayList<>(byInterval.values());
  }

  /** {@code vectors} keyed by each block's address range ("start-end", hex) instead of its id. */
  static List<Map<String, Long>> byBlockRange(
      BasicBlockVectors sink, Run r, List<Map<Integer, Long>> vectors) {
    Map<Integer, String> blockOf = new HashMap<>();
    for (List<String> row : sink.table(r.machine().symbols()).rows()) {
      blockOf.put(
          Integer.parseInt(row.get(0)),
          Long.toHexString(Long.decode(row.get(1)))
              + "-"
              + Long.toHexString(Long.decode(row.get(2))));
    }
    List<Map<String, Long>> profiled = new ArrayList<>();
    for (Map<Integer, Long> v : vectors) {
      Map<String, Long> m = new LinkedHashMap<>();
      v.forEach((id, n) -> m.put(blockOf.get(id), n));
      profiled.add(m);
    }
    return profiled;
  }

  @OnEveryEngine
  void basicBlockVectorsEqualSteppedCountsAndTheBbFileReadsBack(Engine kind) throws Exception {
    String acf =
        "import profiles;\nsink bbv5k = bbv(interval = 5000);\n"
            + "use basic_block_vectors(handler = bbv5k);\n";
    Run r = run(kind, acf, CALLS, "2");
    BasicBlockVectors sink = (BasicBlockVectors) r.engine().sinks().get(0);
    String bb = sink.files(r.machine().symbols()).get("bb");
    assertThat(SimPointBb.parse(bb)).isEqualTo(sink.vectors());

    List<Map<String, Long>> profiled = byBlockRange(sink, r, SimPointBb.parse(bb));
    List<Map<String, Long>> expected = steppedVectors(5000, false, "2");
    assertThat(profiled.size()).isGreaterThan(3);
    assertThat(profiled).isEqualTo(expected);
    assertThat(sink.gaps()).isEqualTo(0);
  }

  @Test
  void underSamplingBasicBlockVectorsCountOnlySampledBlocksWithKnownStarts() throws Exception {
    String acf =
        "import profiles;\nsink bbv2k = bbv(interval = 2000);\n"
            + EngineEndToEndTest.TRIGGERS
            + "use basic_block_vectors(handler = bbv2k);\n";
    Run r = run(Engine.INTERPRETED, acf, CALLS, "codewords", "40");
    BasicBlockVectors sink = (BasicBlockVectors) r.engine().sinks().get(0);
    List<Map<String, Long>> profiled = byBlockRange(sink, r, sink.vectors());
    assertThat(profiled).isEqualTo(steppedVectors(2000, true, "codewords", "40"));
    assertThat(sink.gaps()).isEqualTo(1); // phase2 follows phase1, which was not sampled
    // The side file names each .bb line's interval: increasing, and the sampled intervals'.
    String[] intervals = sink.files(r.machine().symbols()).get("bb.intervals").split("\n");
    assertThat(intervals).hasLength(sink.vectors().size());
    List<Long> numbers = java.util.Arrays.stream(intervals).map(Long::parseLong).toList();
    assertThat(numbers).isInStrictOrder();
    assertThat(numbers.get(numbers.size() - 1))
        .isAtMost(r.engine().cost().applicationInstructions() / 2000);
  }

  @Test
  void blockIdsAreTheSameInTwoRunsOfOneProgram() throws Exception {
    // Different arguments run the blocks in a different order, so ids given in order of first
    // execution would differ (issue 17: 904 against 758 for one block).
    String acf =
        "import profiles;\nsink bbv5k = bbv(interval = 5000);\n"
            + "use basic_block_vectors(handler = bbv5k);\n";
    Map<String, String> first = idsByBlock(run(Engine.INTERPRETED, acf, CALLS, "2"));
    Map<String, String> second = idsByBlock(run(Engine.INTERPRETED, acf, CALLS, "codewords", "40"));
    Set<String> common = new java.util.HashSet<>(first.keySet());
    common.retainAll(second.keySet());
    assertThat(common.size()).isGreaterThan(10);
    for (String block : common) {
      assertThat(second.get(block)).isEqualTo(first.get(block));
    }
    // An id is the block's start address / 2 + 1.
    for (Map.Entry<String, String> e : first.entrySet()) {
      assertThat(Long.parseLong(e.getValue()))
          .isEqualTo(Long.parseLong(e.getKey().split("-")[0], 16) / 2 + 1);
    }
  }

  static Map<String, String> idsByBlock(Run r) {
    Map<String, String> ids = new HashMap<>();
    for (List<String> row : r.engine().sinks().get(0).table(r.machine().symbols()).rows()) {
      ids.put(
          Long.toHexString(Long.decode(row.get(1)))
              + "-"
              + Long.toHexString(Long.decode(row.get(2))),
          row.get(0));
    }
    return ids;
  }

  // ------------------------------------------------------------------ hot paths

  static final Path PATHS = Path.of("src/test/c/bin/paths");

  /** What a path's blocks do: the functions they call, and whether the last one returns. */
  record PathShape(Set<String> calls, boolean returns) {}

  static PathShape shape(Run r, String path) {
    Set<String> calls = new java.util.TreeSet<>();
    boolean returns = false;
    for (String block : path.split(" ")) {
      // A block runs from its start to the first branch, jump or return (calls do not end it).
      for (long pc = Long.parseLong(block, 16); ; ) {
        DecodedInsn d = r.machine().cpu().decodedAt(pc);
        OpClass c = d.opClass();
        if (c == OpClass.PROC_CALL) {
          calls.add(r.machine().symbols().lookup(d.target()).map(Symbol::name).orElse("?"));
        } else if (c == OpClass.BRANCH || c == OpClass.JUMP || c == OpClass.RETURN) {
          returns = c == OpClass.RETURN;
          break;
        }
        pc = d.npc;
      }
    }
    return new PathShape(calls, returns);
  }

  @OnEveryEngine
  void hotPathsOfALoopAreItsFourBodiesPlusTheEntryAndExitPaths(Engine kind) throws Exception {
    Run r = run(kind, use("hot_paths"), PATHS, "31");
    String[] own = r.stdout().split("\n")[1].split(" ");
    long classify = r.machine().symbols().byName("classify").orElseThrow().address();
    Map<Set<String>, Long> loopPaths = new HashMap<>();
    long entryPaths = 0;
    long exitPaths = 0;
    long total = 0;
    for (List<String> row : r.profile("HotPaths").rows()) {
      if (!row.get(0).equals("classify")) {
        continue;
      }
      long n = Long.parseLong(row.get(3));
      total += n;
      PathShape s = shape(r, row.get(4));
      if (Long.decode(row.get(1)) == classify) {
        entryPaths += n;
      } else if (s.returns()) {
        exitPaths += n;
      } else {
        assertThat(loopPaths.put(s.calls(), n)).isNull();
      }
    }
    // The iterations between the first and the last, as the program counted them.
    assertThat(loopPaths)
        .containsExactly(
            Set.of(),
            Long.parseLong(own[2]),
            Set.of("three"),
            Long.parseLong(own[4]),
            Set.of("five"),
            Long.parseLong(own[6]),
            Set.of("five", "three"),
            Long.parseLong(own[8]));
    assertThat(entryPaths).isEqualTo(1);
    assertThat(exitPaths).isEqualTo(1);
    assertThat(total).isEqualTo(31); // every iteration ends exactly one path
  }

  // ------------------------------------------------------------------ hot data streams

  /** The streams the program says it made: name -> {first node, length, frequency}. */
  static Map<String, List<Long>> ownStreams(String stdout) {
    Map<String, List<Long>> out = new HashMap<>();
    for (String line : stdout.split("\n")) {
      String[] f = line.split(" ");
      if (f[0].equals("stream")) {
        out.put(f[1], List.of(Long.decode(f[2]), Long.parseLong(f[3]), Long.parseLong(f[4])));
      }
    }
    return out;
  }

  /** A stream row as {first address, length, frequency}. */
  static List<Long> streamRow(List<String> row) {
    return List.of(Long.decode(row.get(5)), Long.parseLong(row.get(1)), Long.parseLong(row.get(2)));
  }

  @OnEveryEngine
  void hotDataStreamsOfASampledBurstAreExactlyTheListWalks(Engine kind) throws Exception {
    // Sampling starts off; the program's codewords bracket the walks (equations (1), (2)).
    String acf =
        "import profiles;\ncounter sampling(index = 0, init = 1);\n"
            + EngineEndToEndTest.TRIGGERS
            + "use hot_data_streams;\n";
    Run r = run(kind, acf, MEMORY, "streams", "30", "40");
    Map<String, List<Long>> own = ownStreams(r.stdout());
    ProfileTable t = r.profile("HotDataStreams");
    assertThat(t.rows().stream().map(ProfilesLibraryTest::streamRow).toList())
        .containsExactly(own.get("A"), own.get("B"))
        .inOrder();
    // Heat = length x frequency; the two cover the whole burst, so their shares add up to 1.
    assertThat(t.weights().values()).containsExactly(24L * 30, 16L * 40).inOrder();
    assertThat(t.rows().get(0).get(4)).isEqualTo("0.529412"); // 720 / 1360
    assertThat(t.rows().get(0).get(0)).isEqualTo("walk_many");
    assertThat(t.rows().get(0).get(6).split(" ")).hasLength(24);
  }

  @Test
  void hotDataStreamsOfTheExhaustiveTraceIncludeTheListWalks() throws Exception {
    Run r = run(Engine.INTERPRETED, use("hot_data_streams"), MEMORY, "streams", "60", "80");
    Map<String, List<Long>> own = ownStreams(r.stdout());
    List<List<Long>> rows =
        r.profile("HotDataStreams").rows().stream().map(ProfilesLibraryTest::streamRow).toList();
    // The walks are the two hottest streams among everything the program (and libc) touches.
    assertThat(rows.subList(0, 2)).containsExactly(own.get("A"), own.get("B")).inOrder();
  }

  @Test
  void withoutStreamsTheTraceIsCountedPerPc() throws Exception {
    String acf =
        "import profiles;\ncounter sampling(index = 0, init = 1);\n"
            + "sink refs = burst_trace(streams = false);\n"
            + EngineEndToEndTest.TRIGGERS
            + "use hot_data_streams(handler = refs);\n";
    Run r = run(Engine.INTERPRETED, acf, MEMORY, "streams", "30", "40");
    // Two loads per node (key, next): 12 nodes x 30 walks + 8 nodes x 40 walks each.
    ProfileTable t = r.profile("refs");
    assertThat(t.header()).containsExactly("pc", "function", "references").inOrder();
    assertThat(t.rows().stream().map(row -> row.get(1) + " " + row.get(2)).toList())
        .containsExactly("walk_many 680", "walk_many 680");
  }

  @Test
  void aFullTraceKeepsItsFirstReferencesAndSaysHowManyItDropped() throws Exception {
    String acf =
        "import profiles;\nsink s = burst_trace(capacity = 100);\n"
            + "use hot_data_streams(handler = s);\n";
    Run r = run(Engine.INTERPRETED, acf, MEMORY, "streams", "3", "4");
    BurstTrace t = (BurstTrace) r.engine().sinks().get(0);
    // Every handler call but one (the on_trig_inst that starts the burst) is a reference.
    long dropped = r.engine().cost().handlerCalls() - 1 - 100;
    assertThat(t.traced()).isEqualTo(100);
    assertThat(t.dropped()).isEqualTo(dropped);
    assertThat(t.notes())
        .containsExactly(
            String.format(
                "the trace holds the first 100"
                    + " references; %,d more were dropped (raise the sink's capacity, or sample)",
                dropped));
  }

  // ------------------------------------------------------------------ utilities

  @Test
  void storeWatchpointTrapsOnlyOnStoresIntoTheRange() throws Exception {
    Run plain = run(Engine.INTERPRETED, "", CALLS, "store", "5");
    String[] first = plain.stdout().split("\n")[0].split(" ");
    String acf =
        String.format(
            "import utilities;\nuse store_watchpoint(lo = %d, hi = %d);\n",
            Long.decode(first[1]), Long.decode(first[2]));

    Run outside = run(Engine.INTERPRETED, acf, CALLS, "store", "5");
    assertThat(outside.outcome().reason()).isEqualTo(StopReason.EXITED);
    assertThat(outside.stdout()).isEqualTo(plain.stdout());

    Run inside = run(Engine.INTERPRETED, acf, CALLS, "store", "3");
    assertThat(inside.outcome().reason()).isEqualTo(StopReason.FAULT);
    GuestFault f = inside.machine().cpu().fault();
    assertThat(f.signal()).isEqualTo(GuestFault.SIGTRAP);
    assertThat(inside.machine().symbols().lookup(f.pc()).map(Symbol::name)).hasValue("main");
  }

  @Test
  void loggingWatchpointCountsEveryWriterOfTheRangeAndLetsTheProgramRun() throws Exception {
    Run plain = run(Engine.INTERPRETED, "", CALLS, "store", "5");
    long lo = Long.decode(plain.stdout().split("\n")[0].split(" ")[1]);
    String acf =
        String.format(
            "import utilities;\n"
                + "sink w = watchpoint(address = %d, length = 32);\nuse store_watch_log(handler = w);\n",
            lo);
    Run inside = run(Engine.INTERPRETED, acf, CALLS, "store", "2");
    assertThat(inside.outcome().reason()).isEqualTo(StopReason.EXITED);
    List<List<String>> rows = inside.profile("w").rows();
    assertThat(rows).hasSize(1);
    // main wrote 42 into watched[2], once.
    assertThat(rows.get(0).subList(1, 5))
        .containsExactly("main", "1", "0x" + Long.toHexString(lo + 16), "0x2a")
        .inOrder();

    // Just past the range: `after`, which the program also fills, is not watched.
    assertThat(run(Engine.INTERPRETED, acf, CALLS, "store", "5").profile("w").rows()).isEmpty();
  }

  @Test
  void faultIsolationKeepsTheModulesAccessesInItsSandbox() throws Exception {
    Machine m = load(MEMORY, List.of("poke", "0"));
    Symbol store = m.symbols().byName("module_store").orElseThrow();
    Symbol read = m.symbols().byName("module_load").orElseThrow();
    Run plain = run(Engine.INTERPRETED, "", MEMORY, "poke", "7");
    String[] range = plain.stdout().split("\n")[0].split(" ");
    String acf =
        String.format(
            "import utilities;\n"
                + "use fault_isolation(code_lo = %d, code_hi = %d, data_lo = %d, data_hi = %d);\n",
            Math.min(store.address(), read.address()),
            Math.max(store.address() + store.size(), read.address() + read.size()),
            Long.decode(range[1]),
            Long.decode(range[2]));

    Run inside = run(Engine.INTERPRETED, acf, MEMORY, "poke", "7");
    assertThat(inside.outcome().reason()).isEqualTo(StopReason.EXITED);
    assertThat(inside.stdout()).isEqualTo(plain.stdout());
    assertThat(inside.stdout()).contains("read 42");
    // Only the module's two accesses were checked: the rest of the program is not tagged.
    assertThat(inside.engine().cost().replacements()).isEqualTo(2L);

    Run outside = run(Engine.INTERPRETED, acf, MEMORY, "poke", "8");
    assertThat(outside.outcome().reason()).isEqualTo(StopReason.FAULT);
    GuestFault f = outside.machine().cpu().fault();
    assertThat(f.signal()).isEqualTo(GuestFault.SIGTRAP);
    assertThat(outside.machine().symbols().lookup(f.pc()).map(Symbol::name))
        .hasValue("module_store");
    assertThat(outside.stdout()).doesNotContain("read");
  }
}
