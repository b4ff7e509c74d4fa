package org.dise.runtime.profiles.sink;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.dise.runtime.cpu.plan.SiteSlot;
import org.dise.runtime.elf.SymbolTable;
import org.dise.runtime.sink.ComponentSpec;
import org.dise.runtime.sink.ParamSpec;
import org.dise.runtime.sink.ProfileTable;

/**
 * A histogram of signed values per key tuple ({@code hist_map}), as bpftrace's {@code hist()}
 * (power-of-two buckets, {@code kind = log2}) and {@code lhist()} (equal-width buckets, {@code kind
 * = linear, lo, hi, step}). Buckets are closed ranges [bucket_lo, bucket_hi]: log2 has [0, 0], [1,
 * 1], [2, 3], [4, 7]... and their mirror images for negative values ([-1, -1], [-3, -2], [-7,
 * -4]...), so a negative stride lands in a negative bucket; linear has [lo + i step, lo + (i + 1)
 * step - 1] for the values in [lo, hi), and one bucket each for the values below lo and from hi up.
 * spec/profiles.md, "Aggregation maps".
 */
public final class HistogramMap extends KeyedMap<TreeMap<Long, long[]>> {
  /** The catalogue's entry for this sink ({@code hist_map}): its parameters and what it accepts. */
  public static final ComponentSpec SPEC =
      KeyedMap.mapSpec(
              "hist_map",
              true,
              "the bucket's count after the call",
              "histogram of the value (signed) per key tuple",
              ParamSpec.choice(
                  "kind", List.of("log2", "linear"), "log2", "power-of-two or equal-width buckets"),
              ParamSpec.integer(
                  "lo",
                  Long.MIN_VALUE,
                  Long.MAX_VALUE,
                  "",
                  "linear: least value of the first bucket"),
              ParamSpec.integer(
                  "hi",
                  Long.MIN_VALUE,
                  Long.MAX_VALUE,
                  "",
                  "linear: values from hi up share the last bucket"),
              ParamSpec.atLeast("step", 1, "", "linear: bucket width"))
          .withCheck(HistogramMap::bucketsCheck);

  private static Optional<ComponentSpec.Problem> bucketsCheck(Map<String, String> p) {
    String kind = p.getOrDefault("kind", "log2");
    if (kind.equals("log2")) {
      for (String k : List.of("lo", "hi", "step")) {
        if (p.containsKey(k)) {
          return Optional.of(
              new ComponentSpec.Problem(
                  k,
                  k + " is for `kind = linear`; a log2 histogram has" + " power-of-two buckets"));
        }
      }
      return Optional.empty();
    }
    for (String k : List.of("lo", "hi", "step")) {
      if (!p.containsKey(k)) {
        return Optional.of(
            new ComponentSpec.Problem(
                "",
                "a linear histogram needs lo, hi and step (missing "
                    + k
                    + "): write `hist_map(kind = linear, lo = -64, hi = 64, step = 8)`"));
      }
    }
    long lo = Long.parseLong(p.get("lo"));
    long hi = Long.parseLong(p.get("hi"));
    long step = Long.parseLong(p.get("step"));
    if (hi <= lo) {
      return Optional.of(
          new ComponentSpec.Problem("hi", "hi (" + hi + ") must be greater than lo (" + lo + ")"));
    }
    long width = hi - lo;
    if (width < 0) {
      return Optional.of(new ComponentSpec.Problem("hi", "lo .. hi spans more than 2^63 values"));
    }
    if (width / step > 100_000) {
      return Optional.of(
          new ComponentSpec.Problem(
              "step", "step " + step + " makes " + width / step + " buckets; at most 100000"));
    }
    return Optional.empty();
  }

  private final boolean linear;
  private final long lo;
  private final long hi;
  private final long step;

  /** log2 of {@link #step} when it is a power of two, else -1. */
  private final int shift;

