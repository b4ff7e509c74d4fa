package org.dise.repl;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.dise.runtime.Machine;
import org.dise.runtime.dise.DiseEngine;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.profiles.sink.rap.ExactCounter;
import org.dise.runtime.profiles.sink.rap.HotRange;
import org.dise.runtime.profiles.sink.rap.HotRanges;
import org.dise.runtime.profiles.sink.rap.RapConfig;
import org.dise.runtime.profiles.sink.rap.RapSink;
import org.dise.runtime.profiles.sink.rap.RapTree;
import org.dise.runtime.session.ProfilingSession;
import org.dise.runtime.session.SessionOptions;

/**
 * {@code acf bench --rap}: RAP tree updates per second on the pc and load-value streams of the
 * workloads, beside an exact counter (an open-addressing map, and java.util.HashMap) fed the same
 * stream; and, at epsilon 10% and 1%, the tree's maximum and average node counts and its hot
 * ranges' percent error, as the RAP paper's Figs. 7 and 8 report them.
 */
final class RapBench {
  private RapBench() {}

  /** The streams: the library's hot code and load value blocks. */
  static final Map<String, String> STREAMS =
      Map.of(
          "pc", "import rap;\nuse hot_code_ranges;\n",
          "value", "import rap;\nuse load_value_ranges;\n");

  /**
   * The table of {@code programs}, each started with {@code guest} ({@code acf bench}'s --sysroot
   * and --translate-threshold), adding each line's figures to {@code rows} (when not null) for
   * {@code --format json}.
   */
  static void run(
      List<Path> programs,
      List<String> args,
      Machine.Options guest,
      long maxInsns,
      int repeat,
      PrintStream out,
      List<Object> rows) {
    out.printf(
        "%-8s %-6s %11s %9s %9s %9s | %-5s %6s %8s %5s %8s %8s%n",
        "workload",
        "stream",
        "events",
        "RAP M/s",
        "exact M/s",
        "HashMap",
        "eps",
        "max",
        "average",
        "hot",
        "max err%",
        "avg err%");
    for (Path p : programs) {
      for (String stream : List.of("pc", "value")) {
        long[] events = capture(p, args, guest, stream, maxInsns);
        double rap =
            rate(
                events,
                repeat,
                () -> {
                  RapTree t = new RapTree(RapConfig.DEFAULT);
                  return t::add;
                });
        double exact =
            rate(
                events,
                repeat,
                () -> {
                  ExactCounter c = new ExactCounter();
                  return c::add;
                });
        double hash =
            rate(
                events,
                repeat,
                () -> {
                  Map<Long, Long> m = new HashMap<>();
                  return v -> m.merge(v, 1L, Long::sum);
                });
        boolean first = true;
        for (double eps : new double[] {0.10, 0.01}) {
          RapTree t = new RapTree(new RapConfig(64, 4, eps, 2.0, 1024, 0, 0.10));
          ExactCounter c = new ExactCounter();
          for (long v : events) {
            t.add(v);
            c.add(v);
          }
          List<HotRange> hot = HotRanges.find(t, c);
          double max = 0;
          double sum = 0;
          for (HotRange h : hot) {
            max = Math.max(max, h.percentError());
            sum += h.percentError();
          }
          String left =
              first
                  ? String.format(
                      Locale.ROOT,
                      "%-8s %-6s %,11d %9.1f %9.1f %9.1f",
                      p.getFileName(),
                      stream,
                      events.length,
                      rap,
                      exact,
                      hash)
                  : String.format("%-8s %-6s %11s %9s %9s %9s", "", "", "", "", "", "");
          out.printf(
              Locale.ROOT,
              "%s | %-5s %6d %8.1f %5d %8.2f %8.2f%n",
              left,
              eps == 0.10 ? "10%" : "1%",
              t.maxNodes(),
              t.averageNodes(),
              hot.size(),
              max,
              hot.isEmpty() ? 0 : sum / hot.size());
          if (rows != null) {
            Map<String, Object> row = new java.util.LinkedHashMap<>();
            row.put("workload", p.getFileName().toString());
            row.put("stream", stream);
            row.put("events", events.length);
            row.put("rap_million_per_second", rap);
            row.put("exact_million_per_second", exact);
            row.put("hashmap_million_per_second", hash);
            row.put("epsilon", eps);
            row.put("max_nodes", t.maxNodes());
            row.put("average_nodes", t.averageNodes());
            row.put("hot_ranges", hot.size());
            row.put("max_error_percent", max);
            row.put("average_error_percent", hot.isEmpty() ? 0.0 : sum / hot.size());
            rows.add(row);
          }
          first = false;
        }
      }
    }
    out.println(
        "RAP M/s: RAP tree updates per second (epsilon 1%, b 4, 64-bit values), millions;"
            + " exact: an open-addressing hash map; HashMap: java.util.HashMap.merge. max/average:"
            + " tree nodes (Fig. 7); hot: hot ranges at 10%; err: their percent error against the"
            + " exact count (Fig. 8).");
  }

  /** The stream the library block records for the first {@code maxInsns} instructions. */
  private static long[] capture(
      Path program, List<String> args, Machine.Options guest, String stream, long maxInsns) {
    String name = "bench-" + stream + ".acf";
    ProductionSet set = AcfLoader.compile(name, STREAMS.get(stream));
    ProfilingSession.Run run =
        ProfilingSession.of(
                new SessionOptions(program, args, List.of(Path.of(name)), null, null, -1, true),
                guest,
                set)
            .quiet()
            .start();
    DiseEngine engine = run.engine();
    long[][] buf = {new long[1 << 16]};
    int[] n = {0};
    ((RapSink) engine.sinks().get(0))
        .tap(
            v -> {
              if (n[0] == buf[0].length) {
                buf[0] = Arrays.copyOf(buf[0], buf[0].length * 2);
              }
              buf[0][n[0]++] = v;
            });
    run.run(maxInsns);
    return Arrays.copyOf(buf[0], n[0]);
  }

  /** Millions of events per second, best of {@code repeat}. */
  private static double rate(
      long[] events,
      int repeat,
      java.util.function.Supplier<java.util.function.LongConsumer> counter) {
    double best = 0;
    for (int r = 0; r < Math.max(2, repeat); r++) { // the first run warms the JIT up
      java.util.function.LongConsumer c = counter.get();
      long t0 = System.nanoTime();
      for (long v : events) {
        c.accept(v);
      }
      double s = (System.nanoTime() - t0) / 1e9;
      best = Math.max(best, events.length / s / 1e6);
    }
    return best;
  }
}
