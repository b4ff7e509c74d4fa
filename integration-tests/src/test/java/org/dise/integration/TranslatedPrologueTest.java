package org.dise.integration;

import static com.google.common.truth.Truth.assertWithMessage;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.dise.integration.EngineEndToEndTest.Engine;
import org.dise.integration.TranslatedProductionsTest.Program;
import org.dise.runtime.Machine;
import org.dise.runtime.cpu.StopReason;
import org.dise.runtime.dise.DiseEngine;
import org.junit.jupiter.api.Test;

/**
 * Replacements of the form {@code call(sink, ...); T.INSN;} run in translated code as a prologue
 * call into the decode stage and the instruction inline ({@code DecodeStage.splitsOriginal},
 * spec/emulator.md): taken exactly when the sequence allows it, and observably the same run as the
 * interpreter's.
 */
class TranslatedPrologueTest {
  private static final Program CALLS = TranslatedProductionsTest.CALLS;

  /**
   * Prologues run by translated code in one run of {@code acf} at threshold 1: emitted inline as
   * bytecode, or (with {@code inline} false) calls into the engine.
   */
  private static long prologues(String acf) throws Exception {
    return prologues(acf, true);
  }

  private static long prologues(String acf, boolean inline) throws Exception {
    Machine m = TranslatedProductionsTest.translatedRun(acf, inline);
    long emitted = m.cpu().counters().emittedPrologueRuns();
    long called = m.cpu().counters().prologueCalls();
    assertWithMessage("prologues emitted with inline " + inline)
        .that(inline ? called : emitted)
        .isEqualTo(0);
    return emitted + called;
  }

  @Test
  void fig6PrologueRunsAsBytecodeOrAsACallAsAsked() throws Exception {
    long emitted = prologues(EngineEndToEndTest.REGIONS, true);
    assertWithMessage("emitted").that(emitted).isAtLeast(100);
    assertWithMessage("called")
        .that(prologues(EngineEndToEndTest.REGIONS, false))
        .isEqualTo(emitted);
  }

  @Test
  void emittedProloguesWithSeveralPlansAgreeWithTheInterpreter() throws Exception {
    // Each branch has two plans (counter 0 zero or not), each a different sequence of calls with
    // constants, register and DISE-register arguments, and loads move the counter back: the
    // emitted code must pick the plan by the flag vector as it is at that instruction, fill the
    // arguments from the unit's registers and keep the engine's accounts.
    String acf =
        "counter c(index = 0, width = 3, init = 0);\n"
            + "sink a = count_map();\n"
            + "sink b = sum_map();\n"
            + "P: T.OPCLASS == branch && zero_0 => RA, inc_0\n"
            + "Q: T.OPCLASS == branch && !zero_0 => RB, inc_0\n"
            + "L: T.OPCLASS == load && !zero_0 -> dec_0, null\n"
            + "RA: call(a, T.PC, T.RS1); T.INSN;\n"
            + "RB: call(b, T.PC, sp, T.RS2); call(a, a0, $dr0); call(b, 7, 9, 11); T.INSN;\n";
    assertWithMessage("emitted").that(prologues(acf, true)).isAtLeast(100);
    TranslatedProductionsTest.agree(acf, CALLS, -1);
    TranslatedProductionsTest.agree(acf, CALLS, 40_009);
  }

  @Test
  void fig6SequencesRunAsPrologueAndOthersThroughTheEngine() throws Exception {
    assertWithMessage("Fig. 6 code regions")
        .that(prologues(EngineEndToEndTest.REGIONS))
        .isAtLeast(100);
    String pairs =
        "P: T.OPCLASS == proc_call => R, null\nR: call(CallPair_handler, T.INSN); T.INSN;\n";
    assertWithMessage("Fig. 6 call pairs").that(prologues(pairs)).isAtLeast(10);
    // An inserted instruction, a call after T.INSN, a call whose result lands in a register, or no
    // T.INSN at all: no prologue (the whole sequence is emitted or runs in the engine:
    // TranslatedReplacementTest).
    for (String r :
        List.of(
            "R: addi $dr0, $dr0, 1; T.INSN;",
            "R: T.INSN; call(CallPair_handler, T.INSN);",
            "sink m = count_map();\nR: $dr0 = call(m, T.PC); T.INSN;",
            "R: call(CallPair_handler, T.INSN);")) {
      String acf = "P: T.OPCLASS == proc_call => R, null\n" + r + "\n";
      assertWithMessage(r).that(prologues(acf)).isEqualTo(0);
    }
  }

