package org.dise.runtime.profiles.sink;

import static com.google.common.truth.Truth.assertThat;

import java.util.List;
import org.dise.runtime.elf.Symbol;
import org.dise.runtime.elf.SymbolTable;
import org.dise.runtime.profiles.sink.AggregationMap.Aggregate;
import org.dise.runtime.sink.ProfileTable;
import org.junit.jupiter.api.Test;

/** The aggregation maps' updates, results and tables (spec/profiles.md, "Aggregation maps"). */
class AggregationMapTest {
  static final SymbolTable SYMBOLS = new SymbolTable(List.of(new Symbol("loop", 0x1000, 0x40)));

  static long call(KeyedMap<?> m, long... args) {
    return m.recordReturning(null, null, args, 0);
  }

  @Test
  void eachAggregateReturnsItsValueAfterTheCall() {
    AggregationMap count = new AggregationMap("c", Aggregate.COUNT, 0);
    assertThat(call(count, 7)).isEqualTo(1);
    assertThat(call(count, 7)).isEqualTo(2);
    AggregationMap sum = new AggregationMap("s", Aggregate.SUM, 0);
    call(sum, 1, 5);
    assertThat(call(sum, 1, -8)).isEqualTo(-3);
    AggregationMap min = new AggregationMap("m", Aggregate.MIN, 0);
    call(min, 1, 5);
    assertThat(call(min, 1, -8)).isEqualTo(-8);
    AggregationMap max = new AggregationMap("x", Aggregate.MAX, 0);
    call(max, 1, -5);
    assertThat(call(max, 1, -8)).isEqualTo(-5);
    AggregationMap avg = new AggregationMap("a", Aggregate.AVG, 0);
    call(avg, 1, 4);
    assertThat(call(avg, 1, 7)).isEqualTo(5); // 11 / 2, truncated as bpftrace's avg
  }

  @Test
  void stateMapReturnsThePreviousValueOrMissing() {
    AggregationMap state = new AggregationMap("last", Aggregate.STATE, -1);
    assertThat(call(state, 0x1010, 100)).isEqualTo(-1);
    assertThat(call(state, 0x1010, 124)).isEqualTo(100);
    assertThat(call(state, 0x1020, 5)).isEqualTo(-1); // keys are independent
    assertThat(call(state, 0x1010, 0)).isEqualTo(124);
  }

  @Test
  void codeAddressKeysGetAFunctionColumn() {
    AggregationMap m = new AggregationMap("m", Aggregate.SUM, 0);
    m.callSites(3, new boolean[] {true, false, false});
    call(m, 0x1010, -2, 10);
    call(m, 0x1010, -2, 5);
    call(m, 0x1000, 3, 40);
    ProfileTable t = m.table(SYMBOLS);
    assertThat(t.header()).containsExactly("key1", "function1", "key2", "count", "value").inOrder();
    assertThat(t.key()).containsExactly("key1", "key2").inOrder();
    assertThat(t.weight()).isEqualTo("value");
    assertThat(t.rows())
        .containsExactly(
            List.of("0x1000", "loop", "3", "1", "40"),
            List.of("0x1010", "loop+0x10", "-2", "2", "15"))
        .inOrder();
  }

  @Test
  void minMapListsTheLeastFirst() {
    AggregationMap m = new AggregationMap("m", Aggregate.MIN, 0);
    call(m, 1, 9);
    call(m, 2, -9);
    call(m, 3, 0);
    assertThat(m.table(SYMBOLS).rows())
        .containsExactly(List.of("2", "1", "-9"), List.of("3", "1", "0"), List.of("1", "1", "9"))
        .inOrder();
  }

  @Test
  void log2BucketsAreSignedAndMirrored() {
    assertThat(HistogramMap.log2Bucket(0)).asList().containsExactly(0L, 0L).inOrder();
    assertThat(HistogramMap.log2Bucket(1)).asList().containsExactly(1L, 1L).inOrder();
    assertThat(HistogramMap.log2Bucket(5)).asList().containsExactly(4L, 7L).inOrder();
    assertThat(HistogramMap.log2Bucket(-1)).asList().containsExactly(-1L, -1L).inOrder();
    assertThat(HistogramMap.log2Bucket(-16)).asList().containsExactly(-31L, -16L).inOrder();
    assertThat(HistogramMap.log2Bucket(Long.MAX_VALUE))
        .asList()
        .containsExactly(1L << 62, Long.MAX_VALUE)
        .inOrder();
    assertThat(HistogramMap.log2Bucket(Long.MIN_VALUE))
        .asList()
        .containsExactly(Long.MIN_VALUE, Long.MIN_VALUE)
        .inOrder();
  }

  @Test
  void linearBucketsHaveOpenEndsAndAClippedLastBucket() {
    HistogramMap h = HistogramMap.linear("h", -10, 15, 10);
    assertThat(h.linearBucket(-11)).asList().containsExactly(Long.MIN_VALUE, -11L).inOrder();
    assertThat(h.linearBucket(-10)).asList().containsExactly(-10L, -1L).inOrder();
    assertThat(h.linearBucket(-1)).asList().containsExactly(-10L, -1L).inOrder();
    assertThat(h.linearBucket(0)).asList().containsExactly(0L, 9L).inOrder();
    assertThat(h.linearBucket(14)).asList().containsExactly(10L, 14L).inOrder();
    assertThat(h.linearBucket(15)).asList().containsExactly(15L, Long.MAX_VALUE).inOrder();
  }

