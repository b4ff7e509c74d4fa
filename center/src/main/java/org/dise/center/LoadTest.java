package org.dise.center;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.dise.runtime.sink.ProfileTable;

/**
 * The center under many devices at once (issue 15: at least 50 uploading concurrently): a center on
 * loopback, {@code devices} threads each sending {@code parts} upload parts shaped like a
 * phase-tracked call-pair profile, all starting together. Bounded in count and in time: a device
 * stops at its last part or at the deadline. Prints uploads per second and latency percentiles; a
 * benchmark, so it asserts nothing about speed.
 */
public final class LoadTest {
  private LoadTest() {}

  /** The figures of one load test. */
  public record Result(
      int devices,
      int sent,
      int stored,
      int failed,
      double seconds,
      double uploadsPerSecond,
      double p50Ms,
      double p99Ms,
      double maxMs,
      long bytes,
      long storedUploads) {
    public String describe() {
      return String.format(
          Locale.ROOT,
          "%d devices, %d parts sent (%d stored, %d failed) in"
              + " %.2f s: %.1f uploads/s, latency p50 %.1f ms, p99 %.1f ms, max %.1f ms, %,d bytes;"
              + " the center holds %d uploads",
          devices,
          sent,
          stored,
          failed,
          seconds,
          uploadsPerSecond,
          p50Ms,
          p99Ms,
          maxMs,
          bytes,
          storedUploads);
    }
  }

  /**
   * Runs the test against a center started here on {@code store} (which it closes).
   *
   * @param rows rows of each part's call-pair profile
   */
  public static Result run(
      Store store, int devices, int parts, int rows, Duration limit, PrintStream log)
      throws Exception {
    return run(store, 1, devices, parts, rows, limit, log);
  }

  /**
   * As {@link #run(Store, int, int, int, Duration, PrintStream)} against {@code instances} centers
   * on the one database (each with its own store connections, as separate processes would have);
   * device d sends to center d mod instances.
   */
  public static Result run(
      Store store, int instances, int devices, int parts, int rows, Duration limit, PrintStream log)
      throws Exception {
    List<String> tokens = new ArrayList<>();
    for (int d = 0; d < devices; d++) {
      tokens.add(store.addToken("load" + d));
    }
    CenterServer.Settings settings = CenterServer.Settings.defaults().withPort(0);
    List<CenterServer> centers = new ArrayList<>();
    List<CenterClient> clients = new ArrayList<>();
    try (CenterServer center =
        CenterServer.start(store, settings, new PrintStream(PrintStream.nullOutputStream()))) {
      centers.add(center);
      for (int k = 1; k < instances; k++) {
        Store more = Store.open(store.url(), settings.threads());
        centers.add(
            CenterServer.start(more, settings, new PrintStream(PrintStream.nullOutputStream())));
      }
      for (CenterServer c : centers) {
        clients.add(new CenterClient(c.url(), Duration.ofSeconds(60)));
      }
      try {
        return drive(store, clients, tokens, devices, parts, rows, limit, log);
      } finally {
        for (CenterServer c : centers.subList(1, centers.size())) {
          c.close();
        }
      }
    }
  }

