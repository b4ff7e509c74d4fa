package org.dise.runtime.profiles.sink;

import java.util.Arrays;

/**
 * The incremental form of {@link StreamFinder}'s greedy search. Every window of every length from
 * {@code minLength} to {@code maxLength} is put once into its equivalence class (windows with the
 * same references), with each class's greedy count of non-overlapping occurrences and a per-length
 * max-heap of classes by (count, earliest occurrence). Choosing a stream covers its occurrences;
 * only the windows that overlap newly covered references leave their classes, and only those
 * classes are counted again. A round so costs the covered references times the lengths, instead of
 * a pass over the whole trace per counted length (with 160 hot streams, CPU per reference went from
 * 7.3 to 1.1 us at 256Ki references and from 18.8 to 3.9 us at 2Mi: docs/benchmarks.md).
 *
 * <p>Classes are exact, not hashed: the class of the window of length L at i is the pair (class of
 * the window of length L-1 at i, the reference at i+L-1), numbered through a table of pairs, so
 * equal classes mean equal references. A window that occurs once can never be a stream, and neither
 * can its extensions, so such windows are dropped as lengths grow.
 *
 * <p>Memory: per length, an int per trace position and one per window that occurs more than once,
 * plus three ints per class (the 2Mi-reference benchmark's index holds 649 MB: docs/benchmarks.md,
 * "Hot data stream search: memory").
 */
final class WindowClasses {
  /** One length's classes. */
  private static final class Level {
    final int length;

    /**
     * The class of the window at each start, -1 once it occurs once, crosses a burst or overlaps a
     * covered reference.
     */
    final int[] classOf;

    /** Window starts grouped by class, ascending within a class. */
    final int[] occurrences;

    final int[] start;

    /**
     * Per class: greedy non-overlapping count among live windows (-1: to recount). The first live
     * start is found in {@code occurrences} when needed rather than kept per class: at 2Mi
     * references there are 12.5 M classes, and the array was 50 MB.
     */
    final int[] count;

    final Heap heap;
    int[] dirty = new int[16];
    int dirtyCount;

    Level(int length, int[] classOf, int classes) {
      this.length = length;
      this.classOf = classOf;
      start = new int[classes + 1];
      for (int c : classOf) {
        if (c >= 0) {
          start[c + 1]++;
        }
      }
      for (int c = 0; c < classes; c++) {
        start[c + 1] += start[c];
      }
      occurrences = new int[start[classes]];
      int[] fill = Arrays.copyOf(start, classes);
      for (int i = 0; i < classOf.length; i++) {
        if (classOf[i] >= 0) {
          occurrences[fill[classOf[i]]++] = i;
        }
      }
      count = new int[classes];
      long[] keys = new long[classes];
      int k = 0;
      for (int c = 0; c < classes; c++) {
        int f = recount(c);
        if (count[c] >= 2) {
          keys[k++] = key(count[c], f);
        }
      }
      // Classes that never occur twice without overlapping have no key: do not keep their slots.
      heap = new Heap(k < classes ? Arrays.copyOf(keys, k) : keys, k);
    }

    /** The first live start of class c, or -1. */
    int firstLive(int c) {
      for (int j = start[c]; j < start[c + 1]; j++) {
        if (classOf[occurrences[j]] == c) {
          return occurrences[j];
        }
      }
      return -1;
    }

    /**
     * The greedy count of non-overlapping live occurrences of class c, from its first, into {@code
     * count[c]}; returns the first live start.
     */
    int recount(int c) {
      int n = 0;
      int f = -1;
      int nextFree = Integer.MIN_VALUE;
      for (int j = start[c]; j < start[c + 1]; j++) {
        int i = occurrences[j];
        if (classOf[i] == c && i >= nextFree) {
          if (f < 0) {
            f = i;
          }
          n++;
          nextFree = i + length;
        }
      }
      count[c] = n;
      return f;
    }

    /** Drops the window at i from its class (it now overlaps a covered reference). */
    void kill(int i) {
      int c = classOf[i];
      if (c < 0) {
        return;
      }
      classOf[i] = -1;
      if (count[c] >= 0) {
        count[c] = -1;
        if (dirtyCount == dirty.length) {
          dirty = Arrays.copyOf(dirty, 2 * dirtyCount);
        }
        dirty[dirtyCount++] = c;
      }
    }

    void recountDirty() {
      for (int k = 0; k < dirtyCount; k++) {
        int c = dirty[k];
        int f = recount(c);
        if (count[c] >= 2) {
          heap.push(key(count[c], f));
        }
      }
      dirtyCount = 0;
    }

    /** The best live class's key, dropping heap entries that no longer describe their class. */
    long best() {
      while (heap.size > 0) {
        long k = heap.top();
        int f = firstOf(k);
        int c = classOf[f];
        if (c >= 0 && count[c] == countOf(k) && firstLive(c) == f) {
          return k;
        }
        heap.pop();
      }
      return -1;
    }
  }

  // Heap key: the larger count first, then the earlier first occurrence.
  static long key(int count, int first) {
    return (long) count << 32 | (0xFFFFFFFFL & ~first);
  }

  static int countOf(long key) {
    return (int) (key >>> 32);
  }

  static int firstOf(long key) {
    return ~(int) key;
  }