  /** A log2 histogram. */
  public static HistogramMap log2(String name) {
    return new HistogramMap(name, false, 0, 0, 1);
  }

  /** A linear histogram of [lo, hi) in buckets of {@code step}. */
  public static HistogramMap linear(String name, long lo, long hi, long step) {
    if (hi <= lo || step < 1) {
      throw new IllegalArgumentException("a linear histogram needs lo < hi and step >= 1");
    }
    return new HistogramMap(name, true, lo, hi, step);
  }

  private HistogramMap(String name, boolean linear, long lo, long hi, long step) {
    super(name, true);
    this.linear = linear;
    this.lo = lo;
    this.hi = hi;
    this.step = step;
    this.shift = Long.bitCount(step) == 1 ? Long.numberOfTrailingZeros(step) : -1;
    this.buckets = linear ? (int) Math.min(Integer.MAX_VALUE, 2 + ceilDiv(hi - lo, step)) : 128;
  }

  private static long ceilDiv(long a, long b) {
    return -Math.floorDiv(-a, b);
  }

  /** One-part keys: (key, bucket_lo) -> count; a bucket's hi follows from its lo. */
  private final LongCounters single = new LongCounters(2, 1);

  /** Entry: bucket_lo -> {bucket_hi, count}, in value order. */
  @Override
  protected long update(KeyTuple key, long v) {
    TreeMap<Long, long[]> h = tuples.computeIfAbsent(key, k -> new TreeMap<>());
    long[] b = bucket(v);
    long[] e = h.computeIfAbsent(b[0], k -> new long[] {b[1], 0});
    return ++e[1];
  }

  /**
   * Keys handed out as slots ({@link #slot(long)}): key -> 1 + the position of its slot in {@link
   * #slots}. Only those keys get a slot, since a slot holds a count per bucket (up to {@link
   * #DENSE} of them, for any number of keys a map may see); the others stay in {@link #single}.
   */
  private final LongCounters index = new LongCounters(1, 1);

  private final List<Slot> slots = new ArrayList<>();

  /** At most this many buckets are counted in a slot's array; wider histograms count sparsely. */
  static final int DENSE = 256;

  @Override
  protected long update(long key, long v) {
    if (!slots.isEmpty()) {
      long at = index.get(key, 0);
      if (at != 0) {
        return slots.get((int) at - 1).update(v);
      }
    }
    int i = single.entry(key, bucketLo(v));
    long n = single.value(i, 0) + 1;
    single.set(i, 0, n);
    return n;
  }

  /**
   * The slot of {@code key}, made on first use with the counts the key has so far, which {@link
   * #single} then holds as zero (no entry: every entry counted at least one event).
   */
  @Override
  protected Slot slot(long key) {
    long at = index.get(key, 0);
    if (at != 0) {
      return slots.get((int) at - 1);
    }
    Slot s = new Slot(key, this);
    List<long[]> moved = new ArrayList<>();
    single.forEach(
        (k, c) -> {
          if (k[0] == key && c[0] > 0) {
            moved.add(new long[] {k[1], c[0]});
          }
        });
    for (long[] m : moved) {
      s.add(m[0], m[1]);
      single.set(single.entry(key, m[0]), 0, 0);
    }
    slots.add(s);
    index.set(index.entry(key), 0, slots.size());
    return s;
  }

  /**
   * The entry of a key handed out to translated code: its count per bucket, by bucket index ({@link
   * #index}), in an array when the histogram has at most {@link #DENSE} buckets, else by bucket lo.
   * Translated code applies a call to it directly (spec/emulator.md, "Per-site slots").
   */
  public static final class Slot implements SiteSlot {
    private final long key;
    private final HistogramMap map;
    private long[] counts;
    private LongCounters sparse;

    Slot(long key, HistogramMap map) {
      this.key = key;
      this.map = map;
    }

