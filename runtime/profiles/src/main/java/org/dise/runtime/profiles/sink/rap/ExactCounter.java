package org.dise.runtime.profiles.sink.rap;

/**
 * The exact count of every distinct value of a stream, the "perfect profiler" that Section 4.3 of
 * the RAP paper measures percent error against: an open-addressing hash map of unsigned values to
 * counts. Its memory grows with the number of distinct values, which is what RAP avoids.
 */
public final class ExactCounter {
  private long[] keys = new long[1024];
  private long[] counts = new long[1024];
  private boolean hasZero;
  private long zeroCount;
  private int size;
  private long total;

  public void add(long v) {
    total++;
    if (v == 0) {
      hasZero = true;
      zeroCount++;
      return;
    }
    int mask = keys.length - 1;
    int i = mix(v) & mask;
    while (true) {
      long k = keys[i];
      if (k == v) {
        counts[i]++;
        return;
      }
      if (k == 0) {
        keys[i] = v;
        counts[i] = 1;
        if (++size * 2 > keys.length) {
          grow();
        }
        return;
      }
      i = (i + 1) & mask;
    }
  }

  private static int mix(long v) {
    long h = v * 0x9E3779B97F4A7C15L;
    return (int) (h ^ h >>> 32);
  }

  private void grow() {
    long[] ok = keys;
    long[] oc = counts;
    keys = new long[ok.length * 2];
    counts = new long[ok.length * 2];
    int mask = keys.length - 1;
    for (int j = 0; j < ok.length; j++) {
      if (ok[j] != 0) {
        int i = mix(ok[j]) & mask;
        while (keys[i] != 0) {
          i = (i + 1) & mask;
        }
        keys[i] = ok[j];
        counts[i] = oc[j];
      }
    }
  }

  /** The events seen. */
  public long total() {
    return total;
  }

  /** The distinct values seen. */
  public int distinct() {
    return size + (hasZero ? 1 : 0);
  }

  /** The number of events whose value lies in the unsigned range {@code [lo, hi]}. */
  public long countIn(long lo, long hi) {
    long s = 0;
    if (hasZero && lo == 0) {
      s += zeroCount;
    }
    for (int i = 0; i < keys.length; i++) {
      long k = keys[i];
      if (k != 0 && Long.compareUnsigned(k, lo) >= 0 && Long.compareUnsigned(k, hi) <= 0) {
        s += counts[i];
      }
    }
    return s;
  }

  /** The count of one value. */
  public long count(long v) {
    return countIn(v, v);
  }
}
