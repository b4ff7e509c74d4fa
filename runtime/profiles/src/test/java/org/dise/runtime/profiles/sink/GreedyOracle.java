package org.dise.runtime.profiles.sink;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.dise.runtime.profiles.sink.StreamFinder.Stream;

/**
 * The test oracle for {@link StreamFinder}: the two earlier forms of its greedy search, the plain
 * one (every length counted over the whole trace in every round) and the incremental one over
 * {@link WindowClasses} (one table of window classes per length). The suffix-array search must
 * choose exactly what they choose.
 */
final class GreedyOracle {
  private final int minLength;
  private final int maxLength;
  private final long coveragePct;
  static final int MAX_STREAMS = StreamFinder.MAX_STREAMS;

  /** Window counts (O(n) passes) the last plain search made. */
  long counts;

  GreedyOracle(int minLength, int maxLength, long coveragePct) {
    this.minLength = minLength;
    this.maxLength = maxLength;
    this.coveragePct = coveragePct;
  }

  List<Stream> find(long[] pcs, long[] addresses, int[] bursts, int n, boolean incremental) {
    int[] ids = StreamFinder.intern(pcs, addresses, n);
    return incremental
        ? findIncremental(pcs, addresses, ids, bursts, n)
        : findPlain(pcs, addresses, ids, bursts, n);
  }

  private List<Stream> findIncremental(
      long[] pcs, long[] addresses, int[] ids, int[] bursts, int n) {
    long target = (coveragePct * n + 99) / 100;
    long hot = 0;
    List<Stream> out = new ArrayList<>();
    WindowClasses classes = new WindowClasses(ids, bursts, n, minLength, maxLength);
    while (hot < target && out.size() < MAX_STREAMS) {
      WindowClasses.Choice best = classes.hottest();
      if (best == null) {
        break;
      }
      for (int i : classes.occurrences(best)) {
        classes.cover(i, i + best.length());
      }
      classes.settle();
      out.add(
          new Stream(
              Arrays.copyOfRange(pcs, best.first(), best.first() + best.length()),
              Arrays.copyOfRange(addresses, best.first(), best.first() + best.length()),
              best.count()));
      hot += (long) best.count() * best.length();
    }
    out.sort((a, b) -> Long.compare(b.heat(), a.heat()));
    return out;
  }

  private List<Stream> findPlain(long[] pcs, long[] addresses, int[] ids, int[] bursts, int n) {
    boolean[] covered = new boolean[n];
    int[] prefix = new int[n + 1];
    long target = (coveragePct * n + 99) / 100;
    long hot = 0;
    List<Stream> out = new ArrayList<>();
    Windows w = new Windows(n);
    int top = Math.min(maxLength, n);
    counts = 0;
    while (hot < target && out.size() < MAX_STREAMS) {
      for (int i = 0; i < n; i++) {
        prefix[i + 1] = prefix[i] + (covered[i] ? 1 : 0);
      }
      long bestHeat = 0;
      int bestLength = 0;
      int bestFirst = 0;
      int bestCount = 0;
      for (int len = minLength; len <= top; len++) {
        w.count(ids, n, len, prefix, bursts);
        counts++;
        long h = w.bestCount >= 2 ? (long) w.bestCount * len : 0;
        if (h > bestHeat) {
          bestHeat = h;
          bestLength = len;
          bestFirst = w.bestFirst;
          bestCount = w.bestCount;
        }
      }
      if (bestCount < 2) {
        break;
      }
      int frequency = 0;
      int nextFree = bestFirst;
      // A rolling hash finds the candidates; only those are compared reference by reference.
      long pow = 1;
      long want = 0;
      long h = 0;
      for (int k = 0; k < bestLength; k++) {
        want = want * Windows.BASE + ids[bestFirst + k];
        h = h * Windows.BASE + ids[bestFirst + k];
        pow = k == 0 ? 1 : pow * Windows.BASE;
      }
      for (int i = bestFirst; i + bestLength <= n; i++) {
        if (i > bestFirst) {
          h = (h - ids[i - 1] * pow) * Windows.BASE + ids[i + bestLength - 1];
        }
        if (h == want
            && i >= nextFree
            && prefix[i + bestLength] == prefix[i]
            && oneBurst(bursts, i, bestLength)
            && same(ids, bestFirst, i, bestLength)) {
          Arrays.fill(covered, i, i + bestLength, true);
          nextFree = i + bestLength;
          frequency++;
        }
      }
      out.add(
          new Stream(
              Arrays.copyOfRange(pcs, bestFirst, bestFirst + bestLength),
              Arrays.copyOfRange(addresses, bestFirst, bestFirst + bestLength),
              frequency));
      hot += (long) frequency * bestLength;
    }
    out.sort((a, b) -> Long.compare(b.heat(), a.heat()));
    return out;
  }

