package org.dise.compiler;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import java.util.List;
import org.dise.compiler.diag.DiagnosticRenderer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Diagnostics as a table of (input, exact message), and their rendering. */
class DiagnosticsTest {
  static List<Arguments> cases() {
    return List.of(
        // syntax
        Arguments.of(
            "P1: T.OP == add => R1, null\nR1: T.INSN; @",
            "t.acf:2:13: error: syntax error: unexpected character `@`"),
        Arguments.of(
            "P1: T.OP == add",
            "t.acf:1:16: error: syntax error: unexpected end of file; expected `=>`"),
        Arguments.of(
            "P1: T.OP == add => R1, null\nR1: call(Branch_handler, T.INSN)\n    T.INSN;",
            "t.acf:2:33: error: syntax error: expected `;` at the end of the line"),
        Arguments.of(
            "P1: T.OP == 99999999999999999999 => null, inc_0",
            "t.acf:1:13: error: number `99999999999999999999` does not fit in 64 bits"),
        // names
        Arguments.of(
            "P: T.OPCLASS == brnach => null, inc_0",
            "t.acf:1:17: error: unknown opcode class `brnach`"),
        Arguments.of(
            "P: T.OP == lw.x => null, inc_0", "t.acf:1:12: error: unknown instruction `lw.x`"),
        Arguments.of(
            "P: T.FOO == 1 => null, inc_0", "t.acf:1:4: error: unknown instruction field `T.FOO`"),
        Arguments.of("P: zero_0 => R9, null", "t.acf:1:14: error: unknown replacement `R9`"),
        Arguments.of("P: zero(c) => null, inc_0", "t.acf:1:9: error: unknown counter `c`"),
        Arguments.of(
            "P: zero_0 => null, set_0(HPS_R5)", "t.acf:1:26: error: unknown HPS register `HPS_R5`"),
        Arguments.of("P: branch => null, inc_0", "t.acf:1:4: error: `branch` is an opcode class"),
        Arguments.of("P: add == 1 => null, inc_0", "t.acf:1:4: error: `add` is an instruction"),
        Arguments.of("use nothing;", "t.acf:1:5: error: unknown ACF block `nothing`"),
        Arguments.of(
            "acf b {\n    import sampling;\n}\nuse b;",
            "t.acf:2:5: error: `import` belongs at the top level of a file"),
        Arguments.of(
            "P: zero_0 => null, inc(c)\ncounter c(index = 2);\ncounter d(index = 2);",
            "t.acf:3:9: error: counter 2 is declared twice (first at t.acf:2)"),
        Arguments.of(
            "const A = 1;\nuse A;", "t.acf:2:5: error: `A` is a constant, not an ACF block"),
        // dynamic values
        Arguments.of(
            "P: sp == 0 => null, inc_0",
            "t.acf:1:4: error: a pattern cannot test the contents of register `sp`: it exists "
                + "only when the instruction executes"),
        Arguments.of(
            "P: T.VALUE == 0 => null, inc_0",
            "t.acf:1:4: error: a pattern cannot test `T.VALUE`: it exists only when the "
                + "instruction executes"),
        // types
        Arguments.of(
            "P: T.OP == 3 => null, inc_0",
            "t.acf:1:4: error: cannot compare an instruction name with a number"),
        Arguments.of(
            "P: !T.PC => null, inc_0",
            "t.acf:1:5: error: `!` needs a condition, but this is a number"),
        Arguments.of(
            "P: zero_0 < zero_1 => null, inc_0",
            "t.acf:1:4: error: `<` compares numbers, not conditions"),
        // operands
        Arguments.of(
            "P: zero_0 => R, null\nR: add $dr0, $dr1; T.INSN;",
            "t.acf:2:4: error: `add` takes 3 operands, not 2"),
        Arguments.of(
            "P: zero_0 => R, null\nR: j .out; T.INSN;", "t.acf:2:6: error: undefined label `.out`"),
        Arguments.of(
            "P: zero_0 => R, null\nR: lw $dr0, 4($dr9); T.INSN;",
            "t.acf:2:15: error: DISE register `$dr9` is beyond the hardware's 8 DISE registers "
                + "($dr0..$dr7)"),
        // lints
        Arguments.of(
            "P: zero_0 => null, inc_0\nR: T.INSN;",
            "t.acf:2:1: warning: replacement `R` is not used by any production"),
        Arguments.of(
            "P: T.OPCLASS == load => R, null\nR: addi $dr0, $dr0, 1;",
            "t.acf:1:1: warning: production `P` replaces the program's instructions with `R`,"
                + " which has no `T.INSN`: every instruction it matches is dropped"),
        Arguments.of(
            "R: call(nosuch, T.PC); T.INSN;",
            "t.acf:1:1: warning: replacement `R` is not used by any production\n"
                + "t.acf:1:9: error: unknown sink `nosuch`"),
        Arguments.of(
            "P: zero_0 || zero_1 && zero_2 => null, inc_0",
            "t.acf:1:14: warning: `&&` within `||` without parentheses"));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void reportsExactly(String input, String expected) {
    assertWithMessage(input).that(TestSupport.headlines(input)).isEqualTo(expected);
  }

  @Test
  void rendersSourceLineUnderlineAndHint() {
    assertThat(TestSupport.rendered("P1: T.OPCLASS == brnach && zero_0 => null, inc_0\n"))
        .isEqualTo(
            """
            t.acf:1:18: error: unknown opcode class `brnach`
                P1: T.OPCLASS == brnach && zero_0 => null, inc_0
                                 ^~~~~~
                hint: did you mean `branch`?
            """);
  }

  @Test
  void underlinesCountCodePointsNotUtf16Units() {
    // `⇒` is one column: the underline of `R9` must sit under it, not one column off.
    assertThat(TestSupport.rendered("P: zero_0 ⇒ R9, null"))
        .isEqualTo(
            """
            t.acf:1:13: error: unknown replacement `R9`
                P: zero_0 ⇒ R9, null
                            ^~
            """);
  }

  @Test
  void oneRunReportsEveryError() {
    String src =
        "P1: T.OPCLASS == brnach => R1, null\n"
            + "P2: T.OP == addd => R2, null\n"
            + "R1: addx $dr0, $dr0, 1; T.INSN;\n";
    assertThat(TestSupport.check(src).diagnostics().errorCount())
        .isEqualTo(4); // brnach, addd, R2, addx
  }

  @Test
  void jsonForEditors() {
    String json =
        DiagnosticRenderer.json(TestSupport.check("P: zero_0 => R9, null").diagnostics().sorted());
    assertThat(json)
        .isEqualTo(
            """
        [
          {"file": "t.acf", "severity": "error", "line": 1, "column": 14, "endLine": 1, \
        "endColumn": 16, "message": "unknown replacement `R9`", "hint": null}
        ]""");
    assertThat(DiagnosticRenderer.json(List.of())).isEqualTo("[]");
  }
}
