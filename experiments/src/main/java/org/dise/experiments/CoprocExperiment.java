package org.dise.experiments;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.dise.runtime.profiles.sink.coproc.SampledValueProfiler;
import org.dise.runtime.profiles.sink.coproc.ValueProfiler;
import org.dise.runtime.sink.Sink;

/**
 * The profiling co-processor's load value profile against interrupt-driven sampling (Zilles and
 * Sohi, Section 5.3): weighted RMS error of value invariance versus the main processor's overhead
 * (interrupt cycles over application instructions), on the same loads of one run; the co-processor
 * with and without random tagging, the sampler at several periods.
 */
public final class CoprocExperiment extends SplitExperiment {
  public CoprocExperiment() {
    super(
        new About(
            "coproc",
            "Zilles and Sohi, A Programmable Co-processor for Profiling, Section 5.3 (accuracy"
                + " and overhead vs simple sampling)",
            "Weighted RMS error of the load value profile versus main-processor overhead, for"
                + " the profiling co-processor (with and without random tagging) and interrupt-driven"
                + " sampling at several periods.",
            "phases:1:ABCD",
            "jpeg:1,lz77:1,mcf:1,interp:1,chess:1,adpcm:1"));
  }

  static List<Long> periods(boolean quick) {
    return quick ? List.of(100L, 1000L) : List.of(30L, 100L, 300L, 1000L, 3000L, 10000L);
  }

  static String acf(long period, boolean randomTagging) {
    return "import coproc;\n"
        + "sink Coproc = value_profile(random_tagging = "
        + randomTagging
        + ");\n"
        + "sink Sampler = sampled_value_profile(period = "
        + period
        + ", interrupt_cycles = 420);\n"
        + "use load_value_profile(values = Coproc);\n"
        + "Sampled: T.OPCLASS == load && zero_0 => tag(Sampler)\n";
  }

  /**
   * One run per program, period and tagging: every period with random tagging, the first also
   * without (the co-processor is the same in every run, so only the first period's counts it).
   */
  @Override
  public List<RunSpec> plan(Lab lab) {
    List<RunSpec> out = new ArrayList<>();
    for (Workload w : lab.workloads()) {
      boolean first = true;
      for (long period : periods(lab.quick())) {
        for (boolean random : first ? List.of(true, false) : List.of(true)) {
          Map<String, String> settings = new java.util.TreeMap<>();
          settings.put("period", Long.toString(period));
          settings.put("random_tagging", Boolean.toString(random));
          settings.put("first_period", Boolean.toString(first));
          settings.put("acf", acf(period, random));
          out.add(
              lab.spec(
                  "coproc.run",
                  w,
                  settings,
                  String.format(
                      Locale.ROOT,
                      "coproc: %-10s 1/%-6d %s",
                      w.label(),
                      period,
                      random ? "random tagging" : "no random tagging")));
        }
        first = false;
      }
    }
    return out;
  }

  /**
   * One run: the application's instructions and, per profiler in the engine's order, its
   * interrupts, their cycles and its weighted RMS error.
   */
  @Override
  public JsonNode execute(Lab lab, RunSpec spec) {
    Lab.Run r = lab.run(lab.workload(spec), lab.compile("coproc.acf", spec.setting("acf")));
    ObjectNode n = Results.MAPPER.createObjectNode();
    n.put("application_instructions", r.cost().applicationInstructions());
    ArrayNode profilers = n.putArray("profilers");
    for (Sink s : r.engine().sinks()) {
      if (s instanceof ValueProfiler v) {
        profiler(profilers, "coproc", v.interrupts(), v.interruptCycles(), v.weightedRmsError());
      } else if (s instanceof SampledValueProfiler sv) {
        profiler(
            profilers, "sampler", sv.interrupts(), sv.interruptCycles(), sv.weightedRmsError());
      }
    }
    return n;
  }

  /** One profiler's entry in a run's result: its kind, the interrupts it took, its error. */
  private static void profiler(
      ArrayNode profilers, String kind, long interrupts, long interruptCycles, double error) {
    profilers
        .addObject()
        .put("kind", kind)
        .put("interrupts", interrupts)
        .put("interrupt_cycles", interruptCycles)
        .put("error", error);
  }

