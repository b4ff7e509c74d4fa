package org.dise.runtime.dise;

import java.util.List;

/**
 * The conditionals table (first paper, Section 3.3): a truth table over the counter flags that the
 * patterns read. Each folded pattern becomes a bit mask with one bit per combination of flag
 * values, so a dynamic instance costs one flag-vector read and one bit test.
 */
public final class ConditionalsTable {
  /** A 64-bit mask holds the truth table of at most 6 flags. */
  public static final int MAX_INPUTS = 6;

  private final List<PatternExpr.Flag> inputs;

  public ConditionalsTable(List<PatternExpr.Flag> inputs) {
    if (inputs.size() > MAX_INPUTS) {
      throw new IllegalArgumentException(
          "the conditionals table takes at most "
              + MAX_INPUTS
              + " flags; the patterns read "
              + inputs.size()
              + ": "
              + inputs);
    }
    this.inputs = List.copyOf(inputs);
  }

  public List<PatternExpr.Flag> inputs() {
    return inputs;
  }

  /** The truth table of a folded (flags-only) pattern: bit i is its value for flag vector i. */
  public long truthTable(PatternExpr folded) {
    long mask = 0;
    for (int v = 0; v < 1 << inputs.size(); v++) {
      final int vector = v;
      if (PatternExpr.eval(folded, f -> (vector >>> inputs.indexOf(f) & 1) != 0) != 0) {
        mask |= 1L << v;
      }
    }
    return mask;
  }

  /** The current flag vector: bit i is input flag i. */
  public int vector(HpsCounters hps) {
    int v = 0;
    for (int i = 0; i < inputs.size(); i++) {
      if (hps.flag(inputs.get(i))) {
        v |= 1 << i;
      }
    }
    return v;
  }
}
