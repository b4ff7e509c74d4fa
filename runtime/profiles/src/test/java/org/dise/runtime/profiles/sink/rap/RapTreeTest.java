package org.dise.runtime.profiles.sink.rap;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RapTreeTest {
  static RapConfig config(double eps) {
    return new RapConfig(64, 4, eps, 2.0, 1024, 0, 0.10);
  }

  /** Feeds a tree and an exact counter the same stream. */
  static RapSink feed(RapConfig c, long[] stream) {
    RapSink s =
        new RapSink(
            "t",
            Map.of(
                "epsilon_ppm",
                Long.toString(Math.round(c.epsilon() * 1e6)),
                "range_bits",
                Integer.toString(c.rangeBits()),
                "branching",
                Integer.toString(c.branching()),
                "capacity",
                Integer.toString(c.maxNodes())));
    for (long v : stream) {
      s.add(v);
    }
    return s;
  }

  /** 60% of values in [0x4000, 0x40ff], the rest spread over 32 bits. */
  static long[] concentrated(int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    long[] s = new long[n];
    for (int i = 0; i < n; i++) {
      s[i] = r.nextInt(10) < 6 ? 0x4000 + r.nextInt(256) : r.nextLong(1L << 32);
    }
    return s;
  }

  @Test
  void everyCountIsALowerBoundOfItsRange() {
    RapSink s = feed(config(0.01), concentrated(200_000, 1));
    for (RapTree.Node n : s.tree().preorder()) {
      assertThat(n.subtreeCount()).isAtMost(s.exact().countIn(n.lo(), n.hi()));
    }
    assertThat(s.tree().root().subtreeCount()).isEqualTo(200_000);
  }

  @Test
  void findsTheConcentratedRangeWithItsShare() {
    RapSink s = feed(config(0.01), concentrated(200_000, 2));
    List<HotRange> hot = s.hotRanges();
    // The 256 values split into hot ranges of their own (four quarters of 15% each), which
    // together hold the 60% share; each estimate is a lower bound within a few percent.
    List<HotRange> inside = hot.stream().filter(h -> h.lo() >= 0x4000 && h.hi() <= 0x40ff).toList();
    assertThat(inside).isNotEmpty();
    long sum = inside.stream().mapToLong(HotRange::inclusive).sum();
    assertThat(100.0 * sum / s.tree().events()).isWithin(2.0).of(60.0);
    for (HotRange h : inside) {
      assertThat(h.percentError()).isAtLeast(0.0);
      assertThat(h.percentError()).isAtMost(5.0);
    }
    // The rest of the stream stays in wide ranges: the tree did not split it finely.
    assertThat(hot.stream().filter(h -> h.hi() - h.lo() >= (1L << 20)).count()).isAtLeast(1);
  }

  @Test
  void aConstantStreamEndsInASingleValueRange() {
    long[] s = new long[50_000];
    java.util.Arrays.fill(s, 0xdeadbeefL);
    RapSink sink = feed(config(0.10), s);
    List<HotRange> hot = sink.hotRanges();
    HotRange h = hot.get(hot.size() - 1);
    assertThat(h.lo()).isEqualTo(0xdeadbeefL);
    assertThat(h.hi()).isEqualTo(0xdeadbeefL);
    // Only the events before the tree reached the single value are counted higher up.
    assertThat(h.percentError()).isLessThan(1.0);
    assertThat(h.parent()).isEqualTo(-1);
  }

  @Test
  void nestedHotRangesNameTheirParent() {
    SplittableRandom r = new SplittableRandom(3);
    long[] s = new long[100_000];
    for (int i = 0; i < s.length; i++) {
      int k = r.nextInt(100);
      // 30%: value 7; 30%: spread over [0, 0xffff]; 40%: spread over 40 bits.
      s[i] = k < 30 ? 7 : k < 60 ? r.nextInt(0x10000) : r.nextLong(1L << 40);
    }
    RapSink sink = feed(config(0.01), s);
    List<HotRange> hot = sink.hotRanges();
    HotRange seven =
        hot.stream()
            .filter(h -> h.lo() == 7 && h.hi() == 7)
            .findFirst()
            .orElseThrow(() -> new AssertionError(hot.toString()));
    assertThat(seven.parent()).isAtLeast(0);
    HotRange outer = hot.get(seven.parent());
    assertThat(outer.lo()).isAtMost(7);
    assertThat(outer.hi()).isAtLeast(0xffff);
    assertThat(outer.inclusive()).isGreaterThan(seven.inclusive());
  }

  @Test
  void mergesKeepTheTreeSmallAndComeAtDoublingIntervals() {
    RapSink s = feed(config(0.10), concentrated(1 << 20, 4));
    RapTree t = s.tree();
    // First batch after 1024 events, then intervals of 2048, 4096, ...: 1024 * (2^k - 1) <= n.
    assertThat(t.mergeBatches()).isEqualTo(10);
    // O(log R / eps) nodes: b * height / eps is a generous worst case.
    assertThat(t.maxNodes()).isAtMost(4 * 32 * 10 * 4);
    assertThat(t.nodes()).isLessThan(t.maxNodes());
    assertThat(t.averageNodes()).isAtMost(t.maxNodes());
  }

  @Test
  void theStartUpTransientIsReportedApartFromTheSteadyPeak() {
    // A program's branch stream: start-up code over 512 pcs, then a loop over 8 of them. While
    // eps * n / height is a few events, each repeated pc splits its leaf again, so the whole
    // run's largest tree comes in the first few thousand events; merges fold it later.
    long[] s = new long[1 << 20];
    for (int i = 0; i < s.length; i++) {
      s[i] = i < 4096 ? 0x10000 + 4L * ((i * 7) % 512) : 0x30000 + 4L * (i % 8);
    }
    RapTree t = new RapTree(config(0.10));
    for (int i = 0; i < 8192; i++) {
      t.add(s[i]);
    }
    int early = t.maxNodes();
    assertThat(t.steadyMaxNodes()).isEqualTo(early); // shorter than the warm-up: the same
    for (int i = 8192; i < s.length; i++) {
      t.add(s[i]);
    }
    assertThat(t.maxNodes()).isEqualTo(early);
    assertThat(t.steadyMaxNodes()).isLessThan(t.maxNodes());
    assertThat(t.steadyMaxNodes()).isAtLeast(t.nodes());
    RapSink sink = feed(config(0.10), s);
    assertThat(sink.report(null).json())
        .contains("\"steady_max_nodes\": " + sink.tree().steadyMaxNodes());
  }

  @Test
  void aNodeCapacityIsNeverExceeded() {
    RapConfig c = new RapConfig(64, 4, 0.01, 2.0, 1024, 64, 0.10);
    RapSink s = feed(c, concentrated(100_000, 5));
    assertThat(s.tree().maxNodes()).isAtMost(64);
    assertThat(s.tree().refusedSplits()).isGreaterThan(0);
    for (RapTree.Node n : s.tree().preorder()) {
      assertThat(n.subtreeCount()).isAtMost(s.exact().countIn(n.lo(), n.hi()));
    }
  }

  @Test
  void narrowRangesWorkAndMaskWideValues() {
    RapSink s = new RapSink("t", Map.of("range_bits", "8", "branching", "2"));
    for (int i = 0; i < 10_000; i++) {
      s.add(0x100 + 5); // masked to 5
    }
    HotRange h = s.hotRanges().get(s.hotRanges().size() - 1);
    assertThat(h.lo()).isEqualTo(5);
    assertThat(h.hi()).isEqualTo(5);
    assertThat(s.tree().height()).isEqualTo(8);
  }

  @Test
  void refusesBadParameters() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> RapConfig.of(Map.of("branching", "3")));
    assertThat(e).hasMessageThat().contains("branching must be a power of two");
    e =
        assertThrows(
            IllegalArgumentException.class, () -> RapConfig.of(Map.of("epsilon_ppm", "0")));
    assertThat(e).hasMessageThat().contains("epsilon");
  }

  @Test
  void jsonAndTextShowTheHotRanges() {
    RapSink s = feed(config(0.01), concentrated(20_000, 6));
    String json = s.files(null).get("tree.json");
    assertThat(json).contains("\"hot\": [");
    assertThat(json).contains("\"max_nodes\": " + s.tree().maxNodes());
    assertThat(json).contains("\"tree\": {\"lo\": \"0x0\", \"hi\": \"0xffffffffffffffff\"");
    String text = s.files(null).get("tree.txt");
    assertThat(text).startsWith("RAP tree: 20000 events");
    assertThat(text).contains("* [");
    assertThat(s.table(null).rows()).hasSize(s.hotRanges().size());
  }
}
