package org.dise.runtime.profiles.sampling;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.dise.runtime.trigger.PhaseAwareTrigger;
import org.dise.runtime.trigger.TriggerSpec;

/**
 * Accuracy versus sampled fraction (phase-based remote profiling paper, Section 3.2.2, Fig. 5): one
 * workload under periodic sampling for several N, random sampling for several P and seeds, and
 * phase-aware sampling for several similarity thresholds, each run's estimate compared with the
 * exhaustive profile of one first pass. See spec/sampling.md and docs/benchmarks.md.
 */
public final class Sweep {
  private Sweep() {}

  /** One run of the sweep; errors are fractions (0.05 is 5%) of the first sink's profile. */
  public record Point(
      String workload,
      String strategy,
      String parameter,
      long seed,
      double sampledFraction,
      double countError,
      double hotError,
      long intervals,
      int phases) {}

  /** What to sweep. */
  public record Plan(
      long interval,
      List<Double> thresholds,
      List<Long> periods,
      List<Long> oneIns,
      List<Long> seeds,
      String policy,
      String predictor) {}

  /** Runs the plan on one workload; {@code progress} gets a line per run. */
  public static List<Point> run(
      String workload, SamplingRun.Setup setup, Plan plan, PrintStream progress) {
    List<Point> out = new ArrayList<>();
    TriggerSpec exhaustive =
        new TriggerSpec("exhaustive", Map.of("interval", Long.toString(plan.interval())));
    SamplingRun.FirstPass first = SamplingRun.firstPass(setup, exhaustive, -1);
    for (long n : plan.periods()) {
      out.add(
          point(
              workload,
              "periodic",
              Long.toString(n),
              0,
              setup,
              first,
              exhaustive.with("period", Long.toString(n)),
              "periodic",
              progress));
    }
    for (long p : plan.oneIns()) {
      for (long seed : plan.seeds()) {
        out.add(
            point(
                workload,
                "random",
                Long.toString(p),
                seed,
                setup,
                first,
                exhaustive.with("one_in", Long.toString(p)).with("seed", Long.toString(seed)),
                "random",
                progress));
      }
    }
    for (double t : plan.thresholds()) {
      TriggerSpec phase =
          TriggerSpec.phaseAware(plan.interval(), plan.policy(), plan.predictor())
              .with("threshold", Double.toString(t));
      SamplingRun.FirstPass f = SamplingRun.firstPassFor(setup, phase, first);
      out.add(
          point(
              workload,
              "phase:" + plan.policy(),
              trim(t),
              0,
              setup,
              f,
              phase,
              "phase_aware",
              progress));
    }
    return out;
  }

  private static Point point(
      String workload,
      String strategy,
      String parameter,
      long seed,
      SamplingRun.Setup setup,
      SamplingRun.FirstPass first,
      TriggerSpec spec,
      String component,
      PrintStream progress) {
    TriggerSpec s = new TriggerSpec(component, spec.params());
    SamplingRun.Result r = SamplingRun.run(setup, s, true, first, -1);
    SamplingRun.SinkAccuracy a = r.primary();
    int phases = r.trigger() instanceof PhaseAwareTrigger p ? p.tracker().phaseCount() : 0;
    Point pt =
        new Point(
            workload,
            strategy,
            parameter,
            seed,
            r.sampledFraction(),
            a == null ? Double.NaN : a.countError(),
            a == null ? Double.NaN : a.hotError(),
            r.driver().intervals(),
            phases);
    if (progress != null) {
      progress.printf(
          Locale.ROOT,
          "%-10s %-14s %-8s seed %-3d sampled %6.2f%%  count error"
              + " %7.2f%%  hot error %6.2f%%%n",
          workload,
          strategy,
          parameter,
          seed,
          100 * pt.sampledFraction(),
          100 * pt.countError(),
          100 * pt.hotError());
    }
    return pt;
  }

  private static String trim(double t) {
    return t == Math.rint(t) ? Long.toString((long) t) : Double.toString(t);
  }

  public static void writeCsv(List<Point> points, Writer w) throws IOException {
    writeCsv(points, Map.of(), w);
  }

