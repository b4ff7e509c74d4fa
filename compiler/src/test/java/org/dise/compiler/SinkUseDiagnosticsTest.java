package org.dise.compiler;

import static com.google.common.truth.Truth.assertWithMessage;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The catalogue's rules as diagnostics at line and column (issue 13): parameter values, calls,
 * results, tags and instruction classes that the runtime would refuse or silently ignore.
 */
class SinkUseDiagnosticsTest {
  static List<Arguments> cases() {
    return List.of(
        // parameter values
        Arguments.of(
            "sink r = rap_tree(stream = banana);",
            "t.acf:1:28: error: parameter `stream` of `rap_tree` must be value, address or pc,"
                + " not `banana`"),
        Arguments.of(
            "sink r = rap_tree(branching = 3);",
            "t.acf:1:31: error: parameter `branching` of `rap_tree` must be a power of two"
                + " 2..256, got 3"),
        Arguments.of(
            "sink r = rap_tree(epsilon_ppm = -5);",
            "t.acf:1:33: error: parameter `epsilon_ppm` of `rap_tree` must be 1..1000000, got"
                + " -5"),
        Arguments.of(
            "sink h = hist_map(kind = linear, lo = 0, hi = 64);",
            "t.acf:1:10: error: `hist_map`: a linear histogram needs lo, hi and step (missing"
                + " step): write `hist_map(kind = linear, lo = -64, hi = 64, step = 8)`"),
        Arguments.of(
            "sink h = hist_map(kind = linear, lo = 9, hi = 2, step = 1);",
            "t.acf:1:47: error: `hist_map`: hi (2) must be greater than lo (9)"),
        Arguments.of(
            "sink k = keyed_counter(key = pc);",
            "t.acf:1:10: error: `keyed_counter` is no longer a sink component"),
        Arguments.of(
            "sink c = region_counter(capacity = 4);",
            "t.acf:1:25: error: `region_counter` has no parameter `capacity`"),
        // tags and calls
        Arguments.of(
            "sink v = bbv();\nP: T.OPCLASS == load => tag(v)",
            "t.acf:2:1: error: production `P` tags instructions for `v`, a bbv, which takes no"
                + " tagged instructions"),
        Arguments.of(
            "sink v = value_profile();\nP: T.OPCLASS == load => R, null\n"
                + "R: call(v, T.PC); T.INSN",
            "t.acf:3:4: error: `v` is a value_profile, which takes no calls"),
        Arguments.of(
            "sink m = count_map();\nP: T.OPCLASS == load => R, null\n"
                + "R: call(m, 1, 2, 3, 4, 5); T.INSN",
            "t.acf:3:4: error: `m` is a count_map, whose calls take 1 to 4 key parts; this one"
                + " passes 5 arguments"),
        Arguments.of(
            "sink m = sum_map();\nP: T.OPCLASS == load => R, null\n" + "R: call(m, T.PC); T.INSN",
            "t.acf:3:4: error: `m` is a sum_map, whose calls take 1 to 4 key parts, then the"
                + " value; this one passes 1 argument"),
        Arguments.of(
            "sink m = count_map();\nP: T.OPCLASS == load => R, null\n"
                + "R: call(m, T.PC); call(m, T.PC, T.RD); T.INSN",
            "t.acf:3:19: error: map `m` is called with 2 arguments here, but with 1 at line 3"),
        Arguments.of(
            "sink r = region_counter();\nP: T.OPCLASS == branch => Rec, null\n"
                + "Rec: $dr0 = call(r, T.INSN); T.INSN",
            "t.acf:3:6: error: `r` is a region_counter, whose calls return nothing"),
        Arguments.of(
            "sink m = count_map();\nP: T.OPCLASS == branch => R, null\n"
                + "R: call(m, T.PC, T.NEXT_PC); T.INSN",
            "t.acf:3:18: error: `T.NEXT_PC` is known only after `T.INSN` has run"),
        Arguments.of(
            "sink m = count_map();\nP: T.TID == 1000 => R, null\nR: call(m, T.PC); T.INSN",
            "t.acf:2:4: error: a pattern cannot test `T.TID`: it exists only when the instruction"
                + " executes"),
        Arguments.of(
            "sink m = state_map();\nP: T.OPCLASS == load => R, null\n"
                + "R: $dr12 = call(m, T.PC, 1); T.INSN",
            "t.acf:3:4: error: DISE register `$dr12` is beyond the hardware's 8 DISE registers"
                + " ($dr0..$dr7)"),
        // instruction classes
        Arguments.of(
            "sink w = watchpoint(address = 4096);\n"
                + "P: T.OPCLASS == load || T.OPCLASS == store => R, null\n"
                + "R: call(w, T.INSN); T.INSN",
            "t.acf:2:4: error: production `P` feeds `w`, a watchpoint, which uses only store"
                + " instructions, but its pattern can match `lb` (load)"),
        Arguments.of(
            "sink w = watchpoint(address = 4096);\n"
                + "P: T.OP == sd || T.OP == ld => R, null\nR: call(w, T.INSN); T.INSN",
            "t.acf:2:4: error: production `P` feeds `w`, a watchpoint, which uses only store"
                + " instructions, but its pattern can match `ld` (load)"));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void reportsExactly(String input, String expected) {
    assertWithMessage(input).that(TestSupport.headlines(input)).isEqualTo(expected);
  }

  static List<String> accepted() {
    return List.of(
        "sink w = watchpoint(address = 4096);\nP: T.OPCLASS == store => R, null\n"
            + "R: call(w, T.INSN); T.INSN",
        "sink w = watchpoint(address = 4096);\nP: T.OP == sd || T.OP == sw => R, null\n"
            + "R: call(w, T.INSN); T.INSN",
        "sink m = state_map(missing = -1);\nsink h = hist_map(kind = linear, lo = -64, hi = 64,"
            + " step = 8);\nP: T.OPCLASS == load => R, null\n"
            + "R: addi $dr0, T.RS1, T.IMM; $dr1 = call(m, T.PC, $dr0); sub $dr1, $dr0, $dr1;"
            + " call(h, T.PC, $dr1); T.INSN",
        "sink m = count_map();\nP: T.OPCLASS == branch => R, null\n"
            + "R: T.INSN; call(m, T.PC, T.NEXT_PC)",
        // T.TID, the running thread, is a call argument before or after T.INSN
        "sink m = count_map();\nP: T.OPCLASS == proc_call => R, null\n"
            + "R: call(m, T.TID, T.TARGET); T.INSN; call(m, T.TID, T.NEXT_PC)");
  }

  @ParameterizedTest
  @MethodSource("accepted")
  void accepts(String input) {
    assertWithMessage(input).that(TestSupport.headlines(input)).isEmpty();
  }
}
