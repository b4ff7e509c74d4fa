package org.dise.runtime.trigger;

import java.util.SplittableRandom;

/**
 * The phase table of the profiling daemon (first paper, Section 4; phase-based remote profiling
 * paper, Section 2.3): a small fully associative table of phase IDs, each with a sampled bit and a
 * count of the intervals seen in the phase, with random replacement (seeded). A phase that was
 * replaced and comes back starts over: it may be sampled again.
 */
public final class PhaseTable {
  /** One entry. */
  public static final class Entry {
    final int phase;
    boolean sampled;
    long count;

    Entry(int phase) {
      this.phase = phase;
    }
  }

  private final Entry[] entries;
  private final SplittableRandom random;
  private int used;
  private long misses;

  public PhaseTable(int size, long seed) {
    if (size < 1) {
      throw new IllegalArgumentException("the phase table needs at least 1 entry, not " + size);
    }
    this.entries = new Entry[size];
    this.random = new SplittableRandom(seed);
  }

  /** The entry of {@code phase}, inserted (replacing a random one when full) if missing. */
  Entry get(int phase) {
    for (int i = 0; i < used; i++) {
      if (entries[i].phase == phase) {
        return entries[i];
      }
    }
    misses++;
    Entry e = new Entry(phase);
    if (used < entries.length) {
      entries[used++] = e;
    } else {
      entries[random.nextInt(entries.length)] = e;
    }
    return e;
  }

  /** What one entry holds, for inspection: the phase, its sampled bit, its interval count. */
  public record Row(int phase, boolean sampled, long count) {}

  /** The entries in use, in table order. */
  public java.util.List<Row> rows() {
    java.util.List<Row> out = new java.util.ArrayList<>();
    for (int i = 0; i < used; i++) {
      out.add(new Row(entries[i].phase, entries[i].sampled, entries[i].count));
    }
    return out;
  }

  /** The number of entries. */
  public int size() {
    return entries.length;
  }

  /** Lookups that did not find their phase (inserts included). */
  public long misses() {
    return misses;
  }
}
