package org.dise.runtime.profiles.sink;

import java.util.Random;

/**
 * A benchmark, not a test ({@code acf bench stream-finder}): printed figures for the hot data
 * stream search: time per traced reference on synthetic traces of repeated streams in noise, at the
 * burst_trace sink's default capacity and a quarter of it with 20 streams, and with 200 streams
 * (the search then finds about 160, a round each) up to 2 Mi references, the size of a complete
 * trace in `acf experiment bursty`. Recorded in docs/benchmarks.md.
 */
public final class StreamFinderBenchmark {
  private StreamFinderBenchmark() {}

  /** Prints the figures (docs/benchmarks.md records them). */
  public static void main(String[] args) {
    int[][] cases = {
      {65_536, 20}, {262_144, 20}, {262_144, 200}, {2_097_152, 200}, {8_388_608, 200}
    };
    StreamFinder f = new StreamFinder(10, 40, 90);
    java.lang.management.ThreadMXBean cpu =
        java.lang.management.ManagementFactory.getThreadMXBean();
    long[][] w = trace(65_536, 20, 50, 7);
    f.find(w[0], w[1], w[0].length); // warm-up
    for (int[] c : cases) {
      int n = c[0];
      long[][] t = trace(n, c[1], 50, 42);
      long t0 = System.nanoTime();
      long c0 = cpu.getCurrentThreadCpuTime();
      int found = f.find(t[0], t[1], n).size();
      double s = (System.nanoTime() - t0) / 1e9;
      double cs = (cpu.getCurrentThreadCpuTime() - c0) / 1e9;
      // CPU time of the searching thread as well as wall time: on a shared machine the wall
      // time mostly measures the load.
      System.out.printf(
          "stream finder: %,d references, %d streams in the trace, %d hot streams"
              + " found, %.2f s wall (%.0f ns/reference), %.2f s CPU (%.0f ns/reference)%n",
          n, c[1], found, s, s * 1e9 / n, cs, cs * 1e9 / n);
      System.out.printf(
          "  the search's index (suffix index, heap, gaps): %.0f MB live, %.0f bytes/reference%n",
          liveBytes(t, n) / 1e6, (double) liveBytes(t, n) / n);
    }
  }

  /**
   * The heap the search's index and state hold for a trace, measured as the heap in use after full
   * collections with and without it (the benchmark's own arrays are in both).
   */
  static long liveBytes(long[][] t, int n) {
    int[] ids = StreamFinder.intern(t[0], t[1], n);
    long before = usedAfterGc();
    StreamFinder.Search w = new StreamFinder.Search(ids, null, n, 10, 40);
    long after = usedAfterGc();
    java.lang.ref.Reference.reachabilityFence(w);
    return after - before;
  }

  private static long usedAfterGc() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return java.lang.management.ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /**
   * Streams of 10-40 references repeated in random order, one reference in {@code noise} random.
   */
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
}