  @Test
  void histogramTableListsBucketsPerKeyInValueOrder() {
    HistogramMap h = HistogramMap.log2("h");
    h.callSites(2, new boolean[] {false, false});
    assertThat(call(h, 1, 3)).isEqualTo(1);
    assertThat(call(h, 1, 2)).isEqualTo(2); // same bucket [2, 3]
    call(h, 1, -3);
    call(h, 2, 0);
    ProfileTable t = h.table(SYMBOLS);
    assertThat(t.header()).containsExactly("key", "bucket_lo", "bucket_hi", "count").inOrder();
    assertThat(t.rows())
        .containsExactly(
            List.of("1", "-3", "-2", "1"), List.of("1", "2", "3", "2"), List.of("2", "0", "0", "1"))
        .inOrder();
  }

  @Test
  void oneKeyPartAndSeveralAgreeOnEveryAggregateAndBucket() {
    // One-part keys live in primitive tables, longer ones in tuples: the same events on (k) and
    // on (k, 0) must return and tabulate the same, whatever the values (wrapping sums included).
    long[] values = {5, -8, 0, Long.MAX_VALUE, 3, Long.MIN_VALUE, -1, 64, -65, 7};
    for (Aggregate a : Aggregate.values()) {
      AggregationMap one = new AggregationMap("one", a, -7);
      AggregationMap two = new AggregationMap("two", a, -7);
      for (int i = 0; i < values.length; i++) {
        long key = i % 3;
        assertThat(call(one, key, values[i])).isEqualTo(call(two, key, 0, values[i]));
      }
      assertThat(rows(one.table(SYMBOLS), -1)).isEqualTo(rows(two.table(SYMBOLS), 1));
    }
    for (HistogramMap[] h :
        List.of(
            new HistogramMap[] {HistogramMap.log2("a"), HistogramMap.log2("b")},
            new HistogramMap[] {
              HistogramMap.linear("a", -64, 64, 8), HistogramMap.linear("b", -64, 64, 8)
            })) {
      for (int i = 0; i < values.length; i++) {
        long key = i % 2;
        assertThat(call(h[0], key, values[i])).isEqualTo(call(h[1], key, 0, values[i]));
        assertThat(h[0].bucketLo(values[i])).isEqualTo(h[0].bucket(values[i])[0]);
      }
      assertThat(rows(h[0].table(SYMBOLS), -1)).isEqualTo(rows(h[1].table(SYMBOLS), 1));
    }
  }

  @Test
  void aKeysSlotAndItsRecordsShareOneEntry() {
    // Translated code applies a call keyed by its T.PC to the key's slot; the interpreter, or
    // another site with a dynamic key, may record the same key: both must see one entry (a state
    // map hands back what either stored), whenever the slot is handed out, and a slot that never
    // counted adds no row. Compared with the same events on tuple keys (k, 0).
    long[] values = {5, -8, 0, Long.MAX_VALUE, 3, Long.MIN_VALUE, -1, 64, -65, 7, 300, -300};
    List<KeyedMap<?>[]> pairs = new java.util.ArrayList<>();
    for (Aggregate a : Aggregate.values()) {
      pairs.add(new KeyedMap<?>[] {new AggregationMap("s", a, -7), new AggregationMap("t", a, -7)});
    }
    pairs.add(new KeyedMap<?>[] {HistogramMap.log2("s"), HistogramMap.log2("t")});
    pairs.add(
        new KeyedMap<?>[] {
          HistogramMap.linear("s", -64, 64, 8), HistogramMap.linear("t", -64, 64, 8)
        });
    // More buckets than a slot keeps in an array: counted by bucket instead.
    pairs.add(
        new KeyedMap<?>[] {
          HistogramMap.linear("s", -5000, 5000, 3), HistogramMap.linear("t", -5000, 5000, 3)
        });
    for (KeyedMap<?>[] m : pairs) {
      m[0].slot(99); // handed out, never counted
      boolean count =
          m[0] instanceof AggregationMap a && a.slot(98) instanceof AggregationMap.Count;
      for (int i = 0; i < values.length; i++) {
        long key = i % 2;
        long v = values[i];
        long viaTuple = count ? call(m[1], key, 0) : call(m[1], key, 0, v);
        long got =
            i % 3 == 0 || i < 4
                ? count ? call(m[0], key) : call(m[0], key, v)
                : m[0].slot(key).update(count ? key : v); // a count map's last argument: its key
        assertThat(got).isEqualTo(viaTuple);
      }
      assertThat(m[0].slot(1)).isSameInstanceAs(m[0].slot(1));
      assertThat(rows(m[0].table(SYMBOLS), -1)).isEqualTo(rows(m[1].table(SYMBOLS), 1));
    }
  }

  /** The rows, each without column {@code drop} (-1: none): a two-part key's second part. */
  private static List<List<String>> rows(ProfileTable t, int drop) {
    return t.rows().stream()
        .map(
            r -> {
              List<String> c = new java.util.ArrayList<>(r);
              if (drop >= 0) {
                c.remove(drop);
              }
              return c;
            })
        .toList();
  }
}
