package org.dise.runtime.profiles.sink;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.dise.runtime.cpu.plan.SiteSlot;
import org.dise.runtime.elf.SymbolTable;
import org.dise.runtime.sink.ComponentSpec;
import org.dise.runtime.sink.ParamSpec;
import org.dise.runtime.sink.ProfileTable;

/**
 * An aggregation map: per key tuple, a count and one aggregate of the values ({@code count_map},
 * {@code sum_map}, {@code min_map}, {@code max_map}, {@code avg_map}), or the last value stored
 * ({@code state_map}, whose call returns the value stored before it: per-key state that replacement
 * code reads back). Each call returns the entry's aggregate after it (spec/profiles.md).
 */
public final class AggregationMap extends KeyedMap<long[]> {
  /** {@code count_map}'s entry in the catalogue. */
  public static final ComponentSpec COUNT_SPEC =
      KeyedMap.mapSpec("count_map", false, "the key's count after the call", "count per key tuple");

  /** {@code sum_map}, {@code min_map}, {@code max_map} and {@code avg_map}, in that order. */
  public static final List<ComponentSpec> VALUE_SPECS =
      List.of("sum", "min", "max", "avg").stream()
          .map(
              op ->
                  KeyedMap.mapSpec(
                      op + "_map",
                      true,
                      "the key's " + op + " after the call",
                      op + " of the value per key tuple"))
          .toList();

  /** {@code state_map}'s entry in the catalogue. */
  public static final ComponentSpec STATE_SPEC =
      KeyedMap.mapSpec(
          "state_map",
          true,
          "the value stored for the key before the call (`missing` the first time)",
          "per-key state: stores the value, returns the previous",
          ParamSpec.integer(
              "missing",
              Long.MIN_VALUE,
              Long.MAX_VALUE,
              "0",
              "what a call returns for a key never stored"));

  /** What a map keeps per key beside its count. */
  public enum Aggregate {
    COUNT,
    SUM,
    MIN,
    MAX,
    AVG,
    STATE;

    /** The component that declares it: {@code count_map}... */
    public String component() {
      return name().toLowerCase(java.util.Locale.ROOT) + "_map";
    }
  }

  private final Aggregate aggregate;
  private final long missing;

  /** A map of {@code aggregate}; {@code missing} is what a state map returns for a new key. */
  public AggregationMap(String name, Aggregate aggregate, long missing) {
    super(name, aggregate != Aggregate.COUNT);
    this.aggregate = aggregate;
    this.missing = missing;
  }

  /** One-part keys: key -> 1 + the position of its slot in {@link #slots}. */
  private final LongCounters index = new LongCounters(1, 1);

  /** One-part keys' entries, in the order made (each the key's slot for translated code too). */
  private final List<Slot> slots = new ArrayList<>();

  /** Entry: {count, value} (value: the sum for SUM and AVG, the extreme, or the last value). */
  @Override
  protected long update(KeyTuple key, long v) {
    long[] e = tuples.computeIfAbsent(key, k -> new long[2]);
    long count = e[0];
    long before = e[1];
    e[0] = count + 1;
    e[1] = next(count, before, v);
    return result(count, before, e[0], e[1]);
  }

  @Override
  protected long update(long key, long v) {
    return slot(key).update(v);
  }

  @Override
  protected Slot slot(long key) {
    int i = index.entry(key);
    long at = index.value(i, 0);
    if (at != 0) {
      return slots.get((int) at - 1);
    }
    Slot s =
        switch (aggregate) {
          case STATE -> new State(key, this);
          case COUNT -> new Count(key, this);
          default -> new Other(key, this);
        };
    slots.add(s);
    index.set(i, 0, slots.size());
    return s;
  }

  /**
   * A one-part key's entry, {count, value} as a tuple entry's; one class per kind of update so that
   * translated code's call of the common ones inlines (spec/emulator.md, "Per-site slots").
   */
  public abstract static sealed class Slot implements SiteSlot {
    final long key;
    final AggregationMap map;
    long count;
    long value;