  /**
   * The sink calls emitted as per-site counters in one run of {@code acf} at threshold {@code t}
   * (none with {@code perSite} false); checks that the run agrees with the interpreter's.
   */
  private static long siteCalls(String acf, int t, boolean perSite) throws Exception {
    Machine m = TranslatedProductionsTest.quietMachine(CALLS.path(), CALLS.args(), t);
    m.kernel().setStdio(1, null, new ByteArrayOutputStream());
    DiseEngine e = (DiseEngine) Engine.INTERPRETED.create(EngineEndToEndTest.lower(acf));
    e.setPerSiteCounters(perSite);
    e.install(m.cpu());
    m.run(-1);
    return e.siteCallsEmitted();
  }

  @Test
  void sinksWhoseKeyIsFixedCountPerSiteAndAgreeWithTheInterpreter() throws Exception {
    // Fig. 6's code regions (the branch's pc, and instructions since the last branch), hot methods
    // (a direct call's callee; a backward branch's pc, counted only when taken) and call pairs (a
    // direct call's site and callee): translated code adds to the sink's counter for the
    // instruction instead of calling it, and the profiles, counts and costs must be the
    // interpreter's, whether the counters or the records did the counting (or, translated once
    // hot, both for one instruction), and when a limit stops the run mid-unit.
    String pairs = EngineEndToEndTest.CALL_PAIRS;
    for (String acf : List.of(EngineEndToEndTest.REGIONS, EngineEndToEndTest.METHODS, pairs)) {
      assertWithMessage("per-site calls emitted for\n" + acf)
          .that(siteCalls(acf, 1, true))
          .isAtLeast(10);
      assertWithMessage("per-site calls when off").that(siteCalls(acf, 1, false)).isEqualTo(0);
      TranslatedProductionsTest.agree(acf, CALLS, -1);
      String expected = TranslatedProductionsTest.observe(Engine.INTERPRETED, acf, CALLS, 0, -1);
      String records =
          TranslatedProductionsTest.observe(Engine.INTERPRETED, acf, CALLS, 1, -1, true, false);
      assertWithMessage(
              "records instead of per-site counters: "
                  + TranslatedProductionsTest.firstDifference(expected, records))
          .that(records.equals(expected))
          .isTrue();
      TranslatedProductionsTest.agree(acf, CALLS, 25_013);
    }
  }

