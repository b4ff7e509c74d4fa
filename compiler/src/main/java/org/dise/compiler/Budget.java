package org.dise.compiler;

/**
 * The hardware budget a production set must fit (Section 3.3 and the DISE instance it extends):
 * pattern table entries, replacement table entries and their size, the conditionals-table truth
 * table, HPS counters and registers, and DISE-private registers.
 *
 * <p>{@link #PAPER} is the paper's instance: 32 PT entries, 2K RT entries of 8 bytes and a 16-entry
 * CT. The papers do not fix the number of counters and registers ("a design parameter, as small as
 * 2"); we choose 8 of each, and 16-bit counters by default.
 */
public record Budget(
    int patternEntries,
    int replacementEntries,
    int replacementEntryBytes,
    int conditionalEntries,
    int counters,
    int hpsRegisters,
    int diseRegisters,
    int defaultCounterWidth,
    int maxCounterWidth) {

  public static final Budget PAPER = new Budget(32, 2048, 8, 16, 8, 8, 8, 16, 32);

  public Budget {
    if (patternEntries < 1
        || replacementEntries < 1
        || replacementEntryBytes < 1
        || conditionalEntries < 1
        || counters < 1
        || hpsRegisters < 2
        || diseRegisters < 0
        || defaultCounterWidth < 1
        || maxCounterWidth < defaultCounterWidth
        || maxCounterWidth > 63) {
      throw new IllegalArgumentException("inconsistent budget: " + this);
    }
  }

  /**
   * How many distinct counter flags the CT can take as inputs: its truth table has one entry per
   * combination, so {@code 2^flags <= conditionalEntries} (16 entries: 4 flags, e.g. the zero and
   * overflow flags of 2 counters, the paper's {@code (counters * statusBits)^2 = 16}).
   */
  public int conditionalInputs() {
    return 31 - Integer.numberOfLeadingZeros(conditionalEntries);
  }

  public Budget withPatternEntries(int n) {
    return new Budget(
        n,
        replacementEntries,
        replacementEntryBytes,
        conditionalEntries,
        counters,
        hpsRegisters,
        diseRegisters,
        defaultCounterWidth,
        maxCounterWidth);
  }

  public Budget withCounters(int n) {
    return new Budget(
        patternEntries,
        replacementEntries,
        replacementEntryBytes,
        conditionalEntries,
        n,
        hpsRegisters,
        diseRegisters,
        defaultCounterWidth,
        maxCounterWidth);
  }
}
