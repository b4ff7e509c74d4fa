package org.dise.integration;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import java.util.List;
import org.dise.integration.EngineEndToEndTest.Engine;
import org.dise.integration.TranslatedProductionsTest.Program;
import org.dise.runtime.Machine;
import org.dise.runtime.cpu.Cpu;
import org.junit.jupiter.api.Test;

/**
 * Replacements that are more than a prologue of calls (inserted instructions, {@code $drN = call},
 * calls and instructions after {@code T.INSN}) run in translated code emitted as bytecode ({@code
 * DecodeStage.replacementEmitter}, spec/emulator.md "Replacements emitted as bytecode"): taken for
 * each form it covers, and observably the same run as the interpreter's (and as translated code
 * calling the engine), under instruction limits and when {@code T.INSN} faults after inserted
 * instructions ran.
 */
class TranslatedReplacementTest {
  private static final Program CALLS = TranslatedProductionsTest.CALLS;

  /** Replacements run emitted and calls into the engine for tagged instructions, at threshold 1. */
  private record Runs(long emitted, long engineCalls) {}

  private static Runs runs(String acf, boolean inline) throws Exception {
    Machine m = TranslatedProductionsTest.translatedRun(acf, inline);
    Cpu.Counters c = m.cpu().counters();
    return new Runs(c.emittedReplacementRuns(), c.taggedCalls());
  }

  /**
   * {@code acf} runs emitted (at least {@code min} times, with no call into the engine) and agrees
   * with the interpreter, run to the end and stopped by {@code limits}.
   */
  private static void emittedAndExact(String acf, long min, long... limits) throws Exception {
    Runs on = runs(acf, true);
    assertWithMessage("replacements emitted").that(on.emitted()).isAtLeast(min);
    assertWithMessage("calls into the engine").that(on.engineCalls()).isEqualTo(0);
    Runs off = runs(acf, false);
    assertWithMessage("emitted with emission off").that(off.emitted()).isEqualTo(0);
    assertWithMessage("engine calls with emission off").that(off.engineCalls()).isAtLeast(min);
    TranslatedProductionsTest.agree(acf, CALLS, -1);
    for (long limit : limits) {
      TranslatedProductionsTest.agree(acf, CALLS, limit);
    }
  }

  @Test
  void insertedInstructionsWithLocalBranchesBeforeTInsn() throws Exception {
    // The stdlib's dise_hot_code_regions: a DISE-register countdown, a branch over the call to
    // T.INSN's label, li reloading it. Limits land inside units and after inserted instructions.
    String acf =
        "P: T.OPCLASS == branch => R, null\n"
            + "R: addi $dr0, $dr0, -1; bgtz $dr0, .skip; li $dr0, 7; call(Branch_handler, T.INSN);\n"
            + "    .skip: T.INSN;\n";
    emittedAndExact(acf, 1000, 33_333);
  }

  @Test
  void returningCallIntoADiseRegister() throws Exception {
    // examples/acf/load_strides.acf: the effective address, a state map's previous value back
    // into $dr1, a branch on it, a subtraction and a histogram call with a DISE register.
    String acf =
        "sink last = state_map();\n"
            + "sink strides = hist_map(kind = linear, lo = -64, hi = 64, step = 8);\n"
            + "Load: T.OPCLASS == load => Stride, null\n"
            + "Stride: addi $dr0, T.RS1, T.IMM; $dr1 = call(last, T.PC, $dr0);\n"
            + "    beqz $dr1, .first; sub $dr1, $dr0, $dr1; call(strides, T.PC, $dr1);\n"
            + "    .first: T.INSN\n";
    emittedAndExact(acf, 1000, 20_011);
  }

  @Test
  void aDiseRegisterWrittenOnOnePathIsReadAfterTheJoin() throws Exception {
    // A replacement's writes are forwarded to its later reads (UnitRegisters.forwardWrites) until
    // control joins: $dr1 is written only when $dr0 is odd, and read after the join; $dr3 sums it,
    // $dr2 reads the state map's value back straight after the call wrote it.
    String acf =
        "sink last = state_map();\n"
            + "P: T.OPCLASS == branch => R, null\n"
            + "R: addi $dr0, $dr0, 1; andi $dr2, $dr0, 1; beqz $dr2, .even;\n"
            + "    addi $dr1, $dr0, 7;\n"
            + "    .even: add $dr3, $dr3, $dr1; $dr2 = call(last, T.PC, $dr3);\n"
            + "    add $dr4, $dr4, $dr2; T.INSN\n";
    emittedAndExact(acf, 1000, 25_013);
  }

