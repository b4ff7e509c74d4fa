package org.dise.runtime.profiles.sink;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
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

  @Override
  protected long update(long key, long v) {
    int i = single.entry(key, bucketLo(v));
    long n = single.value(i, 0) + 1;
    single.set(i, 0, n);
    return n;
  }

  @Override
  protected Map<KeyTuple, TreeMap<Long, long[]>> entries() {
    Map<KeyTuple, TreeMap<Long, long[]>> all = new java.util.HashMap<>(tuples);
    single.forEach(
        (k, c) ->
            all.computeIfAbsent(new KeyTuple(k, 1), x -> new TreeMap<>())
                .put(k[1], new long[] {bucket(k[1])[1], c[0]}));
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