  /** A binary max-heap of longs. */
  private static final class Heap {
    long[] a;
    int size;

    Heap(long[] keys, int n) {
      a = keys;
      size = n;
      for (int i = n / 2 - 1; i >= 0; i--) {
        down(i);
      }
    }

    long top() {
      return a[0];
    }

    void pop() {
      a[0] = a[--size];
      down(0);
    }

    void push(long k) {
      if (size == a.length) {
        a = Arrays.copyOf(a, Math.max(4, 2 * size));
      }
      int i = size++;
      while (i > 0 && a[(i - 1) / 2] < k) {
        a[i] = a[(i - 1) / 2];
        i = (i - 1) / 2;
      }
      a[i] = k;
    }

    private void down(int i) {
      long k = a[i];
      while (2 * i + 1 < size) {
        int child = 2 * i + 1;
        if (child + 1 < size && a[child + 1] > a[child]) {
          child++;
        }
        if (a[child] <= k) {
          break;
        }
        a[i] = a[child];
        i = child;
      }
      a[i] = k;
    }
  }

  private final Level[] levels;
  private final int minLength;

  /**
   * Classes of the windows of {@code ids} (interned references, 1 and up) of every length in {@code
   * minLength..maxLength}; {@code bursts} as {@link StreamFinder#find}.
   */
  WindowClasses(int[] ids, int[] bursts, int n, int minLength, int maxLength) {
    this.minLength = minLength;
    int top = Math.min(maxLength, n);
    levels = new Level[Math.max(0, top - minLength + 1)];
    int[] cur = Arrays.copyOf(ids, n);
    int[] size = new int[n + 1];
    PairTable pairs = new PairTable(n);
    for (int len = 2; len <= top; len++) {
      pairs.clear();
      int classes = 0;
      int[] next = new int[n];
      Arrays.fill(next, -1);
      for (int i = 0; i + len <= n; i++) {
        if (cur[i] < 0 || bursts != null && bursts[i] != bursts[i + len - 1]) {
          continue;
        }
        int c = pairs.idOf((long) cur[i] << 32 | ids[i + len - 1], classes);
        if (c == classes) {
          size[classes++] = 0;
        }
        next[i] = c;
        size[c]++;
      }
      for (int i = 0; i < n; i++) {
        if (next[i] >= 0 && size[next[i]] < 2) {
          next[i] = -1;
        }
      }
      cur = next;
      if (len >= minLength) {
        levels[len - minLength] = new Level(len, cur, classes);
      }
    }
  }

  /** A chosen stream: its length, first start and class. */
  record Choice(int length, int first, int count) {}

  /**
   * The hottest stream among live windows: the largest length x count, ties to the shorter length
   * and then to the earlier first occurrence; null when no window occurs twice.
   */
  Choice hottest() {
    Choice best = null;
    for (Level l : levels) {
      long k = l.best();
      if (k < 0 || countOf(k) < 2) {
        continue;
      }
      long heat = (long) countOf(k) * l.length;
      if (best == null || heat > (long) best.count * best.length) {
        best = new Choice(l.length, firstOf(k), countOf(k));
      }
    }
    return best;
  }

  /** The starts of the chosen stream's greedy non-overlapping occurrences. */
  int[] occurrences(Choice choice) {
    Level l = levels[choice.length - minLength];
    int c = l.classOf[choice.first];
    int[] out = new int[choice.count];
    int k = 0;
    int nextFree = Integer.MIN_VALUE;
    for (int j = l.start[c]; j < l.start[c + 1]; j++) {
      int i = l.occurrences[j];
      if (l.classOf[i] == c && i >= nextFree) {
        out[k++] = i;
        nextFree = i + l.length;
      }
    }
    return out;
  }

  /** Covers references {@code from..to-1}: every window overlapping them leaves its class. */
  void cover(int from, int to) {
    for (Level l : levels) {
      int lo = Math.max(0, from - l.length + 1);
      for (int i = lo; i < to; i++) {
        if (i < l.classOf.length) {
          l.kill(i);
        }
      }
    }
  }

  /** Recounts the classes that lost windows since the last call. */
  void settle() {
    for (Level l : levels) {
      l.recountDirty();
    }
  }

  /** Open addressing from a pair (packed in a long) to a class number. */
  private static final class PairTable {
    final long[] keys;
    final int[] values;
    final int[] used;
    int usedCount;
    final int mask;

    PairTable(int n) {
      int cap = Integer.highestOneBit(Math.max(4, 2 * n - 1)) << 1;
      keys = new long[cap];
      values = new int[cap];
      Arrays.fill(values, -1);
      used = new int[n];
      mask = cap - 1;
    }

    void clear() {
      for (int k = 0; k < usedCount; k++) {
        values[used[k]] = -1;
      }
      usedCount = 0;
    }

    /** The pair's number, or {@code fresh} (recorded) when it is new. */
    int idOf(long key, int fresh) {
      long h = key * 0x9E3779B97F4A7C15L;
      int s = (int) (h ^ h >>> 29) & mask;
      while (values[s] >= 0) {
        if (keys[s] == key) {
          return values[s];
        }
        s = (s + 1) & mask;
      }
      keys[s] = key;
      values[s] = fresh;
      used[usedCount++] = s;
      return fresh;
    }
  }
}
