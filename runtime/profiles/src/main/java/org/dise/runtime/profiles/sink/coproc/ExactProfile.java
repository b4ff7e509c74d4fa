package org.dise.runtime.profiles.sink.coproc;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.dise.runtime.metrics.WeightedRms;
import org.dise.runtime.profiles.sink.LongCounters;

/**
 * The exact profile a co-processor application's estimate is measured against: the count of every
 * (pc, value) pair of every tagged retirement. It is the measuring, not the modelled hardware, and
 * is updated once per retired load or branch, so it is kept in one flat array of (pc, value, count)
 * triples in open addressing (one cache line per event), with the slots' first-occurrence order
 * beside it. Nothing is boxed or allocated per event once a pair is in; the nested {@code HashMap}s
 * it replaced, with the tables that re-read them, took over half of a {@code coproc} experiment
 * run's CPU samples (docs/benchmarks.md).
 *
 * <p>The error ({@link WeightedRms.Pairs}) and the tables read it pair by pair in table order, so
 * the error's floating-point sums run in another order than over the old maps: equal to rounding,
 * and the coproc experiment's CSVs were identical before and after. {@link #asMap()} builds the
 * nested-map form for callers that want maps, in first-occurrence order.
 */
final class ExactProfile implements WeightedRms.Pairs {
  /** (pc, value, count) per slot, open addressing; a count of 0 marks an empty slot. */
  private long[] table = new long[3 * 1024];

  private int mask = 1023;

  /** The slots in first-occurrence order. */
  private int[] order = new int[512];

  private int size;
  private Map<Long, Map<Long, Long>> view;
  private LongCounters totals;

  /** Counts one retirement of {@code pc} with {@code value}. */
  void add(long pc, long value) {
    view = null;
    totals = null;
    int i = LongCounters.hash(pc, value) & mask;
    while (true) {
      int k = 3 * i;
      if (table[k + 2] == 0) {
        break;
      }
      if (table[k] == pc && table[k + 1] == value) {
        table[k + 2]++;
        return;
      }
      i = (i + 1) & mask;
    }
    int k = 3 * i;
    table[k] = pc;
    table[k + 1] = value;
    table[k + 2] = 1;
    if (size == order.length) {
      order = Arrays.copyOf(order, size * 2);
    }
    order[size++] = i;
    if (size * 2 > mask + 1) {
      grow();
    }
  }

  /** Doubles the table, keeping the first-occurrence order. */
  private void grow() {
    long[] old = table;
    table = new long[old.length * 2];
    mask = 2 * mask + 1;
    for (int e = 0; e < size; e++) {
      int k = 3 * order[e];
      int i = LongCounters.hash(old[k], old[k + 1]) & mask;
      while (table[3 * i + 2] != 0) {
        i = (i + 1) & mask;
      }
      System.arraycopy(old, k, table, 3 * i, 3);
      order[e] = i;
    }
  }

  /** The count of {@code (pc, value)}, 0 if never seen. */
  @Override
  public long count(long pc, long value) {
    int i = LongCounters.hash(pc, value) & mask;
    for (; table[3 * i + 2] != 0; i = (i + 1) & mask) {
      if (table[3 * i] == pc && table[3 * i + 1] == value) {
        return table[3 * i + 2];
      }
    }
    return 0;
  }

  /** The number of distinct (pc, value) pairs. */
  int size() {
    return size;
  }

  /** The executions of {@code pc} (the sum of its values' counts), 0 if it never ran. */
  @Override
  public long total(long pc) {
    if (totals == null) {
      LongCounters t = new LongCounters(1, 1);
      for (int k = 0; k < table.length; k += 3) { // in table order: one sequential pass
        if (table[k + 2] != 0) {
          t.add(table[k], 0, table[k + 2]);
        }
      }
      totals = t;
    }
    return totals.get(pc, 0);
  }

  /** Every pair with its count, in table order (a sequential pass). */
  @Override
  public void forEach(Visitor v) {
    for (int k = 0; k < table.length; k += 3) {
      if (table[k + 2] != 0) {
        v.pair(table[k], table[k + 1], table[k + 2]);
      }
    }
  }

  /**
   * pc -> value -> count, built once per change (the error reads it at the end of a run, not per
   * event). Callers must not modify it.
   */
  Map<Long, Map<Long, Long>> asMap() {
    if (view == null) {
      Map<Long, Map<Long, Long>> m = new HashMap<>();
      for (int e = 0; e < size; e++) {
        int k = 3 * order[e];
        m.computeIfAbsent(table[k], x -> new HashMap<>()).put(table[k + 1], table[k + 2]);
      }
      view = m;
    }
    return view;
  }
}
