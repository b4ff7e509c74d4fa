package org.dise.runtime.profiles.sink;

import static com.google.common.truth.Truth.assertThat;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The suffix-index search chooses exactly what the earlier greedy searches chose ({@link
 * GreedyOracle}): the same streams, in the same order, with the same frequencies, on traces of
 * repeated streams in noise, on short-period traces whose windows overlap, with and without bursts.
 */
class StreamFinderOracleTest {
  static void assertSame(List<StreamFinder.Stream> got, List<StreamFinder.Stream> want) {
    assertThat(got.size()).isEqualTo(want.size());
    for (int k = 0; k < got.size(); k++) {
      assertThat(got.get(k).pcs()).isEqualTo(want.get(k).pcs());
      assertThat(got.get(k).addresses()).isEqualTo(want.get(k).addresses());
      assertThat(got.get(k).frequency()).isEqualTo(want.get(k).frequency());
    }
  }

  static void check(long[][] t, int[] bursts, int min, int max, int coverage, boolean plain) {
    int n = t[0].length;
    List<StreamFinder.Stream> got =
        new StreamFinder(min, max, coverage).find(t[0], t[1], bursts, n);
    GreedyOracle oracle = new GreedyOracle(min, max, coverage);
    assertSame(got, oracle.find(t[0], t[1], bursts, n, true));
    if (plain) {
      assertSame(got, oracle.find(t[0], t[1], bursts, n, false));
    }
  }

  @Test
  void streamsInNoiseAsTheIncrementalAndPlainSearchesChoseThem() {
    int checked = 0;
    for (long seed = 1; seed <= 6; seed++) {
      long[][] t = StreamFinderBenchmark.trace(20_000, 5 + (int) seed * 7, 3 + (int) seed, seed);
      int[] bursts = new int[t[0].length];
      for (int i = 0; i < bursts.length; i++) {
        bursts[i] = seed % 2 == 0 ? i / 3000 : 0;
      }
      check(t, bursts, 10, 40, 90, true);
      checked += new StreamFinder(10, 40, 90).find(t[0], t[1], bursts, t[0].length).size();
    }
    assertThat(checked).isGreaterThan(30);
  }

  @Test
  void shortPeriodsAndSmallAlphabetsWhereWindowsOverlap() {
    // Few distinct references: many windows of each length repeat and overlap their own
    // occurrences, the case where the greedy count and the tie rules matter.
    for (long seed = 1; seed <= 12; seed++) {
      Random r = new Random(seed);
      int n = 2_000 + r.nextInt(6_000);
      long[] pcs = new long[n];
      long[] addrs = new long[n];
      int alphabet = 2 + r.nextInt(4);
      int period = 1 + r.nextInt(14);
      for (int i = 0; i < n; i++) {
        boolean regular = r.nextInt(10) != 0;
        pcs[i] = regular ? 0x1000 + 4 * (i % period) : 0x1000 + 4 * r.nextInt(alphabet);
        addrs[i] = regular ? 0x8000 : 0x8000 + 8 * r.nextInt(2);
      }
      int[] bursts = null;
      if (seed % 3 == 0) {
        bursts = new int[n];
        int b = 0;
        for (int i = 0; i < n; i++) {
          if (r.nextInt(50) == 0) {
            b++;
          }
          bursts[i] = b;
        }
      }
      int min = 2 + r.nextInt(10);
      int max = min + r.nextInt(30);
      int coverage = seed % 4 == 0 ? 100 : 50 + r.nextInt(50);
      check(new long[][] {pcs, addrs}, bursts, min, max, coverage, true);
    }
  }

  @Test
  void tracesShorterThanTheLengthsAndEmptyTraces() {
    long[][] t = StreamFinderBenchmark.trace(30, 2, 50, 3);
    check(t, null, 10, 40, 90, true);
    check(new long[][] {new long[0], new long[0]}, null, 10, 40, 90, true);
    long[][] same = {new long[25], new long[25]};
    check(same, null, 2, 40, 100, true);
  }
}