  @Test
  void callsAndInstructionsAfterTInsn() throws Exception {
    // The loaded value (T.RD after the load) into a call, and stdlib narrow_operand_pcs: T.INSN,
    // then inserted instructions on its result, a branch to the end label and a call.
    emittedAndExact(
        "sink values = hist_map(kind = log2);\n"
            + "Load: T.OPCLASS == load && T.OP != fld && T.OP != flw => Value, null\n"
            + "Value: T.INSN; call(values, T.PC, T.RD)\n",
        1000);
    emittedAndExact(
        "sink narrow = count_map();\n"
            + "Op: (T.OPCLASS == alu || T.OPCLASS == muldiv) && T.RD != 0 => R, null\n"
            + "R: T.INSN; srai $dr0, T.RD, 15; addi $dr0, $dr0, 1; sltiu $dr0, $dr0, 2;\n"
            + "    beqz $dr0, .wide; call(narrow, T.PC, T.NEXT_PC); .wide:\n",
        1000,
        40_009);
  }

  @Test
  void callsAfterATransferSeeWhereItWent() throws Exception {
    // examples/acf/branch_outcomes.acf: T.NEXT_PC after a branch is the taken target or the
    // fall-through, as the branch decided; a call pair recorded after the call wrote ra.
    emittedAndExact(
        "sink outcomes = count_map();\n"
            + "Branch: T.OPCLASS == branch => Outcome, null\n"
            + "Outcome: T.INSN; call(outcomes, T.PC, T.NEXT_PC)\n",
        1000,
        30_001);
    emittedAndExact(
        "P: T.OPCLASS == proc_call => R, null\n"
            + "R: T.INSN; addi $dr5, $dr5, 1; call(CallPair_handler, T.INSN);\n",
        10);
  }

  @Test
  void twoAcfsOnOneInstructionWithFlagsAndSeveralPlans() throws Exception {
    // Loads match two ACFs (parts before T.INSN in ACF order, T.INSN once, parts after), with a
    // counter turning one production on and off: two plans per load, picked by the flag vector.
    String acf =
        "counter c(index = 0, width = 2, init = 0);\n"
            + "sink a = count_map();\n"
            + "sink b = sum_map();\n"
            + "acf first() {\n"
            + "  L: T.OPCLASS == load && zero_0 => R, inc_0\n"
            + "  M: T.OPCLASS == load && !zero_0 -> inc_0, null\n"
            + "  R: addi $dr2, T.RS1, T.IMM; call(a, $dr2); T.INSN; addi $dr3, $dr3, 1;\n"
            + "}\n"
            + "acf second() {\n"
            + "  L2: T.OPCLASS == load => R2, null\n"
            + "  R2: xori $dr4, $dr3, 5; T.INSN; call(b, T.PC, $dr4, $dr3);\n"
            + "}\n"
            + "use first;\nuse second;\n";
    emittedAndExact(acf, 500, 5_003);
  }

  @Test
  void formsOnlyTheEngineRunsStillCallIt() throws Exception {
    // A memory access inserted, no T.INSN, a jump across T.INSN: the engine runs them, and the
    // run is the same.
    for (String r :
        List.of(
            "R: ld $dr0, 0(sp); T.INSN;",
            "R: call(CallPair_handler, T.INSN);",
            "R: beqz zero, .after; T.INSN; .after: addi $dr0, $dr0, 1;")) {
      String acf = "P: T.OPCLASS == proc_call => R, null\n" + r + "\n";
      assertWithMessage(r).that(runs(acf, true).emitted()).isEqualTo(0);
      TranslatedProductionsTest.agree(acf, CALLS, -1);
    }
  }

  @Test
  void aFaultInTInsnAfterInsertedInstructionsIsReportedAsInterpreted() throws Exception {
    // From the 60th load on, the replacement points the load's base register at address 8 before
    // T.INSN runs: the load faults after two inserted instructions retired and a DISE register
    // and the counters moved.
    String acf =
        "counter n(index = 0, width = 6, init = 4);\n"
            + "Q: T.OPCLASS == load && T.OP == ld && T.RS1 != 2 && T.RS1 != 0 && overflow_0 => Bad, null\n"
            + "P: T.OPCLASS == load => R, inc_0\n"
            + "R: addi $dr0, $dr0, 1; T.INSN;\n"
            + "Bad: addi $dr1, $dr0, 3; addi T.RS1, zero, 8; T.INSN;\n";
    String interpreted = TranslatedProductionsTest.observe(Engine.INTERPRETED, acf, CALLS, 0, -1);
    assertThat(interpreted).contains("FAULT");
    assertThat(runs(acf, true).emitted()).isAtLeast(10);
    TranslatedProductionsTest.agree(acf, CALLS, -1);
  }
}
