package org.dise.runtime.timing;

/**
 * A conditional-branch direction predictor: {@code static} (always not taken, as the StrongARM,
 * which has none), {@code bimodal} (a table of 2-bit saturating counters indexed by the pc, Smith
 * 1981) or {@code gshare} (the counters indexed by the pc XOR the global history, McFarling 1993).
 */
public final class BranchPredictor {
  public enum Kind {
    STATIC,
    BIMODAL,
    GSHARE
  }

  private final Kind kind;
  private final byte[] counters;
  private final int mask;
  private final long historyMask;
  private long history;

  public BranchPredictor(Kind kind, int entries, int historyBits) {
    if (kind != Kind.STATIC && Integer.bitCount(entries) != 1) {
      throw new IllegalArgumentException("bp.entries " + entries + " is not a power of two");
    }
    this.kind = kind;
    this.counters = new byte[kind == Kind.STATIC ? 1 : entries];
    java.util.Arrays.fill(counters, (byte) 1); // weakly not taken
    this.mask = counters.length - 1;
    this.historyMask = historyBits >= 63 ? -1L : (1L << historyBits) - 1;
  }

  public static BranchPredictor of(TimingConfig c) {
    Kind k =
        switch (c.string("bp.kind")) {
          case "static" -> Kind.STATIC;
          case "bimodal" -> Kind.BIMODAL;
          case "gshare" -> Kind.GSHARE;
          default ->
              throw new IllegalArgumentException(
                  "bp.kind must be static, bimodal or gshare, not `" + c.string("bp.kind") + "`");
        };
    return new BranchPredictor(k, c.integer("bp.entries"), c.integer("bp.history_bits"));
  }

  /** Predicts the branch at {@code pc}, learns its outcome; returns true when it was right. */
  public boolean predict(long pc, boolean taken) {
    if (kind == Kind.STATIC) {
      return !taken;
    }
    // RISC-V instructions are 2-byte aligned: drop the bit that is always zero.
    long key = pc >>> 1;
    if (kind == Kind.GSHARE) {
      key ^= history;
      history = ((history << 1) | (taken ? 1 : 0)) & historyMask;
    }
    int i = (int) (key ^ (key >>> 20)) & mask;
    int c = counters[i];
    boolean predicted = c >= 2;
    counters[i] = (byte) (taken ? Math.min(3, c + 1) : Math.max(0, c - 1));
    return predicted == taken;
  }
}