  private static Result drive(
      Store store,
      List<CenterClient> clients,
      List<String> tokens,
      int devices,
      int parts,
      int rows,
      Duration limit,
      PrintStream log)
      throws Exception {
    {
      CenterClient[] clientOf = new CenterClient[devices];
      for (int d = 0; d < devices; d++) {
        clientOf[d] = clients.get(d % clients.size());
      }
      long deadline = System.nanoTime() + limit.toNanos();
      double[][] latencies = new double[devices][parts];
      int[] done = new int[devices];
      AtomicInteger stored = new AtomicInteger();
      AtomicInteger failed = new AtomicInteger();
      long[] bytes = new long[devices];
      CountDownLatch go = new CountDownLatch(1);
      List<Thread> threads = new ArrayList<>();
      for (int d = 0; d < devices; d++) {
        int dev = d;
        // Parts are made before the clock starts: the test measures the center, not them.
        List<byte[]> bodies = new ArrayList<>();
        for (int p = 0; p < parts; p++) {
          bodies.add(
              UploadCodec.gzip(
                  UploadCodec.json(part("load" + d, p, rows, new SplittableRandom(31L * d + p)))));
        }
        Thread t =
            new Thread(
                () -> {
                  try {
                    go.await();
                  } catch (InterruptedException e) {
                    return;
                  }
                  for (int p = 0; p < parts && System.nanoTime() < deadline; p++) {
                    long t0 = System.nanoTime();
                    CenterClient.Sent s = clientOf[dev].upload(bodies.get(p), tokens.get(dev));
                    latencies[dev][p] = (System.nanoTime() - t0) / 1e6;
                    done[dev]++;
                    bytes[dev] += bodies.get(p).length;
                    if (s.outcome() == CenterClient.Outcome.STORED) {
                      stored.incrementAndGet();
                    } else {
                      failed.incrementAndGet();
                      log.println(
                          "load test: device "
                              + dev
                              + " part "
                              + p
                              + ": "
                              + s.status()
                              + " "
                              + s.message());
                    }
                  }
                },
                "load-device-" + d);
        threads.add(t);
        t.start();
      }
      long start = System.nanoTime();
      go.countDown();
      for (Thread t : threads) {
        t.join();
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      int sent = Arrays.stream(done).sum();
      double[] all = new double[sent];
      int i = 0;
      for (int d = 0; d < devices; d++) {
        for (int p = 0; p < done[d]; p++) {
          all[i++] = latencies[d][p];
        }
      }
      Arrays.sort(all);
      Store.Status status = store.status();
      return new Result(
          devices,
          sent,
          stored.get(),
          failed.get(),
          seconds,
          sent / seconds,
          percentile(all, 0.50),
          percentile(all, 0.99),
          all.length == 0 ? 0 : all[all.length - 1],
          Arrays.stream(bytes).sum(),
          status.uploads());
    }
  }

  private static double percentile(double[] sorted, double q) {
    if (sorted.length == 0) {
      return 0;
    }
    return sorted[Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1)];
  }

  /** A part shaped like a phase-tracked call-pair profile of one device. */
  public static Upload part(String device, int part, int rows, SplittableRandom r) {
    List<List<String>> table = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      long caller = 0x10000 + 16L * r.nextInt(4096);
      long callee = 0x20000 + 16L * r.nextInt(4096);
      table.add(
          List.of(
              "f" + Long.toHexString(caller),
              "g" + Long.toHexString(callee),
              Long.toString(1 + r.nextInt(100000)),
              "0x" + Long.toHexString(caller),
              "0x" + Long.toHexString(callee)));
    }
    ProfileTable t =
        new ProfileTable(
            List.of("caller", "callee", "count", "caller_address", "callee_address"),
            table,
            List.of("caller_address", "callee_address"),
            "count");
    List<Upload.PhaseReport> phases = new ArrayList<>();
    List<Integer> trace = new ArrayList<>();
    for (int p = 0; p < 4; p++) {
      double[] sig = new double[32];
      sig[p * 8] = 0.5;
      sig[p * 8 + 1 + r.nextInt(7)] = 0.5;
      phases.add(
          new Upload.PhaseReport(
              p,
              sig,
              5,
              5_000_000,
              1,
              1_000_000,
              Map.of("CallPair_handler", Map.of("0x1000|0x2000", 10L + p))));
      for (int k = 0; k < 5; k++) {
        trace.add(p);
      }
    }
    return new Upload(
        UUID.randomUUID().toString(),
        0,
        true,
        device,
        "loadprog",
        "ab".repeat(32),
        "cd".repeat(32),
        new Upload.Figures(20, 4, 20_000_000, 4_000_000, 1_000_000, 0),
        List.of(new Upload.SinkProfile("CallPair_handler", t)),
        phases,
        trace);
  }
}
