package org.dise.runtime.profiles.sink;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Finds the hot data streams of a data reference trace (bursty tracing paper, Section 5.2): a
 * stream is a repeated subsequence of references (pc, address) of {@code minLength} to {@code
 * maxLength} references; its heat is length x frequency, the frequency counting non-overlapping
 * occurrences; no stream spans two bursts. Greedy: take the hottest stream among the references no
 * chosen stream covers yet, cover its occurrences, repeat until the chosen streams cover {@code
 * coveragePct}% of the trace (spec/profiles.md describes the algorithm and its choices).
 *
 * <p>The search is lazy greedy over one {@link SuffixIndex} for all window lengths: a max-heap
 * holds every class (LCP interval) under a key (heat, shorter length, earlier first occurrence)
 * that bounds its true key: at first from its size alone, then the key it had when last counted.
 * Covering references only removes windows, so a class's key never rises: a top counted before the
 * last cover is counted again and put back under its new key, and a top counted since is the
 * hottest class (its key is exact and at least every other class's bound).
 */
public final class StreamFinder {
  public static final int MIN_LENGTH = 10;
  public static final int MAX_LENGTH = 40;
  public static final long COVERAGE_PCT = 90;

  /** A bound on the greedy rounds, so that a trace without regularity stays cheap. */
  public static final int MAX_STREAMS = 256;

  /** One hot data stream: the references of its first occurrence and its frequency. */
  public record Stream(long[] pcs, long[] addresses, int frequency) {
    public int length() {
      return pcs.length;
    }

    public long heat() {
      return (long) pcs.length * frequency;
    }
  }

  /** The longest max_length accepted: the index compares up to that many references. */
  public static final int LONGEST = 1000;

  private final int minLength;
  private final int maxLength;
  private final long coveragePct;

  public StreamFinder(int minLength, int maxLength, long coveragePct) {
    if (minLength < 2
        || maxLength < minLength
        || maxLength > LONGEST
        || coveragePct < 1
        || coveragePct > 100) {
      throw new IllegalArgumentException(
          "hot data streams need 2 <= min_length <= max_length <= "
              + LONGEST
              + " and coverage_pct in 1..100, got min_length "
              + minLength
              + ", max_length "
              + maxLength
              + ", coverage_pct "
              + coveragePct);
    }
    this.minLength = minLength;
    this.maxLength = maxLength;
    this.coveragePct = coveragePct;
  }

  /** The hot data streams of the first {@code n} references, hottest first. */
  public List<Stream> find(long[] pcs, long[] addresses, int n) {
    return find(pcs, addresses, null, n);
  }

  /**
   * The same for a trace made of bursts: {@code bursts[i]} numbers the burst of reference i
   * (non-decreasing), and no stream spans two bursts; null means one burst.
   */
  public List<Stream> find(long[] pcs, long[] addresses, int[] bursts, int n) {
    List<Stream> out = new ArrayList<>();
    int depth = Math.min(maxLength, n);
    if (depth < minLength) {
      return out;
    }
    Search s = new Search(intern(pcs, addresses, n), bursts, n, minLength, depth);
    long target = (coveragePct * n + 99) / 100;
    long hot = 0;
    while (hot < target && out.size() < MAX_STREAMS && s.next()) {
      out.add(
          new Stream(
              Arrays.copyOfRange(pcs, s.first, s.first + s.length),
              Arrays.copyOfRange(addresses, s.first, s.first + s.length),
              s.count));
      hot += (long) s.count * s.length;
    }
    out.sort((a, b) -> Long.compare(b.heat(), a.heat()));
    return out;
  }

  /**
   * The references as numbers 1 and up, equal for equal (pc, address) pairs: an open-addressing
   * table of the distinct pairs, grown as they come (no object per reference).
   */
  static int[] intern(long[] pcs, long[] addresses, int n) {
    int[] ids = new int[n];
    int cap = 1024;
    long[] kp = new long[cap];
    long[] ka = new long[cap];
    int[] val = new int[cap];
    int distinct = 0;
    for (int i = 0; i < n; i++) {
      if (2 * distinct >= cap) {
        int ncap = 2 * cap;
        long[] np = new long[ncap];
        long[] na = new long[ncap];
        int[] nv = new int[ncap];
        for (int s = 0; s < cap; s++) {
          if (val[s] != 0) {
            int t = slot(kp[s], ka[s], ncap - 1);
            while (nv[t] != 0) {
              t = (t + 1) & (ncap - 1);
            }
            np[t] = kp[s];
            na[t] = ka[s];
            nv[t] = val[s];
          }
        }
        kp = np;
        ka = na;
        val = nv;
        cap = ncap;
      }
      long pc = pcs[i];
      long a = addresses[i];
      int t = slot(pc, a, cap - 1);
      while (val[t] != 0 && (kp[t] != pc || ka[t] != a)) {
        t = (t + 1) & (cap - 1);
      }
      if (val[t] == 0) {
        kp[t] = pc;
        ka[t] = a;
        val[t] = ++distinct;
      }
      ids[i] = val[t];
    }
    return ids;
  }

  private static int slot(long pc, long address, int mask) {
    long h = (pc * 0x9E3779B97F4A7C15L) ^ (address * 0xC2B2AE3D27D4EB4FL);
    h ^= h >>> 31;
    return (int) h & mask;
  }

  /** The lazy greedy rounds over the index; {@link #next} leaves the chosen stream in fields. */
  static final class Search {
    private final SuffixIndex index;
    private final int depth;

    /**
     * Per position: how many references from it are uncovered and in its burst, capped at depth; a
     * window of length L at i is live iff {@code gap[i] >= L}.
     */
    private final short[] gap;

    /*
     * The heap: per entry (heat << 32 | (2^32 - 1 - length)), the first occurrence, the class,
     * and the round it was counted in (the key is exact in that round, a bound after it).
     */
    private final long[] major;
    private final int[] firstOf;
    private final int[] classOf;
    private final int[] countedIn;
    private int heapSize;
    private int round;
    private int[] positions = new int[64];

    // The last count: per length, occurrences, first and the next free position.
    private final int[] counts;
    private final int[] firsts;
    private final int[] nextFree;
    private long countedMajor;
    private int countedFirst;

    /** The chosen stream of the last {@link #next}. */
    int first;

    int length;
    int count;

    Search(int[] ids, int[] bursts, int n, int minLength, int depth) {
      this.depth = depth;
      index = new SuffixIndex(ids, n, minLength, depth);
      gap = new short[n];
      for (int i = n - 1; i >= 0; i--) {
        boolean joined = i + 1 < n && (bursts == null || bursts[i] == bursts[i + 1]);
        gap[i] = (short) (joined ? Math.min(depth, gap[i + 1] + 1) : 1);
      }
      counts = new int[depth + 1];
      firsts = new int[depth + 1];
      nextFree = new int[depth + 1];
      int m = index.size;
      major = new long[m];
      firstOf = new int[m];
      classOf = new int[m];
      countedIn = new int[m];
      for (int c = 0; c < m; c++) {
        // A bound, not a count: heat <= longest x occurrences (and <= n, as occurrences do not
        // overlap), at the class's shortest length, first occurrence -1. A class is counted
        // only when its bound reaches the top of the heap.
        long heat = Math.min(n, (long) index.longest(c) * index.occurrences(c));
        major[heapSize] = heat << 32 | (0xFFFFFFFFL - index.shortest(c));
        firstOf[heapSize] = -1;
        classOf[heapSize] = c;
        countedIn[heapSize] = -1;
        heapSize++;
      }
      for (int i = heapSize / 2 - 1; i >= 0; i--) {
        down(i);
      }
    }

    /**
     * Chooses the next stream: the live window class with the largest heat (length x greedy count
     * of non-overlapping live occurrences, at least 2), ties to the shorter length and then the
     * earlier first occurrence; covers its occurrences. False when no window occurs twice.
     */
    boolean next() {
      while (heapSize > 0) {
        int c = classOf[0];
        if (countedIn[0] != round) {
          // Counted before the last cover (or never): the key is a bound; count again.
          if (!count(c)) {
            pop();
            continue;
          }
          boolean same = countedMajor == major[0] && countedFirst == firstOf[0];
          major[0] = countedMajor;
          firstOf[0] = countedFirst;
          countedIn[0] = round;
          if (!same) {
            down(0);
            continue;
          }
        }
        length = (int) (0xFFFFFFFFL - (major[0] & 0xFFFFFFFFL));
        count = (int) ((major[0] >>> 32) / length);
        first = firstOf[0];
        cover(c);
        round++;
        return true;
      }
      return false;
    }

    /**
     * Counts class c at each of its lengths; true with its best key in {@code countedMajor} and
     * {@code countedFirst} if some length occurs twice.
     */
    private boolean count(int c) {
      int shortest = index.shortest(c);
      int longest = index.longest(c);
      for (int len = shortest; len <= longest; len++) {
        counts[len] = 0;
        firsts[len] = -1;
        nextFree[len] = Integer.MIN_VALUE;
      }
      positions = index.positions(c, positions);
      for (int j = 0, k = index.occurrences(c); j < k; j++) {
        int i = positions[j];
        int top = Math.min(longest, gap[i]);
        for (int len = shortest; len <= top; len++) {
          if (i >= nextFree[len]) {
            if (counts[len] == 0) {
              firsts[len] = i;
            }
            counts[len]++;
            nextFree[len] = i + len;
          }
        }
      }
      boolean any = false;
      for (int len = shortest; len <= longest; len++) {
        if (counts[len] < 2) {
          continue;
        }
        long m = (long) counts[len] * len << 32 | (0xFFFFFFFFL - len);
        if (!any || m > countedMajor || m == countedMajor && firsts[len] < countedFirst) {
          countedMajor = m;
          countedFirst = firsts[len];
          any = true;
        }
      }
      return any;
    }

    /** Covers the chosen stream's greedy occurrences in class c. */
    private void cover(int c) {
      positions = index.positions(c, positions);
      int free = Integer.MIN_VALUE;
      for (int j = 0, n = index.occurrences(c); j < n; j++) {
        int i = positions[j];
        if (i >= free && gap[i] >= length) {
          for (int k = i; k < i + length; k++) {
            gap[k] = 0;
          }
          for (int k = Math.max(0, i - depth + 1); k < i; k++) {
            if (gap[k] > i - k) {
              gap[k] = (short) (i - k);
            }
          }
          free = i + length;
        }
      }
      // Class c keeps its key in the heap: a bound now, counted again when it comes up.
    }

    private void pop() {
      heapSize--;
      major[0] = major[heapSize];
      firstOf[0] = firstOf[heapSize];
      classOf[0] = classOf[heapSize];
      countedIn[0] = countedIn[heapSize];
      down(0);
    }

    private boolean above(int a, int b) {
      return major[a] > major[b] || major[a] == major[b] && firstOf[a] < firstOf[b];
    }

    private void down(int i) {
      while (2 * i + 1 < heapSize) {
        int child = 2 * i + 1;
        if (child + 1 < heapSize && above(child + 1, child)) {
          child++;
        }
        if (!above(child, i)) {
          break;
        }
        long m = major[i];
        major[i] = major[child];
        major[child] = m;
        swap(firstOf, i, child);
        swap(classOf, i, child);
        swap(countedIn, i, child);
        i = child;
      }
    }

    private static void swap(int[] a, int i, int j) {
      int t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
  }
}
