package org.dise.compiler;

import static com.google.common.truth.Truth.assertThat;

import org.dise.compiler.ast.AcfFile;
import org.dise.compiler.diag.Diagnostics;
import org.dise.compiler.diag.SourceFile;
import org.dise.compiler.format.Formatter;
import org.dise.compiler.parse.AcfParsing;
import org.junit.jupiter.api.Test;

/** The canonical form, written out. */
class FormatterTest {
  static String fmt(String src) {
    Diagnostics d = new Diagnostics();
    AcfFile f = AcfParsing.parse(new SourceFile("t.acf", src), d).orElseThrow();
    return Formatter.format(f);
  }

  @Test
  void paperNotationBecomesCanonical() {
    assertThat(
            fmt(
                "P0 : T.OPCLASS == proc_call&&zero_0 → null, R0\n"
                    + "R0 : call(HotMethod_Handler); T.INSN\n"))
        .isEqualTo(
            "P0: T.OPCLASS == proc_call && zero_0 => R0, null\n"
                + "R0: call(HotMethod_Handler); T.INSN;\n");
  }

  @Test
  void fieldsUpperMnemonicsLowerNamesAsWritten() {
    assertThat(fmt("p: T.Target>T.pc->MyRepl,inc_0\nMyRepl: ADDI $dr0,$dr0,0x1;T.insn;"))
        .isEqualTo(
            "p: T.TARGET > T.PC => MyRepl, inc_0\n" + "MyRepl: addi $dr0, $dr0, 0x1; T.INSN;\n");
  }

  @Test
  void aMnemonicSpelledLikeAKeywordOrFlagStaysUpperCase() {
    // Lower-cased, `ACF N` would read back as the keyword acf and `ZERO_1` as a flag.
    String once = fmt("R: call(s, T.INSN);  ACF N; ZERO_1 x; Addi $dr0, $dr0, 1;");
    assertThat(once).isEqualTo("R: call(s, T.INSN); ACF N; ZERO_1 x; addi $dr0, $dr0, 1;\n");
    assertThat(fmt(once)).isEqualTo(once);
  }

  @Test
  void labelsAndLongSequencesGoOnePerLine() {
    assertThat(fmt("R: beqz $dr0, .out; call(s, T.PC); .out: T.INSN;"))
        .isEqualTo("R:\n    beqz $dr0, .out;\n    call(s, T.PC);\n    .out: T.INSN;\n");
  }

  @Test
  void commentsAndBlankLinesSurvive() {
    String src =
        "// head\n\nconst A = 1; // one\n/* block */\nconst B = 2;\n\n\n"
            + "acf x(c: counter = 0) {\n    // inside\n    P: zero(c) => null, inc(c)\n}\n// tail\n";
    assertThat(fmt(src))
        .isEqualTo(
            "// head\n\nconst A = 1;  // one\n/* block */\nconst B = 2;\n\n"
                + "acf x(c: counter = 0) {\n    // inside\n    P: zero(c) => null, inc(c)\n}\n// tail\n");
  }

  @Test
  void keepsParenthesesAsWritten() {
    assertThat(fmt("P: ((zero_0)) || (zero_1 && !overflow(c)) => null, set(c, -1)"))
        .isEqualTo("P: ((zero_0)) || (zero_1 && !overflow(c)) => null, set(c, -1)\n");
  }

  @Test
  void aLongChainIsPrintedWhole() {
    // 20,000 terms: each operator used to copy the text of the chain so far (1.2 GB in acf fmt).
    StringBuilder chain = new StringBuilder("P1: ");
    for (int i = 1; i <= 20_000; i++) {
      chain.append(i == 1 ? "" : " && ").append("T.PC != ").append(i);
    }
    String src = chain + " => R1, null\nR1: T.INSN;\n";
    String out = fmt(src);
    assertThat(out).startsWith("P1: T.PC != 1 && T.PC != 2 && ");
    assertThat(out).contains(" && T.PC != 20000 => R1, null\n");
    assertThat(fmt(out)).isEqualTo(out);
  }
}
