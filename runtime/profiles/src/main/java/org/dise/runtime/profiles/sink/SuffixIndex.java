package org.dise.runtime.profiles.sink;

import java.util.Arrays;

/**
 * The index of {@link StreamFinder}'s search, one for every window length: the trace's suffixes
 * sorted by their first {@code depth} references (a suffix array cut at the longest stream length),
 * and its LCP intervals. An LCP interval with common prefix length l whose enclosing interval has
 * l' is the class (the set of equal windows) of every window length in l'+1..l, so the classes of
 * all lengths from {@code minLength} to {@code depth} are the intervals with l >= minLength: at
 * most n - 1 of them, where one table per length had up to n each (spec/profiles.md, "Hot data
 * streams").
 *
 * <p>An interval's trace positions are a range of the suffix array, in suffix order; the greedy
 * count of non-overlapping occurrences needs them by position, which {@link #positions} gives: a
 * sort of a copy for a small interval, else a pass over a bitmap of the interval's span of the
 * trace, whichever costs less (no sorted copy can be kept for nested intervals in one array).
 *
 * <p>Cost: the sort is prefix doubling with two counting-sort passes per round, ceil(log2 depth)
 * rounds (6 for 40) of O(n); the LCP of adjacent suffixes costs O(1) for suffixes in one
 * depth-class and at most {@code depth} comparisons otherwise; the intervals come from one pass
 * with a stack. Memory: 20 bytes per reference while sorting, then 4 per reference for the suffix
 * array and 12 per interval, and n / 8 bytes of bitmap.
 */
final class SuffixIndex {
  /** The suffix array (cut at depth): trace positions in the order of their prefixes. */
  private final int[] suffixes;

  /** Per interval: its range in {@link #suffixes}, inclusive. */
  private int[] lo;

  private int[] hi;

  /** Per interval: the window lengths it is the class of, shortest << 16 | longest. */
  private int[] lengths;

  /** Marks for {@link #positions}, all clear between calls. */
  private final long[] marks;

  /** Intervals. */
  int size;

  /**
   * The index of {@code ids[0..n-1]} (interned references, 1 and up) for window lengths {@code
   * minLength..depth}; {@code depth} at most n.
   */
  SuffixIndex(int[] ids, int n, int minLength, int depth) {
    int[][] sorted = sortByPrefix(ids, n, depth);
    suffixes = sorted[0];
    int[] lcp = adjacentLcp(ids, n, depth, suffixes, sorted[1]);
    sorted = null;
    marks = new long[(n + 63) / 64];
    int initial = Math.max(16, n / 16);
    lo = new int[initial];
    hi = new int[initial];
    lengths = new int[initial];
    // Bottom-up enumeration of the LCP intervals with a stack of (l, left bound); l only grows
    // up the stack and is at most depth, so the stack is short.
    int[] stackL = new int[depth + 2];
    int[] stackLb = new int[depth + 2];
    int top = 0;
    for (int r = 1; r <= n; r++) {
      int cur = r < n ? lcp[r] : 0;
      int lb = r - 1;
      while (cur < stackL[top]) {
        int l = stackL[top];
        int b = stackLb[top];
        top--;
        int parent = Math.max(cur, stackL[top]);
        if (l >= minLength) {
          add(b, r - 1, Math.max(minLength, parent + 1), l);
        }
        lb = b;
      }
      if (cur > stackL[top]) {
        top++;
        stackL[top] = cur;
        stackLb[top] = lb;
      }
    }
  }

  private void add(int from, int to, int shortestLength, int longestLength) {
    if (size == lo.length) {
      int cap = size + (size >> 1) + 16;
      lo = Arrays.copyOf(lo, cap);
      hi = Arrays.copyOf(hi, cap);
      lengths = Arrays.copyOf(lengths, cap);
    }
    lo[size] = from;
    hi[size] = to;
    lengths[size] = shortestLength << 16 | longestLength;
    size++;
  }

  /** The shortest window length interval c is the class of. */
  int shortest(int c) {
    return lengths[c] >>> 16;
  }

  /** The longest. */
  int longest(int c) {
    return lengths[c] & 0xFFFF;
  }

  /** The number of windows (trace positions) in interval c. */
  int occurrences(int c) {
    return hi[c] - lo[c] + 1;
  }

