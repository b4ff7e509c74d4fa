package org.dise.runtime.dise;

import java.util.ArrayList;
import java.util.List;

/**
 * The hardware a production set must fit (first paper, Sections 3.1 and 3.3). {@link #PAPER} is the
 * paper's instance: 32 pattern-table entries, 2K replacement-table entries of 8 bytes, a 16-entry
 * conditionals truth table; 8 counters (up to 32 bits), 8 HPS registers and 8 DISE registers are
 * our choice (the paper: "a design parameter, as small as 2").
 */
public record HardwareBudget(
    int patternEntries,
    int replacementEntries,
    int replacementEntryBytes,
    int conditionalEntries,
    int counters,
    int hpsRegisters,
    int diseRegisters,
    int maxCounterWidth) {

  public static final HardwareBudget PAPER = new HardwareBudget(32, 2048, 8, 16, 8, 8, 8, 32);

  /**
   * The width of a counter declared without one (our choice, within {@link #maxCounterWidth}; the
   * papers leave it open).
   */
  public static final int DEFAULT_COUNTER_WIDTH = 16;

  /**
   * How many distinct counter flags the CT can take as inputs: its truth table has one entry per
   * combination, so {@code 2^flags <= conditionalEntries} (16 entries: 4 flags, e.g. the zero and
   * overflow flags of 2 counters, the paper's {@code (counters * statusBits)^2 = 16}).
   */
  public int conditionalInputs() {
    return 31 - Integer.numberOfLeadingZeros(conditionalEntries);
  }

  /** This budget with {@code n} pattern-table entries. */
  public HardwareBudget withPatternEntries(int n) {
    return new HardwareBudget(
        n,
        replacementEntries,
        replacementEntryBytes,
        conditionalEntries,
        counters,
        hpsRegisters,
        diseRegisters,
        maxCounterWidth);
  }

  /** This budget with {@code n} HPS counters. */
  public HardwareBudget withCounters(int n) {
    return new HardwareBudget(
        patternEntries,
        replacementEntries,
        replacementEntryBytes,
        conditionalEntries,
        n,
        hpsRegisters,
        diseRegisters,
        maxCounterWidth);
  }

  /**
   * Replacement-table entries a sequence uses: one per instruction, a call 1 + its arguments (+ 1
   * for a result register).
   */
  public static int entries(ReplacementSequence s) {
    int n = 0;
    for (ReplacementInsn r : s.body()) {
      n +=
          r instanceof ReplacementInsn.Call c
              ? 1 + c.args().size() + (c.returns() ? 1 : 0)
              : r instanceof ReplacementInsn.LoadImmediate ? 2 : 1;
    }
    return n;
  }

  /** What does not fit, one sentence each; empty when everything does. */
  public List<String> violations(ProductionSet set) {
    List<String> out = new ArrayList<>();
    if (set.productions().size() > patternEntries) {
      out.add(
          String.format(
              "%d productions do not fit the pattern table's %d entries",
              set.productions().size(), patternEntries));
    }
    int rt = set.replacements().stream().mapToInt(HardwareBudget::entries).sum();
    if (rt > replacementEntries) {
      out.add(
          String.format(
              "replacement sequences need %d entries; the replacement table has %d",
              rt, replacementEntries));
    }
    int flags = set.flagInputs().size();
    int ctInputs = conditionalInputs();
    if (flags > Math.min(ctInputs, ConditionalsTable.MAX_INPUTS)) {
      out.add(
          String.format(
              "patterns read %d counter flags %s; a %d-entry conditionals table" + " takes %d",
              flags, set.flagInputs(), conditionalEntries, ctInputs));
    }
    for (int c : set.counterIndices()) {
      if (c >= counters) {
        out.add(
            String.format(
                "counter %d does not exist: there are %d counters (0..%d)",
                c, counters, counters - 1));
      }
    }
    for (CounterSpec c : set.counters()) {
      if (c.width() < 1 || c.width() > maxCounterWidth) {
        out.add(
            String.format(
                "counter %d is %d bits wide; counters have 1..%d bits",
                c.index(), c.width(), maxCounterWidth));
      }
    }
    if (set.hpsRegisters().size() > hpsRegisters) {
      out.add(
          String.format(
              "%d HPS registers are used; there are %d", set.hpsRegisters().size(), hpsRegisters));
    }
    int dise = set.diseRegistersUsed();
    if (dise > Math.min(diseRegisters, org.dise.runtime.cpu.Cpu.DISE_REGS)) {
      out.add(
          String.format(
              "replacement code uses $dr%d; there are %d DISE registers", dise - 1, diseRegisters));
    }
    return out;
  }
}
