package org.dise.runtime.profiles.sink;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The sinks' primitive-keyed counters agree with a boxed map through many rounds of growth. */
class LongCountersTest {
  @Test
  void oneLongKeysCountAsAHashMapDoesThroughGrowth() {
    LongCounters c = new LongCounters(1, 2);
    Map<Long, long[]> expected = new HashMap<>();
    Random r = new Random(14);
    for (int i = 0; i < 200_000; i++) {
      // pcs a few bytes apart, plus 0 and negative keys, which an empty-marker scheme would trip on
      long key = i % 7 == 0 ? -r.nextInt(50) : 0x10000L + 4L * r.nextInt(20_000);
      long delta = r.nextInt(100);
      if (i % 3 == 0) {
        c.add(key, 1, delta);
        expected.computeIfAbsent(key, k -> new long[2])[1] += delta;
      } else {
        c.add2(key, delta);
        long[] e = expected.computeIfAbsent(key, k -> new long[2]);
        e[0]++;
        e[1] += delta;
      }
    }
    assertEquals(expected.size(), c.size());
    Map<Long, long[]> seen = new HashMap<>();
    c.forEach((k, v) -> assertEquals(null, seen.put(k[0], v), "key visited twice: " + k[0]));
    assertEquals(expected.keySet(), seen.keySet());
    expected.forEach(
        (k, v) -> {
          assertArrayEquals(v, seen.get(k), "key " + k);
          assertEquals(v[1], c.get(k, 1));
        });
    assertEquals(0, c.get(0x7777_7777L, 0));
  }

  @Test
  void twoLongKeysKeepPairsApart() {
    LongCounters c = new LongCounters(2, 1);
    Map<List<Long>, Long> expected = new HashMap<>();
    Random r = new Random(15);
    for (int i = 0; i < 100_000; i++) {
      long site = 0x20000L + 4L * r.nextInt(300);
      long callee = 0x40000L + 16L * r.nextInt(300);
      c.add(site, callee, 0, 1);
      expected.merge(List.of(site, callee), 1L, Long::sum);
    }
    // (a, b) and (b, a) are different pairs.
    c.add(1, 2, 0, 5);
    c.add(2, 1, 0, 7);
    expected.put(List.of(1L, 2L), 5L);
    expected.put(List.of(2L, 1L), 7L);
    Map<List<Long>, Long> seen = new HashMap<>();
    c.forEach((k, v) -> seen.put(List.of(k[0], k[1]), v[0]));
    assertEquals(expected, seen);
    assertEquals(expected.size(), c.size());
  }

  @Test
  void widthsBelowOneAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> new LongCounters(0, 1));
    assertThrows(IllegalArgumentException.class, () -> new LongCounters(1, 0));
    assertThrows(IllegalArgumentException.class, () -> new LongCounters(3, 1));
  }
}