  private static boolean oneBurst(int[] bursts, int i, int len) {
    return bursts == null || bursts[i] == bursts[i + len - 1];
  }

  private static boolean same(int[] ids, int a, int b, int len) {
    return Arrays.equals(ids, a, a + len, ids, b, b + len);
  }

  /**
   * Non-overlapping occurrences of every window of one length among uncovered references, in an
   * open-addressing table keyed by a polynomial rolling hash (equal windows are confirmed by
   * comparing the references, so a hash collision can only undercount).
   */
  private static final class Windows {
    private static final long BASE = 0x100000001B3L;
    final long[] hash;
    final int[] first;
    final int[] count;
    final int[] nextFree;
    final int mask;

    Windows(int n) {
      int cap = Integer.highestOneBit(Math.max(4, 2 * n - 1)) << 1;
      hash = new long[cap];
      first = new int[cap];
      count = new int[cap];
      nextFree = new int[cap];
      mask = cap - 1;
    }

    /** The window with the most occurrences in the last {@link #count} (ties: the earliest). */
    int bestCount;

    int bestFirst;
    private int[] used = new int[16];
    private int usedCount;

    void count(int[] ids, int n, int len, int[] prefix, int[] bursts) {
      // Only the slots the last count used are cleared: the table is 4n wide.
      for (int k = 0; k < usedCount; k++) {
        count[used[k]] = 0;
      }
      usedCount = 0;
      bestCount = 0;
      bestFirst = 0;
      long pow = 1;
      long h = 0;
      for (int k = 0; k < len; k++) {
        h = h * BASE + ids[k];
        pow = k == 0 ? 1 : pow * BASE;
      }
      for (int i = 0; i + len <= n; i++) {
        if (i > 0) {
          h = (h - ids[i - 1] * pow) * BASE + ids[i + len - 1];
        }
        if (prefix[i + len] != prefix[i] || !oneBurst(bursts, i, len)) {
          continue;
        }
        int s = (int) (mix(h) & mask);
        while (count[s] != 0 && hash[s] != h) {
          s = (s + 1) & mask;
        }
        if (count[s] == 0) {
          hash[s] = h;
          first[s] = i;
          count[s] = 1;
          nextFree[s] = i + len;
          if (usedCount == used.length) {
            used = Arrays.copyOf(used, 2 * usedCount);
          }
          used[usedCount++] = s;
        } else if (i >= nextFree[s] && same(ids, first[s], i, len)) {
          int c = ++count[s];
          nextFree[s] = i + len;
          // Counts only grow, so the largest final count is the largest seen on the way; a
          // window reaching the same count with an earlier first occurrence wins the tie.
          if (c > bestCount || c == bestCount && first[s] < bestFirst) {
            bestCount = c;
            bestFirst = first[s];
          }
        }
      }
    }

    private static long mix(long h) {
      h ^= h >>> 33;
      h *= 0xff51afd7ed558ccdL;
      return h ^ (h >>> 33);
    }
  }
}
