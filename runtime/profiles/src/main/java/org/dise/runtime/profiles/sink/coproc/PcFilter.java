package org.dise.runtime.profiles.sink.coproc;

/**
 * The co-processor's hashed-PC filter, consulted at decode (Zilles and Sohi, Section 3.1): a hashed
 * version of the pc, masked by a variable-width mask and compared with a programmable match value,
 * subdivides the program into regions profiled one at a time (thrash detection, Section 5.1.2); the
 * same hash indexes a table of exclusion bits that masks individual instructions already
 * characterised (confidence, Section 5.1.3).
 */
public final class PcFilter {
  private final int bits;
  private final long[] excluded;
  private long mask;
  private long match;

  public PcFilter(int hashBits) {
    this.bits = hashBits;
    this.excluded = new long[Math.max(1, (1 << hashBits) / 64)];
  }

  /** The pc hashed to {@code hashBits} bits (instructions are at least 2-byte aligned). */
  public int hash(long pc) {
    long h = (pc >>> 1) * 0x9E3779B97F4A7C15L;
    return (int) (h >>> (64 - bits));
  }

  /** Whether an instruction at {@code pc} is tagged: in the current region and not excluded. */
  public boolean accepts(long pc) {
    int h = hash(pc);
    return (h & mask) == match && (excluded[h >>> 6] >>> (h & 63) & 1) == 0;
  }

  /** Sets the exclusion bit of {@code pc}'s hash (it masks every pc sharing the hash). */
  public void exclude(long pc) {
    int h = hash(pc);
    excluded[h >>> 6] |= 1L << (h & 63);
  }

  /** Clears every exclusion bit (re-sampling: values change with program phases). */
  public void clearExclusions() {
    java.util.Arrays.fill(excluded, 0);
  }

  public boolean isExcluded(long pc) {
    int h = hash(pc);
    return (excluded[h >>> 6] >>> (h & 63) & 1) != 0;
  }

  /** Profiles only the pcs whose hash has {@code match} in the bits of {@code mask}. */
  public void region(long mask, long match) {
    this.mask = mask;
    this.match = match & mask;
  }

  public long mask() {
    return mask;
  }

  public long match() {
    return match;
  }

  /** The number of regions the mask divides the program into. */
  public int regions() {
    return 1 << Long.bitCount(mask);
  }
}