  /**
   * The points as CSV, each row ending in {@code settings} as constant columns (the settings every
   * run shared, so that a CSV says how it was made: {@link #settings}).
   */
  public static void writeCsv(List<Point> points, Map<String, String> settings, Writer w)
      throws IOException {
    StringBuilder extra = new StringBuilder();
    settings.forEach((k, v) -> extra.append(',').append(v));
    w.write(
        "workload,strategy,parameter,seed,sampled_fraction,count_error,hot_error,intervals,"
            + "phases"
            + (settings.isEmpty() ? "" : "," + String.join(",", settings.keySet()))
            + "\n");
    for (Point p : points) {
      w.write(
          String.format(
              Locale.ROOT,
              "%s,%s,%s,%d,%.6f,%.6f,%.6f,%d,%d%s%n",
              p.workload(),
              p.strategy(),
              p.parameter(),
              p.seed(),
              p.sampledFraction(),
              p.countError(),
              p.hotError(),
              p.intervals(),
              p.phases(),
              extra));
    }
  }

  /**
   * The settings every run of {@code plan} shares, defaults included: the interval and counter, and
   * each strategy's other parameters ({@code phase_aware.scaling}) but those the sweep varies
   * (period, one_in and seed of random sampling, threshold).
   */
  public static Map<String, String> settings(Plan plan) {
    Map<String, String> iv = Map.of("interval", Long.toString(plan.interval()));
    List<TriggerSpec> specs =
        List.of(
            new TriggerSpec("periodic", iv),
            new TriggerSpec("random", iv),
            TriggerSpec.phaseAware(plan.interval(), plan.policy(), plan.predictor()));
    Map<String, List<String>> varied =
        Map.of(
            "periodic", List.of("period"),
            "random", List.of("one_in", "seed"),
            "phase_aware", List.of("threshold"));
    Map<String, String> out = new LinkedHashMap<>();
    for (TriggerSpec spec : specs) {
      spec.settings()
          .forEach(
              (k, v) -> {
                if (k.equals("interval") || k.equals("counter")) {
                  out.putIfAbsent(k, v); // the same for every strategy
                } else if (!varied.get(spec.component()).contains(k)) {
                  out.put(spec.component() + "." + k, v);
                }
              });
    }
    return out;
  }

  /** The points of a CSV that {@link #writeCsv} wrote (header included). */
  public static List<Point> readCsv(List<String> lines) {
    List<Point> out = new ArrayList<>();
    for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
      if (line.isBlank()) {
        continue;
      }
      String[] f = line.split(",");
      if (f.length < 9) { // further columns are the settings the runs shared
        throw new IllegalArgumentException(
            "expected at least 9 columns, not " + f.length + ": " + line);
      }
      try {
        out.add(
            new Point(
                f[0],
                f[1],
                f[2],
                Long.parseLong(f[3]),
                Double.parseDouble(f[4]),
                Double.parseDouble(f[5]),
                Double.parseDouble(f[6]),
                Long.parseLong(f[7]),
                Integer.parseInt(f[8])));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("not a number in: " + line);
      }
    }
    return out;
  }

  /**
   * Per workload and strategy, the smallest sampled fraction at which the count error is at most
   * {@code target} (random: the mean over seeds at each P, as the paper averages), or null when no
   * run reached it.
   */
  public static Map<String, Map<String, Double>> fractionAtError(
      List<Point> points, double target) {
    Map<String, Map<String, List<Point>>> groups = new LinkedHashMap<>();
    for (Point p : points) {
      groups
          .computeIfAbsent(p.workload(), k -> new LinkedHashMap<>())
          .computeIfAbsent(p.strategy() + "\u0000" + p.parameter(), k -> new ArrayList<>())
          .add(p);
    }
    Map<String, Map<String, Double>> out = new LinkedHashMap<>();
    groups.forEach(
        (workload, byParam) -> {
          Map<String, Double> best = new TreeMap<>();
          byParam.forEach(
              (key, runs) -> {
                String strategy = key.substring(0, key.indexOf('\u0000'));
                double f = runs.stream().mapToDouble(Point::sampledFraction).average().orElse(1);
                double e = runs.stream().mapToDouble(Point::countError).average().orElse(1);
                best.putIfAbsent(strategy, null);
                if (e <= target && (best.get(strategy) == null || f < best.get(strategy))) {
                  best.put(strategy, f);
                }
              });
          out.put(workload, best);
        });
    return out;
  }
}
