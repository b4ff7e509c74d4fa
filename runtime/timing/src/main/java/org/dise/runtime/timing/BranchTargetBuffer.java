package org.dise.runtime.timing;

/**
 * The branch target buffer: set-associative, LRU, tagged by pc; predicts where a taken branch or an
 * indirect jump goes. A taken transfer whose target it does not hold (or holds wrong) is a
 * misfetch: the front end learns the target only when the instruction executes.
 */
public final class BranchTargetBuffer {
  private final int sets;
  private final int ways;
  private final long[] tags;
  private final long[] targets;

  public BranchTargetBuffer(int entries, int ways) {
    if (entries % ways != 0 || Integer.bitCount(entries / ways) != 1) {
      throw new IllegalArgumentException(
          "btb.entries / btb.ways (" + entries + " / " + ways + ") is not a power of two");
    }
    this.sets = entries / ways;
    this.ways = ways;
    this.tags = new long[entries];
    this.targets = new long[entries];
    java.util.Arrays.fill(tags, -1);
  }

  /** True when the buffer predicted {@code target} for {@code pc}; then it holds it, MRU. */
  public boolean lookup(long pc, long target) {
    long key = pc >>> 1;
    int base = (int) (key & (sets - 1)) * ways;
    int w = 0;
    while (w < ways - 1 && tags[base + w] != key) {
      w++;
    }
    boolean hit = tags[base + w] == key && targets[base + w] == target;
    for (int k = w; k > 0; k--) {
      tags[base + k] = tags[base + k - 1];
      targets[base + k] = targets[base + k - 1];
    }
    tags[base] = key;
    targets[base] = target;
    return hit;
  }
}