  @Test
  void mapsKeyedByTheirPcUpdateSlotsAndAgreeWithTheirRecords() throws Exception {
    // load_strides (examples/acf/load_strides.acf) and every other map keyed by T.PC: translated
    // code and the interpreter apply each call to the key's slot (a state map's last address, a
    // histogram's buckets), with a result into a DISE register and an inserted branch around the
    // second call. The same keys also come from a register at the branches (records, not slots),
    // so both paths update one entry. Profiles, counts and costs must be those of a run in which
    // every call went through the sink's record.
    String strides =
        "sink last = state_map();\n"
            + "sink strides = hist_map(kind = linear, lo = -64, hi = 64, step = 8);\n"
            + "Load: T.OPCLASS == load => Stride, null\n"
            + "Stride: addi $dr0, T.RS1, T.IMM;\n"
            + "    $dr1 = call(last, T.PC, $dr0);\n"
            + "    beqz $dr1, .first;\n"
            + "    sub $dr1, $dr0, $dr1;\n"
            + "    call(strides, T.PC, $dr1);\n"
            + "    .first: T.INSN\n";
    String shared =
        "sink n = count_map();\n"
            + "sink s = sum_map();\n"
            + "sink lo = min_map();\n"
            + "sink h = hist_map(kind = log2);\n"
            + "sink st = state_map(missing = -1);\n"
            + "Load: T.OPCLASS == load => L, null\n"
            + "L: addi $dr0, T.RS1, T.IMM;\n"
            + "    call(n, 7); call(s, 7, $dr0); call(lo, T.PC, $dr0); call(h, 7, $dr0);\n"
            + "    $dr1 = call(st, 7, $dr0); call(h, T.PC, $dr1); T.INSN\n"
            + "Branch: T.OPCLASS == branch => B, null\n"
            + "B: addi $dr2, x0, 7;\n"
            + "    call(n, $dr2); call(s, $dr2, T.PC); call(h, $dr2, T.PC);\n"
            + "    $dr3 = call(st, $dr2, T.PC); T.INSN\n";
    for (String acf : List.of(strides, shared)) {
      assertWithMessage("slot calls emitted for\n" + acf)
          .that(siteCalls(acf, 1, true))
          .isAtLeast(10);
      assertWithMessage("slot calls when off").that(siteCalls(acf, 1, false)).isEqualTo(0);
      String records =
          TranslatedProductionsTest.observe(Engine.INTERPRETED, acf, CALLS, 0, -1, true, false);
      for (int t : new int[] {0, 1, Machine.Options.DEFAULT_TRANSLATE_THRESHOLD}) {
        String slots =
            TranslatedProductionsTest.observe(Engine.INTERPRETED, acf, CALLS, t, -1, true, true);
        assertWithMessage(
                "slots at threshold "
                    + t
                    + ": "
                    + TranslatedProductionsTest.firstDifference(records, slots))
            .that(slots.equals(records))
            .isTrue();
      }
    }
  }

  @Test
  void prologuesThatTurnTheFlagsAgreeWithTheInterpreter() throws Exception {
    // A replaced branch sets counter 0 to 1 (its flag zero_0 goes off); loads then count it on
    // (null matches: a prologue of micro-ops alone) until it wraps to 0 and the next branch is
    // replaced again. Each mask covers only some flag vectors, so translated code must read the
    // vector again after every prologue, mid-unit, or it skips a branch the interpreter replaces.
    String acf =
        "counter c(index = 0, width = 2, init = 0);\n"
            + "P: T.OPCLASS == branch && zero_0 => R, inc_0\n"
            + "Q: T.OPCLASS == load && !zero_0 -> inc_0, null\n"
            + "R: call(Branch_handler, T.INSN); T.INSN;\n";
    TranslatedProductionsTest.agree(acf, CALLS, -1);
    // And stopped by instruction limits that fall inside units.
    for (long limit : new long[] {1_001, 33_333}) {
      TranslatedProductionsTest.agree(acf, CALLS, limit);
    }
  }

  /**
   * The cost figures and sink 0's call count read at every pause of a run of {@code acf} at
   * threshold {@code t}, paused every {@code step} instructions (as the REPL's {@code stats} reads
   * them), then the runs translated code counted in tallies.
   */
  private static List<String> readWhilePaused(String acf, int t, long step) throws Exception {
    Machine m = TranslatedProductionsTest.quietMachine(CALLS.path(), CALLS.args(), t);
    m.kernel().setStdio(1, null, new ByteArrayOutputStream());
    DiseEngine e = (DiseEngine) Engine.INTERPRETED.create(EngineEndToEndTest.lower(acf));
    e.install(m.cpu());
    List<String> seen = new ArrayList<>();
    Machine.Outcome o;
    long at = 0;
    do {
      at += step;
      o = m.run(at);
      seen.add(o.instructions() + ": " + e.cost() + ", sink 0 calls " + e.calls(0));
    } while (o.reason() == StopReason.STEP_LIMIT);
    seen.add("tallied " + e.talliedRuns());
    return seen;
  }

