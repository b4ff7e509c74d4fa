package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.dise.testsupport.Captured;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Exit codes and output of {@code acf check} and {@code acf fmt}. */
class CheckFmtCommandTest {
  static final String LIB = "../spec/conformance/lib";
  static final String PAPER = "../spec/conformance/valid/paper_notation.acf";

  record Run(int status, String out, String err) {}

  static Run run(String... args) {
    Captured c = Captured.run(() -> Cli.commandLine().execute(args));
    return new Run(c.status(), c.stdout(), c.stderr());
  }

  @Test
  void paperNotationChecksWithTheFixtureLibrary() {
    Run r = run("check", "--lib", LIB, PAPER);
    assertThat(r.status()).isEqualTo(0);
    assertThat(r.err()).endsWith("0 errors, 4 warnings\n");
  }

  @Test
  void errorsExitOneAndRenderEachDiagnostic(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("bad.acf");
    Files.writeString(f, "P: T.OPCLASS == brnach => null, inc_0\n");
    Run r = run("check", "--lib", LIB, f.toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.err())
        .contains(
            "bad.acf:1:17: error: unknown opcode class `brnach`\n"
                + "    P: T.OPCLASS == brnach => null, inc_0\n"
                + "                    ^~~~~~\n"
                + "    hint: did you mean `branch`?\n");
    Run json = run("check", "--diagnostics=json", "--lib", LIB, f.toString());
    assertThat(json.status()).isEqualTo(1);
    assertThat(json.out()).contains("\"message\": \"unknown opcode class `brnach`\"");
  }

  @Test
  void aReplacementThatLosesTheLoadsWarnsAndFailsUnderStrict(@TempDir Path dir) throws Exception {
    // Issue 32, finding 2: this passed `acf check` silently; when run, every load vanished.
    Path f = dir.resolve("loads.acf");
    Files.writeString(
        f,
        "sink loads = count_map();\nP1: T.OPCLASS == load => R1, null\n"
            + "R1: call(loads, T.PC);\n");
    Run r = run("check", f.toString());
    assertThat(r.status()).isEqualTo(0);
    assertThat(r.err())
        .contains(
            "loads.acf:2:1: warning: production `P1` replaces the program's instructions with"
                + " `R1`, which has no `T.INSN`: every instruction it matches is dropped\n");
    assertThat(r.err()).contains("hint: add `T.INSN` to `R1` to keep the instruction");
    Run strict = run("check", "--strict", f.toString());
    assertThat(strict.status()).isEqualTo(1);
    assertThat(strict.err()).contains("loads.acf:2:1: error: production `P1` replaces");
    // `delete` says it is meant, and survives acf fmt.
    Files.writeString(
        f,
        "sink loads = count_map();\nP1: T.OPCLASS == load => R1, null\n"
            + "R1: call(loads, T.PC); delete;\n");
    Run deleted = run("check", "--strict", f.toString());
    assertThat(deleted.status()).isEqualTo(0);
    assertThat(deleted.err()).isEmpty();
    assertThat(run("fmt", f.toString()).out()).contains("R1: call(loads, T.PC); delete;\n");
  }

  @Test
  void usageErrorsExitTwo() {
    assertThat(run("check").status()).isEqualTo(2);
    assertThat(run("check", "no/such/file.acf").status()).isEqualTo(2);
    assertThat(run("check", "--diagnostics=xml", PAPER).status()).isEqualTo(2);
    assertThat(run("fmt", "no/such/file.acf").status()).isEqualTo(2);
  }

  @Test
  void fmtPrintsCanonicalFormAndChecks(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("x.acf");
    Files.writeString(f, "P0 : T.OP == on_trig_inst → set_0(HPS_R0), null\n");
    Run r = run("fmt", f.toString());
    assertThat(r.status()).isEqualTo(0);
    assertThat(r.out()).isEqualTo("P0: T.OP == on_trig_inst => null, set_0(HPS_R0)\n");
    assertThat(run("fmt", "--check", f.toString()).status()).isEqualTo(1);
    assertThat(run("fmt", "--write", f.toString()).status()).isEqualTo(0);
    assertThat(run("fmt", "--check", f.toString()).status()).isEqualTo(0);
    Files.writeString(f, "P0: T.OP == => null\n");
    assertThat(run("fmt", f.toString()).status()).isEqualTo(1);
    Run both = run("fmt", "--check", "--write", f.toString());
    assertThat(both.status()).isEqualTo(2);
    assertThat(both.err()).isEqualTo("acf: --check and --write exclude each other\n");
  }

  @Test
  void theUnknownSinkHintNamesAComponentThatRuns(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("calls.acf");
    String body = "R1: call(Foo, T.INSN); T.INSN;\nP1: T.OPCLASS == proc_call => R1, null\n";
    Files.writeString(f, body);
    Run r = run("check", f.toString());
    assertThat(r.status()).isEqualTo(1);
    String hint = r.err().substring(r.err().indexOf("`sink Foo = ") + 1);
    String declaration = hint.substring(0, hint.indexOf('`'));
    // Following the hint gives an ACF that acf run runs.
    Files.writeString(f, declaration + "\n" + body);
    Run ok = run("run", "--acf", f.toString(), ConfigCommandTest.PROGRAM, "3");
    assertThat(ok.err()).contains("profile Foo:");
    assertThat(ok.status()).isEqualTo(0);
  }
}
