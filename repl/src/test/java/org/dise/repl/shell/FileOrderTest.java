package org.dise.repl.shell;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.dise.compiler.Compiler;
import org.dise.compiler.Frontend;
import org.dise.compiler.diag.DiagnosticRenderer;
import org.dise.compiler.diag.SourceFile;
import org.dise.runtime.dise.ProductionSet;
import org.junit.jupiter.api.Test;

/**
 * The REPL reads the language as files do (issue 32, finding 3): pasting a file in its own order
 * used to fail ({@code L1: ... => R1, null} said "unknown replacement `R1`"), and typing R1 first
 * warned that R1 was unused, contradicting it.
 */
class FileOrderTest {
  private static List<Path> examples() throws IOException {
    try (Stream<Path> s = Files.list(ReplSessions.ROOT.resolve("examples/acf"))) {
      return s.filter(p -> p.toString().endsWith(".acf")).sorted().toList();
    }
  }

  @Test
  void everyExampleAcfPastedLineByLineGivesTheFilesSetAndDiagnostics() throws IOException {
    List<Path> files = examples();
    assertThat(files.size()).isAtLeast(10);
    for (Path f : files) {
      String text = Files.readString(f);
      ReplSession s = ReplSessions.fresh();
      StringBuilder said = new StringBuilder();
      for (String line : text.split("\n", -1)) {
        said.append(s.execute(line));
      }
      said.append(s.execute(""));
      assertWithMessage("%s pasted:\n%s", f, said).that(s.errors()).isEqualTo(0);
      assertWithMessage("%s pasted:\n%s", f, said).that(said.toString()).doesNotContain("error");
      Compiler.Compilation file =
          new Compiler(Frontend.standard())
              .compile(List.of(new Compiler.Input(new SourceFile(f.toString(), text), f)));
      ProductionSet expected = file.productions().orElseThrow();
      // As text: a symbol reference's record has no value equality, its printed form does.
      assertWithMessage("%s pasted:\n%s", f, said)
          .that(String.valueOf(s.workspace().set()))
          .isEqualTo(expected.toString());
      // :check prints what acf check prints for the same text.
      Frontend.Result checked = Frontend.standard().checkFile(f);
      String acfCheck =
          DiagnosticRenderer.renderAll(checked.diagnostics().sorted(), false)
              .replace(f.toString(), Workspace.TYPED);
      assertWithMessage("%s", f).that(s.execute(":check")).startsWith(acfCheck);
    }
  }

  @Test
  void aProductionMayNameAReplacementTypedLater() {
    ReplSession s = ReplSessions.fresh();
    String first = s.execute("P1: T.OPCLASS == branch && zero_0 => R1, null");
    assertThat(first)
        .isEqualTo(
            "pending: replacement `R1` (<repl>:1:38) is not declared yet; no production set"
                + " yet until then (:check shows every diagnostic)\n");
    assertThat(s.errors()).isEqualTo(0);
    // The missing name is an error of :check, as of acf check on the same text.
    String check = s.execute(":check");
    assertThat(check).contains("<repl>:1:38: error: unknown replacement `R1`");
    assertThat(s.errors()).isEqualTo(1);
    // No "unused" warning contradicts it when R1 comes.
    assertThat(s.execute("R1: call(Branch_handler, T.INSN); T.INSN;"))
        .isEqualTo("ok: 1 production, 1 replacement sequence, sinks Branch_handler\n");
    assertThat(s.execute(":check"))
        .isEqualTo("complete: 1 production, 1 replacement sequence, sinks Branch_handler\n");
  }

  @Test
  void typingTheReplacementFirstDoesNotWarnItIsUnusedButCheckDoes() {
    ReplSession s = ReplSessions.fresh();
    assertThat(s.execute("R1: call(Branch_handler, T.INSN); T.INSN;"))
        .isEqualTo("ok: 0 productions, 0 replacement sequences\n");
    assertThat(s.execute(":check"))
        .contains("<repl>:1:1: warning: replacement `R1` is not used by any production");
  }

  @Test
  void aCallOfAnUndeclaredSinkIsPendingUntilTheSinkComes() {
    ReplSession s = ReplSessions.fresh();
    assertThat(s.execute("R1: call(x, T.PC); T.INSN;"))
        .startsWith("pending: sink `x` (<repl>:1:10) is not declared yet");
    assertThat(s.execute("sink x = count_map();"))
        .isEqualTo("ok: 0 productions, 0 replacement sequences, sinks x\n");
  }

  @Test
  void whileTheSetIsIncompleteTheLastCompleteSetStays() {
    ReplSession s = ReplSessions.fresh();
    s.execute("R1: call(Branch_handler, T.INSN); T.INSN;");
    s.execute("P1: T.OPCLASS == branch && zero_0 => R1, null");
    ProductionSet complete = s.workspace().set();
    assertThat(s.execute("P2: T.OPCLASS == load => R2, null"))
        .contains("; the production set is unchanged until then");
    assertThat(s.workspace().set()).isSameInstanceAs(complete);
    assertThat(s.execute(":check")).contains("<repl>:3:26: error: unknown replacement `R2`");
    // An error that is not a missing name is still refused.
    assertThat(s.execute("P3: T.OPCLASS == lod => R1, null")).contains("error: unknown opcode");
    // :undo takes the pending entry back: complete again.
    assertThat(s.execute(":undo")).doesNotContain("error");
    assertThat(s.execute(":check"))
        .isEqualTo("complete: 1 production, 1 replacement sequence, sinks Branch_handler\n");
  }

  @Test
  void anIndentedLineContinuesTheEntryBeforeIt() {
    ReplSession s = ReplSessions.fresh();
    s.execute("P1: T.OPCLASS == load => R1, null");
    assertThat(s.execute("R1: call(Branch_handler, T.INSN);")).contains("has no `T.INSN`");
    assertThat(s.execute("    T.INSN;"))
        .isEqualTo("ok: 1 production, 1 replacement sequence, sinks Branch_handler\n");
    assertThat(s.execute(":show")).contains("R1: call(Branch_handler, T.INSN);\n    T.INSN;\n");
    assertThat(ReplSession.continues("    T.INSN;")).isTrue();
    assertThat(ReplSession.continues("    P2: zero_0 => null, inc_0")).isFalse();
    assertThat(ReplSession.continues("T.INSN;")).isFalse();
    assertThat(ReplSession.continues("    // a comment")).isFalse();
  }
}
