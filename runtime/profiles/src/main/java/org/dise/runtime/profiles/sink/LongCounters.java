package org.dise.runtime.profiles.sink;

import java.util.Arrays;

/**
 * Counters keyed by one or two longs (a pc, a caller-callee pair), in open addressing with linear
 * probing over flat primitive arrays: recording an event boxes nothing and allocates nothing once
 * its key is in. The profile sinks record one event per dynamic branch or call, so a {@code
 * HashMap<Long, long[]>} (a boxed key and a hash node per lookup) was the largest cost of
 * exhaustive profiling (docs/benchmarks.md, issue 14). Entries are never removed; the table doubles
 * at 3/4 full. Not thread-safe, like the hart that feeds it.
 */
public final class LongCounters {
  private final int keyWidth;
  private final int valueWidth;
  private long[] keys;
  private long[] values;
  private boolean[] used;
  private int mask;
  private int size;

  /**
   * Counters of {@code valueWidth} columns per key of {@code keyWidth} longs.
   *
   * @throws IllegalArgumentException unless the key width is 1 or 2 and the value width at least 1
   */
  public LongCounters(int keyWidth, int valueWidth) {
    if (keyWidth < 1 || keyWidth > 2 || valueWidth < 1) {
      throw new IllegalArgumentException(
          "key width must be 1 or 2 and value width at least 1: " + keyWidth + ", " + valueWidth);
    }
    this.keyWidth = keyWidth;
    this.valueWidth = valueWidth;
    allocate(64);
  }

  private void allocate(int capacity) {
    keys = new long[capacity * keyWidth];
    values = new long[capacity * valueWidth];
    used = new boolean[capacity];
    mask = capacity - 1;
  }

  /** Adds {@code delta} to column {@code column} of the entry keyed {@code key}. */
  public void add(long key, int column, long delta) {
    int i = slot(key); // first: it may grow the table and replace values
    values[i * valueWidth + column] += delta;
  }

  /** Adds {@code delta} to column {@code column} of the entry keyed {@code (k0, k1)}. */
  public void add(long k0, long k1, int column, long delta) {
    int i = slot(k0, k1); // first: it may grow the table and replace values
    values[i * valueWidth + column] += delta;
  }

  /** Adds 1 to column 0 and {@code delta} to column 1 of the entry keyed {@code key}. */
  public void add2(long key, long delta) {
    int base = slot(key) * valueWidth;
    values[base]++;
    values[base + 1] += delta;
  }

  /**
   * The entry of one-long key {@code key}, inserted with zero counters when absent, for {@link
   * #value} and {@link #set}: valid until the next insertion (which may move every entry).
   */
  public int entry(long key) {
    return slot(key);
  }

  /** As {@link #entry(long)} for two-long key {@code (k0, k1)}. */
  public int entry(long k0, long k1) {
    return slot(k0, k1);
  }

  /** Column {@code column} of entry {@code entry} (from {@link #entry}). */
  public long value(int entry, int column) {
    return values[entry * valueWidth + column];
  }

  /** Sets column {@code column} of entry {@code entry} (from {@link #entry}) to {@code v}. */
  public void set(int entry, int column, long v) {
    values[entry * valueWidth + column] = v;
  }

  /** The slot of one-long key {@code key}, inserted with zero counters when absent. */
  private int slot(long key) {
    int i = mix(key) & mask;
    while (used[i]) {
      if (keys[i * keyWidth] == key) {
        return i;
      }
      i = (i + 1) & mask;
    }
    return insert(i, key, 0);
  }

  /** The slot of two-long key {@code (k0, k1)}, inserted with zero counters when absent. */
  private int slot(long k0, long k1) {
    int i = mix(pair(k0, k1)) & mask;
    while (used[i]) {
      int k = i * keyWidth;
      if (keys[k] == k0 && keys[k + 1] == k1) {
        return i;
      }
      i = (i + 1) & mask;
    }
    return insert(i, k0, k1);
  }

  private int insert(int i, long k0, long k1) {
    if ((size + 1) * 4L > (mask + 1) * 3L) {
      grow();
      return keyWidth == 1 ? slot(k0) : slot(k0, k1);
    }
    used[i] = true;
    keys[i * keyWidth] = k0;
    if (keyWidth > 1) {
      keys[i * keyWidth + 1] = k1;
    }
    size++;
    return i;
  }

  private void grow() {
    long[] oldKeys = keys;
    long[] oldValues = values;
    boolean[] oldUsed = used;
    allocate((mask + 1) * 2);
    for (int j = 0; j < oldUsed.length; j++) {
      if (!oldUsed[j]) {
        continue;
      }
      long k0 = oldKeys[j * keyWidth];
      long k1 = keyWidth > 1 ? oldKeys[j * keyWidth + 1] : 0;
      int h = mix(keyWidth == 1 ? k0 : pair(k0, k1));
      int i = h & mask;
      while (used[i]) {
        i = (i + 1) & mask;
      }
      used[i] = true;
      System.arraycopy(oldKeys, j * keyWidth, keys, i * keyWidth, keyWidth);
      System.arraycopy(oldValues, j * valueWidth, values, i * valueWidth, valueWidth);
    }
  }

  /** The hash of two-long key {@code (k0, k1)}, for other primitive tables keyed the same way. */
  public static int hash(long k0, long k1) {
    return mix(pair(k0, k1));
  }

  /** One long from a two-long key, before {@link #mix}. */
  private static long pair(long k0, long k1) {
    return k0 * 0x9E3779B97F4A7C15L + k1;
  }

  /** A 64-bit finaliser (as in SplitMix64): pcs differ in their low bits only, a few apart. */
  private static int mix(long z) {
    z = (z ^ (z >>> 33)) * 0xFF51AFD7ED558CCDL;
    z = (z ^ (z >>> 33)) * 0xC4CEB9FE1A85EC53L;
    return (int) (z ^ (z >>> 33));
  }

  /** The number of keys. */
  public int size() {
    return size;
  }

  /** Column {@code column} of the entry keyed {@code key} (0 when absent). */
  public long get(long key, int column) {
    int i = mix(key) & mask;
    while (used[i]) {
      if (keys[i * keyWidth] == key) {
        return values[i * valueWidth + column];
      }
      i = (i + 1) & mask;
    }
    return 0;
  }

  /** Visits every entry once, in no particular order. */
  public void forEach(Visitor v) {
    for (int i = 0; i < used.length; i++) {
      if (used[i]) {
        v.visit(
            Arrays.copyOfRange(keys, i * keyWidth, (i + 1) * keyWidth),
            Arrays.copyOfRange(values, i * valueWidth, (i + 1) * valueWidth));
      }
    }
  }

  /** Receives one entry: copies of its key and its counters. */
  @FunctionalInterface
  public interface Visitor {
    void visit(long[] key, long[] counters);
  }
}