  /**
   * Interval c's trace positions in ascending order, into {@code out} (grown if needed), which is
   * returned; {@link #occurrences} says how many.
   */
  int[] positions(int c, int[] out) {
    int k = hi[c] - lo[c] + 1;
    if (out.length < k) {
      out = new int[Math.max(k, out.length + (out.length >> 1))];
    }
    int min = Integer.MAX_VALUE;
    int max = 0;
    for (int j = lo[c]; j <= hi[c]; j++) {
      min = Math.min(min, suffixes[j]);
      max = Math.max(max, suffixes[j]);
    }
    long words = (max >> 6) - (min >> 6) + 1;
    if ((long) k * (32 - Integer.numberOfLeadingZeros(k)) <= words) {
      System.arraycopy(suffixes, lo[c], out, 0, k);
      Arrays.sort(out, 0, k);
      return out;
    }
    for (int j = lo[c]; j <= hi[c]; j++) {
      marks[suffixes[j] >> 6] |= 1L << suffixes[j];
    }
    int m = 0;
    for (int w = min >> 6; w <= max >> 6; w++) {
      long bits = marks[w];
      marks[w] = 0;
      while (bits != 0) {
        out[m++] = w << 6 | Long.numberOfTrailingZeros(bits);
        bits &= bits - 1;
      }
    }
    return out;
  }

  /**
   * Positions 0..n-1 sorted by their first {@code depth} references (a suffix shorter than that
   * sorts before its extensions), equal prefixes in position order, and each position's rank among
   * the depth-prefixes (equal iff the prefixes are), as {sorted, rank}. Prefix doubling: after a
   * round the ranks order the prefixes of length p; the next combines the ranks at i and i + h, h =
   * min(p, depth - p), which covers the prefix of length p + h.
   */
  static int[][] sortByPrefix(int[] ids, int n, int depth) {
    int[] rank = new int[n];
    int maxRank = 0;
    for (int i = 0; i < n; i++) {
      rank[i] = ids[i];
      maxRank = Math.max(maxRank, ids[i]);
    }
    int[] sa = new int[n];
    for (int i = 0; i < n; i++) {
      sa[i] = i;
    }
    int[] tmp = new int[n];
    int[] count = new int[Math.max(maxRank, n) + 2];
    int p = 1;
    do {
      int h = Math.min(p, depth - p);
      // Pass 1: positions in ascending order, stably by the second key (0 past the end).
      Arrays.fill(count, 0, maxRank + 2, 0);
      for (int i = 0; i < n; i++) {
        count[(i + h < n ? rank[i + h] : 0) + 1]++;
      }
      for (int k = 1; k <= maxRank + 1; k++) {
        count[k] += count[k - 1];
      }
      for (int i = 0; i < n; i++) {
        tmp[count[i + h < n ? rank[i + h] : 0]++] = i;
      }
      // Pass 2: stably by the first key, so that equal pairs stay in position order.
      Arrays.fill(count, 0, maxRank + 2, 0);
      for (int i = 0; i < n; i++) {
        count[rank[i]]++;
      }
      for (int k = 1; k <= maxRank + 1; k++) {
        count[k] += count[k - 1];
      }
      for (int k = 0; k < n; k++) {
        int i = tmp[k];
        sa[count[rank[i] - 1]++] = i;
      }
      // New ranks, 1 and up, into tmp.
      int r = 0;
      int prevFirst = -1;
      int prevSecond = -1;
      for (int k = 0; k < n; k++) {
        int i = sa[k];
        int first = rank[i];
        int second = i + h < n ? rank[i + h] : 0;
        if (first != prevFirst || second != prevSecond) {
          r++;
          prevFirst = first;
          prevSecond = second;
        }
        tmp[i] = r;
      }
      int[] t = rank;
      rank = tmp;
      tmp = t;
      maxRank = r;
      p += h;
      // Once every prefix is distinct, longer ones sort the same way.
    } while (p < depth && maxRank < n);
    return new int[][] {sa, rank};
  }

  /**
   * {@code lcp[r]}: the common prefix length, at most {@code depth}, of the suffixes at sorted
   * positions r - 1 and r ({@code lcp[0]} = 0).
   */
  static int[] adjacentLcp(int[] ids, int n, int depth, int[] sa, int[] rank) {
    int[] lcp = new int[n];
    for (int r = 1; r < n; r++) {
      int a = sa[r - 1];
      int b = sa[r];
      if (rank[a] == rank[b]) {
        lcp[r] = depth;
        continue;
      }
      int limit = Math.min(depth, n - Math.max(a, b));
      int k = 0;
      while (k < limit && ids[a + k] == ids[b + k]) {
        k++;
      }
      lcp[r] = k;
    }
    return lcp;
  }
}