  @Override
  public Outcome collect(Lab lab, List<JsonNode> results) {
    Table t =
        new Table(
            "program",
            "profiler",
            "parameter",
            "interrupts",
            "interrupt_cycles",
            "overhead_pct",
            "weighted_rms_error_pct");
    Map<String, List<double[]>> series = new LinkedHashMap<>(); // name -> {overhead, error}
    Map<String, double[]> coproc = new LinkedHashMap<>(); // program -> {overhead, error}
    Map<String, List<double[]>> sampling = new LinkedHashMap<>(); // program -> {overhead, error}
    List<RunSpec> plan = plan(lab);
    for (int i = 0; i < plan.size(); i++) {
      RunSpec spec = plan.get(i);
      String program = lab.workload(spec).label();
      boolean first = Boolean.parseBoolean(spec.setting("first_period"));
      boolean random = Boolean.parseBoolean(spec.setting("random_tagging"));
      long period = Long.parseLong(spec.setting("period"));
      JsonNode n = results.get(i);
      long app = n.path("application_instructions").asLong();
      for (JsonNode p : n.path("profilers")) {
        boolean isCoproc = p.path("kind").asText().equals("coproc");
        String who;
        String param;
        if (isCoproc) {
          if (!first) {
            continue; // the same co-processor in every run
          }
          who = random ? "co-processor" : "co-processor, no random tagging";
          param = "-";
        } else {
          if (!random) {
            continue;
          }
          who = "interrupt sampling";
          param = "1/" + period;
        }
        double error = p.path("error").asDouble();
        long interrupts = p.path("interrupts").asLong();
        long cycles = p.path("interrupt_cycles").asLong();
        double overhead = 100.0 * cycles / Math.max(1, app);
        t.add(program, who, param, interrupts, cycles, overhead, error);
        series.computeIfAbsent(who, k -> new ArrayList<>()).add(new double[] {overhead, error});
        if (isCoproc && random) {
          coproc.put(program, new double[] {overhead, error});
        } else if (!isCoproc) {
          sampling
              .computeIfAbsent(program, k -> new ArrayList<>())
              .add(new double[] {overhead, error});
        }
      }
    }
    Outcome o = new Outcome(t);
    // The bindings of acf(...): everything but what the grid varies, defaults included.
    o.component("Coproc", "value_profile", Map.of(), "random_tagging");
    o.setting("Coproc.fail_threshold", "2 x slots"); // derived defaults (ValueProfiler)
    o.setting("Coproc.interval", "32 x slots");
    o.component("Sampler", "sampled_value_profile", Map.of("interrupt_cycles", "420"), "period");
    List<Figure.Series> fs = new ArrayList<>();
    series.forEach(
        (k, ps) ->
            fs.add(
                new Figure.Series(
                    k, ps.stream().map(p -> p[0]).toList(), ps.stream().map(p -> p[1]).toList())));
    o.figure(
        Figure.points(
                "accuracy",
                "Value profile error vs main-processor overhead (every"
                    + " program, every setting)",
                "main-processor overhead, % of application cycles (log scale)",
                "weighted RMS error of invariance, %",
                fs)
            .withLogX());
    double cpErr = mean(series.get("co-processor"), 1);
    double cpOver = mean(series.get("co-processor"), 0);
    double noRandom = mean(series.get("co-processor, no random tagging"), 1);
    o.compare(
        "co-processor: weighted RMS error (average)",
        "below simple sampling's on most"
            + " benchmarks (per-benchmark bars; numbers not in the text)",
        String.format(Locale.ROOT, "%.2f%% at %.3f%% overhead", cpErr, cpOver),
        "Interrupt sampling's error at each period is in the data and the figure.");
    List<String> ratios = new ArrayList<>();
    coproc.forEach(
        (program, cp) -> {
          double needed = overheadAtError(sampling.getOrDefault(program, List.of()), cp[1]);
          ratios.add(
              String.format(
                  Locale.ROOT,
                  Double.isNaN(needed) ? "%s: not bracketed by the periods" : "%s %.0fx",
                  program,
                  needed / cp[0]));
        });
    o.compare(
        "interrupt sampling's overhead at the co-processor's error, over the co-processor's",
        "the co-processor is more accurate at lower overhead (Section 5.3; no numbers in the"
            + " text)",
        String.join(", ", ratios),
        "Interpolated between the two sampling periods whose errors bracket the"
            + " co-processor's, linearly in log overhead.");
    o.compare(
        "co-processor without random tagging",
        "(not in the paper)",
        String.format(Locale.ROOT, "%.2f%%", noRandom),
        "A full sample buffer admits"
            + " retirements at the co-processor's own period, which aliases with periodic"
            + " value patterns (spec/engine.md).");
    o.note(
        "Overhead counts interrupt cycles only (420 per sampler interrupt, 400 + 20 per"
            + " copied slot for the co-processor); cache pollution by the handlers is not"
            + " modelled.");
    return o;
  }

  /**
   * The overhead at which sampling reaches {@code error}: between the two points whose errors
   * bracket it, linear in log overhead (error falls about linearly in log rate). NaN if none do.
   */
  static double overheadAtError(List<double[]> points, double error) {
    List<double[]> ps = new ArrayList<>(points);
    ps.sort((a, b) -> Double.compare(a[0], b[0]));
    for (int i = 0; i + 1 < ps.size(); i++) {
      double[] lo = ps.get(i); // less overhead, more error
      double[] hi = ps.get(i + 1);
      if (lo[1] >= error && hi[1] <= error && lo[0] > 0 && hi[0] > 0) {
        double t = lo[1] == hi[1] ? 0 : (lo[1] - error) / (lo[1] - hi[1]);
        return Math.exp(Math.log(lo[0]) + t * (Math.log(hi[0]) - Math.log(lo[0])));
      }
    }
    return Double.NaN;
  }

  private static double mean(List<double[]> ps, int i) {
    return ps == null
        ? Double.NaN
        : ps.stream().mapToDouble(p -> p[i]).average().orElse(Double.NaN);
  }
}
