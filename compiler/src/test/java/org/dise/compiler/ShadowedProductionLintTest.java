package org.dise.compiler;

import static com.google.common.truth.Truth.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The shadowed-production lint: a later production with a replacement whose pattern has every
 * conjunct of an earlier one with a replacement is reported, naming the earliest such.
 */
class ShadowedProductionLintTest {
  private static String warnings(String text) {
    StringBuilder sb = new StringBuilder();
    TestSupport.check(text).diagnostics().sorted().stream()
        .filter(d -> d.headline().contains("never used"))
        .forEach(d -> sb.append(d.headline()).append('\n'));
    return sb.toString();
  }

  @Test
  void theEarliestImpliedProductionIsNamed() {
    assertThat(
            warnings(
                """
        P1: T.OPCLASS == load => R1, null
        P2: T.OPCLASS == load && T.RS1 == 2 => R1, null
        P3: T.RS1 == 2 && T.OPCLASS == load && T.RD == 5 => R1, null
        R1: T.INSN;
        """))
        .isEqualTo(
            """
        t.acf:2:1: warning: the replacement of production `P2` is never used: production `P1` (line 1) matches whatever it matches and comes first
        t.acf:3:1: warning: the replacement of production `P3` is never used: production `P1` (line 1) matches whatever it matches and comes first
        """);
  }

  @Test
  void aRareConjunctOfTheEarlierProductionMustBeThereToo() {
    // P1's rarest conjunct (T.RD == 7) is not in P3; P2's are all in P3.
    assertThat(
            warnings(
                """
        P1: T.OPCLASS == load && T.RD == 7 => R1, null
        P2: T.OPCLASS == load && T.RS1 == 2 => R1, null
        P3: T.OPCLASS == load && T.RS1 == 2 && T.RD == 5 => R1, null
        P4: T.OPCLASS == load && T.RD == 5 => R1, null
        R1: T.INSN;
        """))
        .isEqualTo(
            """
        t.acf:3:1: warning: the replacement of production `P3` is never used: production `P2` (line 2) matches whatever it matches and comes first
        """);
  }

  @Test
  void productionsSharingACommonConjunctAreNotReportedAndStayLinear() {
    // 10,000 productions that all test the same opcode class, each at its own PC: none implies
    // another (this was quadratic: every later production looked at every earlier one).
    StringBuilder text = new StringBuilder();
    for (int i = 1; i <= 10_000; i++) {
      text.append("P")
          .append(i)
          .append(": T.PC == ")
          .append(4 * i)
          .append(" && T.OPCLASS == load => R1, null\n");
    }
    text.append("P10001: T.PC == 40 && T.OPCLASS == load && T.RD == 1 => R1, null\n");
    text.append("R1: T.INSN;\n");
    assertThat(warnings(text.toString()))
        .isEqualTo(
            "t.acf:10001:1: warning: the replacement of"
                + " production `P10001` is never used: production `P10` (line 10) matches whatever it"
                + " matches and comes first\n");
  }
}