    /**
     * Kept within the 35 bytes of bytecode that C1 inlines into translated code (39 bytes, it was a
     * call per event; docs/benchmarks.md).
     */
    @Override
    public long update(long v) {
      long[] c = counts;
      return c != null ? ++c[map.index(v)] : first(v);
    }

    /** An event of {@code v} before the slot has its array (or in a sparse slot). */
    private long first(long v) {
      return add(map.bucketLo(v), 1);
    }

    /** Adds {@code n} to the bucket whose least value is {@code lo}; returns its count. */
    long add(long lo, long n) {
      if (map.buckets <= DENSE) {
        if (counts == null) {
          counts = new long[map.buckets];
        }
        return counts[map.index(lo)] += n;
      }
      if (sparse == null) {
        sparse = new LongCounters(1, 1);
      }
      int i = sparse.entry(lo);
      long after = sparse.value(i, 0) + n;
      sparse.set(i, 0, after);
      return after;
    }

    /** Visits each bucket that counted an event: its least value and count. */
    void forEach(LongCounters.Visitor v) {
      if (counts != null) {
        for (int i = 0; i < counts.length; i++) {
          if (counts[i] > 0) {
            v.visit(new long[] {key, map.lo(i)}, new long[] {counts[i]});
          }
        }
      } else if (sparse != null) {
        sparse.forEach((k, c) -> v.visit(new long[] {key, k[0]}, c));
      }
    }
  }

  /** The number of buckets: log2's 128, or linear's values in [lo, hi) and the two open ends. */
  private final int buckets;

  /**
   * The index of {@code v}'s bucket, 0 to {@link #buckets} - 1 in value order: log2's [MIN, MIN],
   * the 63 negative ones, [0, 0], the 63 positive ones; linear's below lo, [lo, lo + step - 1]...,
   * from hi up.
   */
  int index(long v) {
    return linear ? linearIndex(v) : log2Index(v);
  }

  // A linear bucket's index in small methods, so that C1 inlines the first levels into a slot's
  // update in translated code (it inlines at most 35 bytes at the first level and 10% less at each
  // deeper one: index and linearIndex inline, fromLo is a call; one method of 45 bytes was a call
  // from the update).

  private int linearIndex(long v) {
    return v < lo ? 0 : fromLo(v);
  }

  private int fromLo(long v) {
    return v >= hi ? buckets - 1 : 1 + steps(v - lo);
  }

  /**
   * The whole steps in {@code d} (0 <= d < hi - lo): a shift for a power-of-two step, since C1
   * divides longs with a call into the runtime.
   */
  private int steps(long d) {
    return (int) (shift >= 0 ? d >> shift : d / step);
  }

  private int log2Index(long v) {
    if (v > 0) {
      return 128 - Long.numberOfLeadingZeros(v); // 2^k .. 2^(k+1) - 1: 65 + k
    }
    if (v == 0) {
      return 64;
    }
    return v == Long.MIN_VALUE ? 0 : Long.numberOfLeadingZeros(-v); // mirror: 63 - k
  }

  /** The least value of bucket {@code i} ({@link #index}). */
  long lo(int i) {
    if (linear) {
      return i == 0 ? Long.MIN_VALUE : i == buckets - 1 ? hi : lo + (i - 1) * step;
    }
    if (i >= 64) {
      return i == 64 ? 0 : 1L << (i - 65);
    }
    return i == 0 ? Long.MIN_VALUE : log2Lo(-(1L << (63 - i)));
  }

  @Override
  protected Map<KeyTuple, TreeMap<Long, long[]>> entries() {
    Map<KeyTuple, TreeMap<Long, long[]>> all = new java.util.HashMap<>(tuples);
    LongCounters.Visitor add =
        (k, c) -> {
          if (c[0] > 0) { // a key's counts moved to its slot are left here as zero
            all.computeIfAbsent(new KeyTuple(k, 1), x -> new TreeMap<>())
                .put(k[1], new long[] {bucket(k[1])[1], c[0]});
          }
        };
    single.forEach(add);
    for (Slot s : slots) {
      s.forEach(add);
    }
    return all;
  }

