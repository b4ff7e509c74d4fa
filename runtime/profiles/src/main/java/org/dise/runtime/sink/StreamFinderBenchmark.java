package org.dise.runtime.sink;

import java.util.Random;

/**
 * A benchmark, not a test ({@code acf bench stream-finder}): printed figures for the hot data
 * stream search: time per traced reference on
 * synthetic traces of repeated streams in noise, at the burst_trace sink's default capacity
 * and a quarter of it. Recorded in docs/benchmarks.md.
 */
public final class StreamFinderBenchmark {
  private StreamFinderBenchmark() {}

  /** Prints the figures (docs/benchmarks.md records them). */
  public static void main(String[] args) {
    printTimePerReference();
  }

  /** Streams of 10-40 references repeated in random order, one reference in {@code noise} random. */
  static long[][] trace(int n, int streams, int noise, long seed) {
    Random r = new Random(seed);
    long[][] pcs = new long[streams][];
    for (int s = 0; s < streams; s++) {
      pcs[s] = new long[10 + r.nextInt(31)];
      for (int i = 0; i < pcs[s].length; i++) {
        pcs[s][i] = 0x10000 + 4L * r.nextInt(4096);
      }
    }
    long[] pc = new long[n];
    long[] addr = new long[n];
    int k = 0;
    while (k < n) {
      if (r.nextInt(noise) == 0) {
        pc[k] = 0x20000 + r.nextInt(1024);
        addr[k++] = r.nextLong();
        continue;
      }
      int s = r.nextInt(streams);
      for (int i = 0; i < pcs[s].length && k < n; i++, k++) {
        pc[k] = pcs[s][i];
        addr[k] = pcs[s][i] * 8 + s;
      }
    }
    return new long[][] {pc, addr};
  }

  static void printTimePerReference() {
    StreamFinder f = new StreamFinder(10, 40, 90);
    for (int n : new int[] {BurstTrace.DEFAULT_CAPACITY / 4, BurstTrace.DEFAULT_CAPACITY}) {
      long[][] t = trace(n, 20, 50, 42);
      f.find(t[0], t[1], n / 8); // warm-up
      long t0 = System.nanoTime();
      int found = f.find(t[0], t[1], n).size();
      double s = (System.nanoTime() - t0) / 1e9;
      long lazyCounts = f.counts;
      f.find(t[0], t[1], null, n, false);
      System.out.printf("stream finder: %,d references, %d hot streams, %.2f s, %.0f ns/reference,"
          + " %d window counts (the plain greedy search: %d)%n", n, found, s, s * 1e9 / n,
          lazyCounts, f.counts);
    }
  }
}