    Slot(long key, AggregationMap map) {
      this.key = key;
      this.map = map;
    }
  }

  /** A state map's entry: stores the value, returns the one before ({@code missing} at first). */
  public static final class State extends Slot {
    /**
     * The map's {@code missing}, held here: read through {@code map}, {@link #update} was 38 bytes
     * of bytecode, past the 35 that C1 inlines into translated code (docs/benchmarks.md).
     */
    private final long missing;

    State(long key, AggregationMap map) {
      super(key, map);
      this.missing = map.missing;
    }

    @Override
    public long update(long v) {
      long before = count++ == 0 ? missing : value;
      value = v;
      return before;
    }
  }

  /** A count map's entry: returns the count after the event. */
  public static final class Count extends Slot {
    Count(long key, AggregationMap map) {
      super(key, map);
    }

    @Override
    public long update(long ignored) {
      return ++count;
    }
  }

  /** A sum, min, max or avg map's entry. */
  public static final class Other extends Slot {
    Other(long key, AggregationMap map) {
      super(key, map);
    }

    @Override
    public long update(long v) {
      long c = count;
      long before = value;
      long after = map.next(c, before, v);
      count = c + 1;
      value = after;
      return map.result(c, before, c + 1, after);
    }
  }

  /**
   * The entry's value after one event of {@code v} on an entry of {@code count} and {@code value}.
   */
  private long next(long count, long value, long v) {
    return switch (aggregate) {
      case COUNT -> 0;
      case SUM, AVG -> value + v; // wraps as the device's 64-bit adder would
      case MIN -> count == 0 ? v : Math.min(value, v);
      case MAX -> count == 0 ? v : Math.max(value, v);
      case STATE -> v;
    };
  }

  /** What a call returns: the count, the aggregate after it, or a state map's value before it. */
  private long result(long countBefore, long valueBefore, long count, long value) {
    return switch (aggregate) {
      case COUNT -> count;
      case AVG -> value / count;
      case STATE -> countBefore == 0 ? missing : valueBefore;
      default -> value;
    };
  }

  @Override
  protected Map<KeyTuple, long[]> entries() {
    Map<KeyTuple, long[]> all = new java.util.HashMap<>(tuples);
    for (Slot e : slots) {
      if (e.count > 0) { // a slot handed out to a site that never ran has no entry
        all.put(new KeyTuple(new long[] {e.key}, 1), new long[] {e.count, e.value});
      }
    }
    return all;
  }

  /** The value column of an entry: avg is the sum over the count, truncated as bpftrace's avg. */
  private long value(long[] e) {
    return aggregate == Aggregate.AVG ? e[1] / e[0] : e[1];
  }

  @Override
  public ProfileTable table(SymbolTable symbols) {
    List<Map.Entry<KeyTuple, long[]>> list = new ArrayList<>(entries().entrySet());
    Comparator<Map.Entry<KeyTuple, long[]>> order =
        switch (aggregate) {
          case COUNT, STATE -> (a, b) -> Long.compare(b.getValue()[0], a.getValue()[0]);
          case MIN -> (a, b) -> Long.compare(value(a.getValue()), value(b.getValue()));
          default -> (a, b) -> Long.compare(value(b.getValue()), value(a.getValue()));
        };
    list.sort(order.thenComparing(Map.Entry::getKey));
    List<String> header = new ArrayList<>(keyHeader());
    header.add("count");
    if (aggregate != Aggregate.COUNT) {
      header.add("value");
    }
    List<List<String>> rows = new ArrayList<>();
    for (Map.Entry<KeyTuple, long[]> e : list) {
      List<String> r = new ArrayList<>(keyCells(e.getKey(), symbols));
      r.add(Long.toString(e.getValue()[0]));
      if (aggregate != Aggregate.COUNT) {
        r.add(Long.toString(value(e.getValue())));
      }
      rows.add(r);
    }
    // A sum is additive, so two runs compare on it; the other aggregates compare on counts.
    return new ProfileTable(
        header, rows, keyColumns(), aggregate == Aggregate.SUM ? "value" : "count");
  }
}
