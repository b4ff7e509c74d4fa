package org.dise.experiments;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.profiles.sampling.SamplingRun;
import org.dise.runtime.trigger.TriggerSpec;

/**
 * What bounds phase-aware sampling's fraction (first paper, Fig. 15(a): 5% error at 4% sampled): it
 * samples about one interval per phase, so a run of 25 intervals in four phases cannot go below
 * 16%. This experiment shortens the interval so that the same run has more intervals per phase, and
 * at each interval runs phase-aware sampling (third, threshold 25, last-value predictor) and then
 * periodic and random sampling at the fraction phase-aware sampling reached, on the same interval:
 * matched fractions, as the paper compares them.
 */
public final class IntervalsExperiment extends SplitExperiment {
  public IntervalsExperiment() {
    super(
        new About(
            "intervals",
            "Nagpurkar et al., Efficient Remote Profiling, Fig. 15(a): error at matched sampled"
                + " fractions as the interval shortens",
            "Count error and hot-set errors versus sampled fraction for phase-aware sampling at"
                + " shorter and shorter intervals, with periodic and random sampling at the fraction"
                + " phase-aware sampling reached.",
            "phases:1:AABB",
            "phases:2,jpeg:1,lz77:1,adpcm:1"));
  }

  /** The interval lengths, longest first by default; 62.5K is the first paper's shortest. */
  static final Option INTERVALS =
      new Option(
          "intervals",
          "100K,50K",
          "1M,500K,250K,125K,62500",
          "interval lengths in application instructions, comma-separated (K and M suffixes)");

  @Override
  public List<Option> options() {
    return List.of(INTERVALS);
  }

  static List<Long> seeds(boolean quick) {
    return quick ? List.of(1L) : List.of(1L, 2L);
  }

  /**
   * One run per program: its exhaustive pass, then at each interval phase-aware sampling and
   * periodic and random sampling at the fraction it reached (they depend on it, so they run
   * together).
   */
  @Override
  public List<RunSpec> plan(Lab lab) {
    List<Long> intervals = lab.counts(INTERVALS);
    List<RunSpec> out = new ArrayList<>();
    for (Workload w : lab.workloads()) {
      out.add(
          lab.spec(
              "intervals.run",
              w,
              Map.of(
                  "intervals",
                  String.join(",", intervals.stream().map(String::valueOf).toList()),
                  "seeds",
                  String.join(",", seeds(lab.quick()).stream().map(String::valueOf).toList()),
                  "acf",
                  SamplingExperiment.ACF),
              String.format(Locale.ROOT, "intervals: %-10s %s", w.label(), intervals)));
    }
    return out;
  }

  /** One program at every interval: its rows and points. */
  @Override
  public JsonNode execute(Lab lab, RunSpec spec) {
    ProductionSet set = lab.compile("sampled_regions.acf", spec.setting("acf"));
    Table t = SamplingExperiment.table();
    Map<String, List<double[]>> points = new LinkedHashMap<>();
    List<Long> intervals = longs(spec.setting("intervals"));
    List<Long> seeds = longs(spec.setting("seeds"));
    Workload w = lab.workload(spec);
    SamplingRun.Setup setup = lab.setup(w, set);
    // The exact profile does not depend on the interval: one exhaustive pass serves all.
    TriggerSpec exhaustive = new TriggerSpec("exhaustive", Map.of("interval", "1000000"));
    SamplingRun.FirstPass first = SamplingRun.firstPass(setup, exhaustive, -1);
    Lab.check(w, first.outcome());
    lab.progress("intervals: %-10s exhaustive pass done", w.label());
    for (long interval : intervals) {
      String iv = Long.toString(interval);
      TriggerSpec phase = TriggerSpec.phaseAware(interval, "third", "last").with("threshold", "25");
      double f =
          SamplingExperiment.point(
              lab,
              t,
              points,
              w,
              setup,
              first,
              phase,
              "phase_aware",
              "phase:third",
              "last",
              iv,
              0,
              interval);
      long every = Math.max(2, Math.round(1 / Math.max(f, 1e-9)));
      TriggerSpec base = new TriggerSpec("exhaustive", Map.of("interval", iv));
      SamplingExperiment.point(
          lab,
          t,
          points,
          w,
          setup,
          first,
          base.with("period", Long.toString(every)),
          "periodic",
          "periodic",
          "-",
          iv,
          0,
          interval);
      for (long seed : seeds) {
        SamplingExperiment.point(
            lab,
            t,
            points,
            w,
            setup,
            first,
            base.with("one_in", Long.toString(every)).with("seed", Long.toString(seed)),
            "random",
            "random",
            "-",
            iv,
            seed,
            interval);
      }
    }
    return TableRows.encode(t, points);
  }

  private static List<Long> longs(String csv) {
    return java.util.Arrays.stream(csv.split(",")).map(Long::valueOf).toList();
  }

  @Override
  public Outcome collect(Lab lab, List<JsonNode> results) {
    List<Long> intervals = lab.counts(INTERVALS);
    Table t = SamplingExperiment.table();
    Map<String, List<double[]>> points = new LinkedHashMap<>();
    results.forEach(n -> TableRows.addTo(n, t, points));
    Outcome o = new Outcome(t);
    o.settings(
        new TriggerSpec("phase_aware", Map.of("threshold", "25", "policy", "third")), "interval");
    o.settings(new TriggerSpec("periodic", Map.of()), "interval", "period");
    o.settings(new TriggerSpec("random", Map.of()), "interval", "one_in", "seed");
    o.setting("hot_set", SamplingExperiment.HOT_SET);
    List<Figure.Series> count = new ArrayList<>();
    List<Figure.Series> heavy = new ArrayList<>();
    Map<String, String> at5 = new TreeMap<>();
    for (Map.Entry<String, List<double[]>> e : points.entrySet()) {
      List<double[]> ps = SamplingExperiment.averagedBySetting(e.getValue());
      count.add(SamplingExperiment.series(e.getKey(), ps, 1));
      heavy.add(SamplingExperiment.series(e.getKey(), ps, 5));
      double best = Double.NaN;
      for (double[] p : ps) {
        if (p[1] <= 0.05 && (Double.isNaN(best) || p[0] < best)) {
          best = p[0];
        }
      }
      at5.put(e.getKey(), SamplingExperiment.frac(new double[] {best}));
    }
    o.figure(
        SamplingExperiment.countFigure(
            "Count error vs sampled fraction as the interval shortens", count));
    o.figure(
        Figure.points(
            "hot-weight",
            "Hot set error of the entries carrying 90% of the" + " weight",
            "sampled fraction, %",
            "hot weight error, %",
            heavy));
    o.compare(
        "smallest sampled fraction with <= 5% count error, phase-aware (third)",
        "4% (Fig. 15(a))",
        at5.getOrDefault("phase:third", "-"),
        "One point per interval length, averaged over the programs.");
    o.compare(
        "the same, periodic at the phase-aware fraction",
        "11%",
        at5.getOrDefault("periodic", "-"),
        "");
    o.compare(
        "the same, random at the phase-aware fraction (average of seeds)",
        "20%",
        at5.getOrDefault("random", "-"),
        "");
    o.note(
        "Intervals "
            + intervals
            + " application instructions. Periodic N and"
            + " random 1/P are the nearest integers to 1 / (phase-aware's sampled fraction) at the"
            + " same interval; the CSV has every run.");
    return o;
  }
}
