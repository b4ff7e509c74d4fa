package org.dise.compiler;

import static com.google.common.truth.Truth.assertThat;

import java.util.List;
import org.dise.compiler.ast.Expr;
import org.dise.compiler.ast.MicroOp;
import org.dise.compiler.sem.CheckedMicroOp;
import org.dise.compiler.sem.CheckedProduction;
import org.dise.compiler.sem.CheckedProgram;
import org.dise.compiler.sem.CheckedReplacement;
import org.dise.compiler.sem.InstructionField;
import org.dise.compiler.sem.Pattern;
import org.dise.compiler.sem.ProgramPrinter;
import org.dise.runtime.dise.HardwareBudget;
import org.junit.jupiter.api.Test;

/** The checked-program API that lowering (issue 4) builds on. */
class CheckedProgramTest {
  static CheckedProgram program(String src) {
    Frontend.Result r = TestSupport.check(src);
    assertThat(TestSupport.rendered(src)).isEmpty();
    return r.program().orElseThrow();
  }

  @Test
  void fig6HotCodeRegionResolves() {
    CheckedProgram p =
        program(
            """
        P1: T.OPCLASS == branch && zero_0 ⇒ R1, null
        R1: call(Branch_handler, T.INSN); T.INSN;
        """);
    CheckedProduction p1 = p.productions().get(0);
    assertThat(p1.name()).isEqualTo("P1");
    assertThat(p1.span().line()).isEqualTo(1);
    Pattern.Binary and = (Pattern.Binary) p1.pattern();
    assertThat(and.op()).isEqualTo(Expr.BinaryOp.AND);
    Pattern.Binary eq = (Pattern.Binary) and.left();
    assertThat(((Pattern.Field) eq.left()).field()).isEqualTo(InstructionField.OPCLASS);
    assertThat(((Pattern.OpClassName) eq.right()).opClass()).isEqualTo("branch");
    assertThat(and.right()).isInstanceOf(Pattern.Flag.class);
    assertThat(((Pattern.Flag) and.right()).counter()).isEqualTo(0);
    assertThat(p1.control()).isEmpty();
    CheckedReplacement r1 = p1.replacement().orElseThrow();
    assertThat(r1.body()).hasSize(2);
    CheckedReplacement.Stmt.Call call = (CheckedReplacement.Stmt.Call) r1.body().get(0);
    assertThat(call.sink()).isEqualTo("Branch_handler");
    assertThat(call.args().get(0)).isInstanceOf(CheckedReplacement.Arg.Insn.class);
    assertThat(r1.body().get(1)).isInstanceOf(CheckedReplacement.Stmt.Original.class);
    assertThat(p.sinks().get(0).component()).isEqualTo("region_counter");
    assertThat(p.counters().get(0).width()).isEqualTo(16);
  }

  @Test
  void bothActionOrdersMeanTheSame() {
    CheckedProgram a = program("P: zero_0 => R, inc_1\nR: T.INSN;");
    CheckedProgram b = program("P: zero_0 -> inc_1, R\nR: T.INSN;");
    assertThat(ProgramPrinter.print(a)).isEqualTo(ProgramPrinter.print(b));
    CheckedMicroOp inc = a.productions().get(0).control().get(0);
    assertThat(inc.kind()).isEqualTo(MicroOp.Kind.INC);
    assertThat(inc.counter()).isEqualTo(1);
  }

  @Test
  void setReadsAnHpsRegisterOrAConstant() {
    CheckedProgram p =
        program(
            "register limit = 7;\n" + "P: zero_0 => null, set_0(limit), set_1(HPS_R1), set_2(42)");
    List<CheckedMicroOp> ops = p.productions().get(0).control();
    assertThat(ops.get(0).source().orElseThrow())
        .isEqualTo(new CheckedMicroOp.Source.Register(2, "limit"));
    assertThat(ops.get(1).source().orElseThrow())
        .isEqualTo(new CheckedMicroOp.Source.Register(1, "HPS_R1"));
    assertThat(ops.get(2).source().orElseThrow()).isEqualTo(new CheckedMicroOp.Source.Constant(42));
    assertThat(p.registers().get(2).init()).isEqualTo(7);
  }

  @Test
  void operandsHaveKinds() {
    CheckedProgram p =
        program(
            "P: T.OPCLASS == load => R, null\n"
                + "R: ld $dr0, T.IMM(T.RS1); add a0, $dr0, T.RD; T.INSN;");
    CheckedReplacement r = p.productions().get(0).replacement().orElseThrow();
    var ld = (CheckedReplacement.Stmt.Instruction) r.body().get(0);
    assertThat(ld.mnemonic()).isEqualTo("ld");
    assertThat(ld.operands().get(0))
        .isEqualTo(new CheckedReplacement.Arg.DiseReg(0, org.dise.compiler.diag.Span.NONE));
    var mem = (CheckedReplacement.Arg.Mem) ld.operands().get(1);
    assertThat(((CheckedReplacement.Arg.Directive) mem.offset()).field())
        .isEqualTo(InstructionField.IMM);
    assertThat(((CheckedReplacement.Arg.Directive) mem.base()).field())
        .isEqualTo(InstructionField.RS1);
    var add = (CheckedReplacement.Stmt.Instruction) r.body().get(1);
    assertThat(((CheckedReplacement.Arg.XReg) add.operands().get(0)).number()).isEqualTo(10);
  }

  @Test
  void eachUseIsOneAcfWithFreshDeclarations() {
    CheckedProgram p =
        program(
            """
        acf counted(c: counter = 0) {
            counter local(width = 4);
            P: zero(c) => null, inc(local)
        }
        use counted;
        use counted(c = 3);
        """);
    assertThat(p.acfs()).hasSize(2);
    assertThat(p.acfs().get(1).name()).isEqualTo("counted#2");
    int first = p.acfs().get(0).productions().get(0).control().get(0).counter();
    int second = p.acfs().get(1).productions().get(0).control().get(0).counter();
    assertThat(first).isNotEqualTo(second);
    assertThat(((Pattern.Flag) p.acfs().get(1).productions().get(0).pattern()).counter())
        .isEqualTo(3);
  }

  @Test
  void budgetIsConfigurable() {
    String src = "P1: zero_0 => null, inc_0\nP2: zero_1 => null, inc_1\nP3: zero_2 => null, inc_2";
    assertThat(TestSupport.check(src).ok()).isTrue();
    Frontend small = TestSupport.frontend().withBudget(HardwareBudget.PAPER.withPatternEntries(2));
    Frontend.Result r = small.check(new org.dise.compiler.diag.SourceFile("t.acf", src), null);
    assertThat(r.diagnostics().sorted().get(0).headline())
        .isEqualTo(
            "t.acf:3:1: error: the program has 3 productions, but the pattern table has 2 entries");
    assertThat(HardwareBudget.PAPER.conditionalInputs()).isEqualTo(4);
    Frontend two = TestSupport.frontend().withBudget(HardwareBudget.PAPER.withCounters(2));
    assertThat(two.check(new org.dise.compiler.diag.SourceFile("t.acf", src), null).ok()).isFalse();
  }
}
