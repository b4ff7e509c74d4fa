package org.dise.runtime.profiles.sink.rap;

/**
 * A hot range of a RAP tree (Mysore et al., Section 4.1): a range is hot when its own count plus
 * the counts of its non-hot subranges reach the hot threshold; a range is never hot merely because
 * it has hot children. {@code count} is that exclusive count, {@code inclusive} the whole subtree's
 * (hot subranges included: Fig. 5's 13.6% + 16.7% = 30.3%), {@code parent} the index of the nearest
 * enclosing hot range in the list, or -1. {@code exact} is the true number of events in {@code [lo,
 * hi]} when the sink kept exact counts (-1 otherwise); as the tree's counts are lower bounds,
 * {@code inclusive <= exact}.
 */
public record HotRange(
    long lo, long hi, int depth, long count, long inclusive, int parent, long exact) {
  /** The percent error of the inclusive estimate against the exact count (Fig. 8), or NaN. */
  public double percentError() {
    return exact <= 0 ? Double.NaN : 100.0 * (exact - inclusive) / exact;
  }
}
