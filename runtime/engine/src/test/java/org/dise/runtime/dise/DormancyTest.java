package org.dise.runtime.dise;

import static com.google.common.truth.Truth.assertThat;

import java.util.List;
import org.dise.runtime.isa.OpClass;
import org.junit.jupiter.api.Test;

/**
 * Which production sets can never act, so that a session may leave them out of the decode stage.
 */
class DormancyTest {
  static final PatternExpr BRANCH = new PatternExpr.ClassIs(OpClass.BRANCH);
  static final PatternExpr.Flag OVERFLOW_1 = new PatternExpr.Flag(true, 1);
  static final PatternExpr.Flag ZERO_0 = new PatternExpr.Flag(false, 0);

  static PatternExpr and(PatternExpr a, PatternExpr b) {
    return new PatternExpr.Binary(PatternExpr.BinaryOp.AND, a, b);
  }

  static PatternExpr not(PatternExpr a) {
    return new PatternExpr.Unary(PatternExpr.UnaryOp.NOT, a);
  }

  static ProductionSet set(List<CounterSpec> counters, Production... productions) {
    return new ProductionSet(
        List.of(productions),
        List.of(),
        counters,
        List.of(0L, 1L),
        List.of(),
        List.of(),
        1,
        HardwareBudget.PAPER);
  }

  /** A production with a replacement (index 0: never run here, only its presence counts). */
  static Production replacing(String name, PatternExpr pattern, MicroOp... ops) {
    return new Production(name, 0, pattern, List.of(ops), 0);
  }

  @Test
  void aFlagNothingSetsLeavesTheSetDormantAndSaysWhichFlag() {
    // flag_off_regions.acf: P1: T.OPCLASS == branch && overflow_1 => R1, null
    ProductionSet s = set(List.of(), replacing("P1", and(BRANCH, OVERFLOW_1)));
    assertThat(Dormancy.of(s)).isPresent();
    assertThat(Dormancy.of(s).get()).contains("overflow_1");
  }

  @Test
  void aFlagThatAProductionWhichCanActChangesKeepsTheSetLive() {
    // Counting branches into counter 1 eventually overflows it: P1 can fire.
    ProductionSet s =
        set(
            List.of(new CounterSpec(1, 4, 0)),
            new Production("Count", 0, BRANCH, List.of(MicroOp.inc(1)), -1),
            replacing("P1", and(BRANCH, OVERFLOW_1)));
    assertThat(Dormancy.of(s)).isEmpty();
  }

  @Test
  void aSetterCountsOnlyWhenItCanActItself() {
    // The only production that changes counter 1 waits on counter 2's overflow, which nothing
    // changes: neither can ever act (the fixed point, not one pass).
    Production arm =
        new Production(
            "Arm", 0, and(BRANCH, new PatternExpr.Flag(true, 2)), List.of(MicroOp.inc(1)), -1);
    Production p1 = replacing("P1", and(BRANCH, OVERFLOW_1));
    assertThat(Dormancy.of(set(List.of(), arm, p1))).isPresent();
    // A chain followed to its end: Count overflows 2, which arms 1, which enables P1.
    Production count = new Production("Count", 0, BRANCH, List.of(MicroOp.inc(2)), -1);
    assertThat(Dormancy.of(set(List.of(), arm, p1, count))).isEmpty();
  }

  @Test
  void initialValuesDecideZeroFlags() {
    // zero_0 holds while counter 0 stays at 0: live when it starts at 0, dormant at 1 (masked
    // to its width: 0x10 in 4 bits is 0, so live again).
    assertThat(Dormancy.of(set(List.of(), replacing("P", and(BRANCH, ZERO_0))))).isEmpty();
    assertThat(
            Dormancy.of(
                set(List.of(new CounterSpec(0, 16, 1)), replacing("P", and(BRANCH, ZERO_0)))))
        .isPresent();
    assertThat(
            Dormancy.of(
                set(List.of(new CounterSpec(0, 4, 0x10)), replacing("P", and(BRANCH, ZERO_0)))))
        .isEmpty();
    // !overflow_1 is true from the start.
    assertThat(Dormancy.of(set(List.of(), replacing("P", and(BRANCH, not(OVERFLOW_1)))))).isEmpty();
  }

  @Test
  void triggerCodewordsActThroughProductionsAndSoKeepTheSetLive() {
    // hot_call_pairs.acf with counter 0 starting at 1: only SampleOn's set_0 can clear it.
    ProductionSet s =
        set(
            List.of(new CounterSpec(0, 16, 1)),
            new Production(
                "SampleOn",
                0,
                new PatternExpr.OpIs("on_trig_inst"),
                List.of(MicroOp.setFromRegister(0, 0)),
                -1),
            replacing("P3", and(new PatternExpr.ClassIs(OpClass.PROC_CALL), ZERO_0)));
    assertThat(Dormancy.of(s)).isEmpty();
  }

  @Test
  void aMatchWithoutEffectIsNotAnAct() {
    // A null production with no micro-ops changes nothing even when it matches.
    ProductionSet s =
        set(
            List.of(),
            new Production("Nothing", 0, BRANCH, List.of(), -1),
            replacing("P1", and(BRANCH, OVERFLOW_1)));
    assertThat(Dormancy.of(s)).isPresent();
    // A tag is an effect: the sink gets the retired record.
    ProductionSet tagging = set(List.of(), new Production("Tag", 0, BRANCH, List.of(), -1, 0));
    assertThat(Dormancy.of(tagging)).isEmpty();
  }
}