  /** The closed range [lo, hi] of {@code v}'s bucket. */
  long[] bucket(long v) {
    return linear ? linearBucket(v) : log2Bucket(v);
  }

  /** The least value of {@code v}'s bucket, without allocating. */
  long bucketLo(long v) {
    return linear ? linearLo(v) : log2Lo(v);
  }

  /** The least value of {@code v}'s power-of-two bucket, as {@link #log2Bucket} has it. */
  static long log2Lo(long v) {
    if (v > 0) {
      return Long.highestOneBit(v);
    }
    if (v == 0 || v == Long.MIN_VALUE) {
      return v;
    }
    // The mirror of [2^k, 2^(k+1) - 1] for -v: its least value is -(2^(k+1) - 1).
    long k = Long.highestOneBit(-v);
    return k == 1L << 62 ? -Long.MAX_VALUE : -((k << 1) - 1);
  }

  /** The least value of {@code v}'s linear bucket, as {@link #linearBucket} has it. */
  long linearLo(long v) {
    if (v < lo) {
      return Long.MIN_VALUE;
    }
    if (v >= hi) {
      return hi;
    }
    return lo + Math.floorDiv(v - lo, step) * step;
  }

  /** The closed range [lo, hi] of {@code v}'s power-of-two bucket. */
  static long[] log2Bucket(long v) {
    if (v == 0) {
      return new long[] {0, 0};
    }
    if (v > 0) {
      int k = 63 - Long.numberOfLeadingZeros(v);
      long low = 1L << k;
      return new long[] {low, k == 62 ? Long.MAX_VALUE : (low << 1) - 1};
    }
    if (v == Long.MIN_VALUE) {
      return new long[] {Long.MIN_VALUE, Long.MIN_VALUE};
    }
    long[] pos = log2Bucket(-v);
    return new long[] {-pos[1], -pos[0]};
  }

  /** The closed range of {@code v}'s linear bucket, with the two open-ended ones. */
  long[] linearBucket(long v) {
    if (v < lo) {
      return new long[] {Long.MIN_VALUE, lo - 1};
    }
    if (v >= hi) {
      return new long[] {hi, Long.MAX_VALUE};
    }
    long i = Math.floorDiv(v - lo, step); // v - lo fits: lo <= v < hi
    long low = lo + i * step;
    return new long[] {low, Math.min(hi - 1, low + step - 1)};
  }

  @Override
  public ProfileTable table(SymbolTable symbols) {
    // Keys with the most events first; each key's buckets in value order.
    List<Map.Entry<KeyTuple, TreeMap<Long, long[]>>> list = new ArrayList<>(entries().entrySet());
    list.sort(
        (a, b) -> {
          int c = Long.compare(total(b.getValue()), total(a.getValue()));
          return c != 0 ? c : a.getKey().compareTo(b.getKey());
        });
    List<String> header = new ArrayList<>(keyHeader());
    header.addAll(List.of("bucket_lo", "bucket_hi", "count"));
    List<List<String>> rows = new ArrayList<>();
    for (Map.Entry<KeyTuple, TreeMap<Long, long[]>> e : list) {
      List<String> key = keyCells(e.getKey(), symbols);
      for (Map.Entry<Long, long[]> b : e.getValue().entrySet()) {
        List<String> r = new ArrayList<>(key);
        r.add(Long.toString(b.getKey()));
        r.add(Long.toString(b.getValue()[0]));
        r.add(Long.toString(b.getValue()[1]));
        rows.add(r);
      }
    }
    List<String> keys = new ArrayList<>(keyColumns());
    keys.add("bucket_lo");
    return new ProfileTable(header, rows, keys, "count");
  }

  private static long total(TreeMap<Long, long[]> h) {
    long n = 0;
    for (long[] b : h.values()) {
      n += b[1];
    }
    return n;
  }
}