  @Test
  void talliedAccountsReadMidRunAreTheInterpreters() throws Exception {
    // Per-site accounting: translated code counts a case's runs in a tally and the engine adds
    // them in when its figures are read; read at every pause, they must be the interpreter's
    // (a tally folded twice, or not at all, or a wrong shape's cycles differ at some pause).
    String twoSinks =
        "sink a = count_map();\n"
            + "P: T.OPCLASS == branch => R, null\n"
            + "R: call(Branch_handler, T.INSN); call(a, T.PC); T.INSN;\n";
    for (String acf : List.of(EngineEndToEndTest.REGIONS, EngineEndToEndTest.METHODS, twoSinks)) {
      assertTalliedFiguresAreTheInterpreters(acf);
    }
  }

  /**
   * Reads the figures of {@code acf} at every pause translated and interpreted: translated code
   * must have tallied runs, the interpreter none, and every pause's figures must be the same.
   */
  private static void assertTalliedFiguresAreTheInterpreters(String acf) throws Exception {
    List<String> translated = readWhilePaused(acf, 1, 5_003);
    List<String> interpreted = readWhilePaused(acf, 0, 5_003);
    assertWithMessage("pauses").that(translated.size()).isAtLeast(4);
    assertWithMessage("runs tallied by translated code for\n" + acf)
        .that(translated.get(translated.size() - 1))
        .isNotEqualTo("tallied 0");
    assertWithMessage("interpreted")
        .that(interpreted.get(interpreted.size() - 1))
        .isEqualTo("tallied 0");
    assertWithMessage(acf)
        .that(translated.subList(0, translated.size() - 1))
        .containsExactlyElementsIn(interpreted.subList(0, interpreted.size() - 1))
        .inOrder();
  }

  @Test
  void segmentAccountsOfReplacementsWithInsertedCodeAreTheInterpreters() throws Exception {
    // A case that calls no sink's record keeps its accounts per straight-line segment (a tally
    // and its inserted instructions counted at its start) and runs without the cpu's count kept
    // up to date, its interval counters adding the unit's own count: load_strides' shape (a
    // branch around a slot call), and the code region counter behind an inserted branch that
    // skips it when the branch's first operand is zero, before or after T.INSN. Read at every
    // pause, the costs and call counts must be the interpreter's (an inserted instruction counted
    // twice, or a skipped segment's call counted, differ at some pause), and so must the profiles
    // (an interval counter that missed the unit's count, or the T.INSN after it, differs).
    String strides =
        "sink last = state_map();\n"
            + "sink strides = hist_map(kind = linear, lo = -64, hi = 64, step = 8);\n"
            + "P: T.OPCLASS == load => S, null\n"
            + "S: addi $dr0, T.RS1, T.IMM;\n"
            + "    $dr1 = call(last, T.PC, $dr0);\n"
            + "    beqz $dr1, .first;\n"
            + "    sub $dr1, $dr0, $dr1;\n"
            + "    call(strides, T.PC, $dr1);\n"
            + "    .first: T.INSN\n";
    String before =
        EngineEndToEndTest.TRIGGERS
            + "P1: T.OPCLASS == branch && zero_0 => R1, null\n"
            + "R1: addi $dr0, T.RS1, 0; beqz $dr0, .skip; call(Branch_handler, T.INSN);\n"
            + "    .skip: T.INSN;\n";
    String after =
        EngineEndToEndTest.TRIGGERS
            + "P1: T.OPCLASS == load && zero_0 => R1, null\n"
            + "R1: addi $dr0, T.RS1, 0; T.INSN; addi $dr1, x0, 1; call(Branch_handler, T.INSN);\n";
    for (String acf : List.of(strides, before, after)) {
      assertTalliedFiguresAreTheInterpreters(acf);
      TranslatedProductionsTest.agree(acf, CALLS, -1);
      TranslatedProductionsTest.agree(acf, CALLS, 25_013);
    }
  }
}
