package org.dise.compiler;

import static com.google.common.truth.Truth.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.dise.compiler.diag.Diagnostic;
import org.dise.compiler.diag.SourceFile;
import org.junit.jupiter.api.Test;

/**
 * The lost-instructions lint (issue 32, finding 2): {@code R1: call(loads, T.PC);} behind a load
 * pattern passed {@code acf check} and, when run, every load vanished. Now it is a warning at the
 * production, an error under strict, and {@code delete} says the drop is meant.
 */
class LostInstructionLintTest {
  private static final String SINK = "sink loads = count_map();\n";

  private static List<String> lost(Frontend frontend, String text) {
    return frontend.check(new SourceFile("t.acf", text), null).diagnostics().sorted().stream()
        .filter(d -> d.message().contains("has no `T.INSN`"))
        .map(Diagnostic::headline)
        .toList();
  }

  private static List<String> lost(String text) {
    return lost(TestSupport.frontend(), text);
  }

  @Test
  void aLoadPatternWhoseReplacementForgetsTheLoadIsReportedAtTheProduction() {
    assertThat(lost(SINK + "P1: T.OPCLASS == load => R1, null\nR1: call(loads, T.PC);\n"))
        .containsExactly(
            "t.acf:2:1: warning: production `P1` replaces the program's instructions with `R1`,"
                + " which has no `T.INSN`: every instruction it matches is dropped");
  }

  @Test
  void strictMakesItAnError() {
    Frontend strict = TestSupport.frontend().withStrict(true);
    Frontend.Result r =
        strict.check(
            new SourceFile(
                "t.acf", SINK + "P1: T.OPCLASS == load => R1, null\nR1: call(loads, T.PC);\n"),
            null);
    assertThat(r.ok()).isFalse();
    assertThat(lost(strict, SINK + "P1: T.OPCLASS == load => R1, null\nR1: call(loads, T.PC);"))
        .containsExactly(
            "t.acf:2:1: error: production `P1` replaces the program's instructions with `R1`,"
                + " which has no `T.INSN`: every instruction it matches is dropped");
  }

  @Test
  void deleteSaysTheDropIsMeant() {
    Frontend.Result r =
        TestSupport.check(
            SINK + "P1: T.OPCLASS == load => R1, null\nR1: call(loads, T.PC); delete;\n");
    assertThat(r.diagnostics().sorted()).isEmpty();
    assertThat(r.program().get().productions().get(0).replacement().get().deletes()).isTrue();
  }

  @Test
  void deleteBesideTInsnIsAnError() {
    assertThat(TestSupport.headlines("P1: T.OPCLASS == load => R1, null\nR1: T.INSN; delete;"))
        .isEqualTo(
            "t.acf:2:13: error: `delete` in a sequence that executes the original instruction"
                + " (`T.INSN`)");
  }

  @Test
  void replacingCodewordsOnlyLosesNothing() {
    assertThat(
            lost(
                SINK
                    + "P0: T.OP == on_trig_inst && zero_0 => R0, null\n"
                    + "P1: T.OPCLASS == codeword => R0, null\n"
                    + "P2: false => R0, null\n"
                    + "R0: call(loads, T.PC);\n"))
        .isEmpty();
    // ... but one side of an || that matches real instructions is enough.
    assertThat(
            lost(
                SINK
                    + "P0: T.OP == on_trig_inst || T.OPCLASS == load => R0, null\n"
                    + "R0: call(loads, T.PC);\n"))
        .hasSize(1);
  }

  @Test
  void aBlockUsedTwiceIsReportedOnce() {
    assertThat(
            lost(
                SINK
                    + "acf b(c: opclass) {\n"
                    + "    P: T.OPCLASS == c => R, null\n"
                    + "    R: call(loads, T.PC);\n"
                    + "}\n"
                    + "use b(load);\nuse b(store);\n"))
        .hasSize(1);
  }

  @Test
  void noExampleOrLibraryAcfLosesAnInstruction() throws IOException {
    List<Path> files;
    try (Stream<Path> s =
        Stream.concat(
            Files.list(Path.of("..", "examples", "acf")),
            Files.list(Path.of("..", "stdlib-acfs", "src", "main", "resources", "acf")))) {
      files = s.filter(p -> p.toString().endsWith(".acf")).sorted().toList();
    }
    assertThat(files).isNotEmpty();
    for (Path f : files) {
      assertThat(lost(Frontend.standard(), Files.readString(f))).isEmpty();
    }
  }
}
