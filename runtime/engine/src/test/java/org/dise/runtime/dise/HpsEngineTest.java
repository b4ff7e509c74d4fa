package org.dise.runtime.dise;

import static com.google.common.truth.Truth.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.Op;
import org.junit.jupiter.api.Test;

/** HPS counters and flags, the conditionals table, and the li expansion of the instantiation. */
class HpsEngineTest {
  @Test
  void incWrapsFromTheMaximumAndOverflowStaysUntilSet() {
    HpsCounters c = new HpsCounters(2, List.of(new CounterSpec(0, 2, 3)), List.of(0L, 1L));
    assertThat(c.zero(0)).isFalse();
    c.apply(MicroOp.inc(0));
    assertThat(c.value(0)).isEqualTo(0);
    assertThat(c.overflow(0)).isTrue();
    c.apply(MicroOp.inc(0));
    assertThat(c.overflow(0)).isTrue(); // sticky
    c.apply(MicroOp.setFromRegister(0, 0));
    assertThat(c.overflow(0)).isFalse();
    assertThat(c.zero(0)).isTrue();
    c.apply(MicroOp.dec(0));
    assertThat(c.value(0)).isEqualTo(3);
    assertThat(c.overflow(0)).isTrue();
    c.apply(MicroOp.setConstant(0, 5)); // masked to the width
    assertThat(c.value(0)).isEqualTo(1);
  }

  @Test
  void truthTableHasOneBitPerFlagVector() {
    PatternExpr.Flag z0 = new PatternExpr.Flag(false, 0);
    PatternExpr.Flag o1 = new PatternExpr.Flag(true, 1);
    ConditionalsTable ct = new ConditionalsTable(List.of(z0, o1));
    PatternExpr e =
        new PatternExpr.Binary(
            PatternExpr.BinaryOp.AND, z0, new PatternExpr.Unary(PatternExpr.UnaryOp.NOT, o1));
    assertThat(ct.truthTable(e)).isEqualTo(0b0010L); // only z0 = 1, o1 = 0
  }

  @Test
  void staticPartFoldsAwayLeavingOnlyFlags() {
    DecodedInsn beq = new DecodedInsn(0x1000, Op.BEQ, Op.BEQ.match(), 0, 5, 6, 0, -8, 0);
    PatternExpr p =
        new PatternExpr.Binary(
            PatternExpr.BinaryOp.AND,
            new PatternExpr.Binary(
                PatternExpr.BinaryOp.AND,
                new PatternExpr.ClassIs(org.dise.runtime.isa.OpClass.BRANCH),
                new PatternExpr.Binary(
                    PatternExpr.BinaryOp.GT,
                    new PatternExpr.Field(InsnField.PC),
                    new PatternExpr.Field(InsnField.TARGET))),
            new PatternExpr.Flag(false, 0));
    assertThat(PatternExpr.fold(p, beq)).isEqualTo(new PatternExpr.Flag(false, 0));
    DecodedInsn add = new DecodedInsn(0x1000, Op.ADD, Op.ADD.match(), 1, 2, 3, 0, 0, 0);
    assertThat(PatternExpr.fold(p, add)).isEqualTo(PatternExpr.FALSE);
  }

  @Test
  void loadImmediateExpansionComputesEveryConstant() {
    long[] values = {
      0,
      1,
      -1,
      2047,
      -2048,
      2048,
      0x7fffffffL,
      0x80000000L,
      -0x80000000L,
      0x123456789abcdefL,
      Long.MAX_VALUE,
      Long.MIN_VALUE,
      0xdeadbeefcafef00dL,
      0x7ffff800L
    };
    for (long v : values) {
      List<Step> steps = new ArrayList<>();
      InstantiationLogic.loadImmediate(steps, 0x1000, Cpu.DISE_REG_BASE, v);
      long[] x = new long[Cpu.DISE_REG_BASE + Cpu.DISE_REGS];
      for (Step s : steps) {
        DecodedInsn d = ((Step.Exec) s).insn;
        long a = x[d.rs1];
        x[d.rd] =
            switch (d.exec) {
              case LUI -> d.imm;
              case ADDI -> a + d.imm;
              case ADDIW -> (int) (a + d.imm);
              case SLLI -> a << d.imm;
              default -> throw new AssertionError(d.exec);
            };
      }
      assertThat(x[Cpu.DISE_REG_BASE]).isEqualTo(v);
    }
  }
}
