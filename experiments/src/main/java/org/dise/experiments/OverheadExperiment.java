package org.dise.experiments;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.dise.experiments.model.CycleModel;
import org.dise.runtime.dise.CostReport;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.timing.TimingConfig;
import org.dise.runtime.timing.TimingReport;
import org.dise.runtime.timing.TimingRun;

/**
 * The first paper's Fig. 9 and Section 5.2: hot code regions, hot methods and hot call pairs
 * sampled at 1/100 events as pure DISE (the check in inserted instructions on a DISE register: the
 * library's {@code dise_*} blocks) and as HPS (the check in the decode stage: the {@code sampled_*}
 * blocks), beside exhaustive profiling, per workload; cycles from {@link CycleModel}.
 */
public final class OverheadExperiment extends SplitExperiment {
  /** The three profile types: the library's block names and the paper's labels. */
  public enum Profile {
    REGIONS("hot_code_regions", "code regions"),
    METHODS("hot_methods", "methods"),
    PAIRS("hot_call_pairs", "call pairs");

    public final String block;
    public final String label;

    Profile(String block, String label) {
      this.block = block;
      this.label = label;
    }
  }

  /** How a profile is sampled. */
  public enum Variant {
    EXHAUSTIVE,
    DISE,
    HPS
  }

  /**
   * Fig. 9's averages over SPECint2000 (Section 5.2), DISE then HPS, drawn as the last group of
   * bars beside ours; the paper omits methods ("similar to call pairs").
   */
  static final Map<Profile, double[]> PAPER_AVERAGE =
      Map.of(Profile.REGIONS, new double[] {120, 24}, Profile.PAIRS, new double[] {18, 1.3});

  static final String PAPER_CATEGORY = "paper (SPECint avg.)";

  /**
   * Fig. 8 (SPECint2000): branches and calls per instruction, the mean over its 13 programs (Fig.
   * 9's averages are means over programs too; the totals, 9,543 M branches and 952 M calls in
   * 59,095 M instructions, give 16.1% and 1.61%).
   */
  static final double PAPER_REGION_DENSITY = 0.1793;

  static final double PAPER_PAIR_DENSITY = 0.01808;

  /** Fig. 9: "we use periodic sampling at a frequency of 1/100 events". */
  public static final int PERIOD = 100;

  /** The programs it runs under {@code --quick} and without (energy runs the same). */
  static final String QUICK_PROGRAMS = "phases:1:ABCD,callstack,arrays";

  static final String PROGRAMS = "jpeg,adpcm,motion,lz77,mcf,interp,chess,phases";

  private final CycleModel model;

  public OverheadExperiment() {
    this(CycleModel.paper());
  }

  public OverheadExperiment(CycleModel model) {
    super(
        new About(
            "overhead",
            "Nagpurkar et al., Efficient Remote Profiling, Fig. 9 and Section 5.2 (DISE vs HPS)",
            "Overhead of hot code region, hot method and hot call pair profiling sampled at"
                + " 1/100 events, with the sampling check in inserted instructions on a DISE register"
                + " (pure DISE) and in the decode stage (HPS), beside exhaustive profiling.",
            QUICK_PROGRAMS,
            PROGRAMS));
    this.model = model;
  }

  /** One profiled run's counts: its cost, its profile's entries, the DISE check's mispredicts. */
  public record Measured(
      Workload workload,
      Profile profile,
      Variant variant,
      CostReport cost,
      long entries,
      long mispredicts,
      Timed timing) {}

  /**
   * A run's figures under a timing model (spec/timing.md): its configuration, the values of {@link
   * #TIMING_COLUMNS} and its overhead in percent; null in {@link Measured} under the analytic
   * model.
   */
  public record Timed(
      TimingConfig config,
      List<Object> row,
      double overheadPct,
      TimingReport application,
      TimingReport profiled) {}

  /** The ACF of one profile type and variant. */
  public static String acf(Profile p, Variant v) {
    return "import profiles;\n"
        + switch (v) {
          case EXHAUSTIVE -> "use " + p.block + ";\n";
          case DISE -> "use dise_" + p.block + "(period = " + PERIOD + ");\n";
          case HPS -> "use sampled_" + p.block + "(period = " + PERIOD + ");\n";
        };
  }

  /** Every program under every profile type and variant: one run each, its ACF in the spec. */
  @Override
  public List<RunSpec> plan(Lab lab) {
    return plan(lab, lab.timingSettings());
  }

  /** {@link #plan(Lab)} under the cycle model of {@code timing} ({@link Lab#timingSettings}). */
  public List<RunSpec> plan(Lab lab, Map<String, String> timing) {
    List<RunSpec> out = new ArrayList<>();
    for (Workload w : lab.workloads()) {
      for (Profile p : Profile.values()) {
        for (Variant v : Variant.values()) {
          Map<String, String> settings = new TreeMap<>(timing);
          settings.putAll(Map.of("profile", p.name(), "variant", v.name(), "acf", acf(p, v)));
          out.add(
              lab.spec(
                  "overhead.run",
                  w,
                  settings,
                  String.format(
                      Locale.ROOT,
                      "overhead: %-10s %-12s %s",
                      w.label(),
                      p.label,
                      v.name().toLowerCase(Locale.ROOT))));
        }
      }
    }
    return out;
  }

  /**
   * One program under one profile type and variant: its cost and its profile's size, and under a
   * timing model (the specification's, not this process's) the model's figures.
   */
  @Override
  public JsonNode execute(Lab lab, RunSpec spec) {
    Profile p = Profile.valueOf(spec.setting("profile"));
    Variant v = Variant.valueOf(spec.setting("variant"));
    ProductionSet set =
        lab.compile(
            p.block + "_" + v.name().toLowerCase(Locale.ROOT) + ".acf", spec.setting("acf"));
    TimingConfig config = Lab.timingConfig(spec);
    TimingRun timed = config == null ? null : new TimingRun(config);
    Lab.Run r = lab.run(lab.workload(spec), set, timed);
    ObjectNode n = Results.MAPPER.createObjectNode();
    n.set("cost", Results.MAPPER.valueToTree(r.cost()));
    n.put("entries", r.entries());
    // The DISE check's branch (bgtz .skip) is taken on all but the sampled event: a 2-bit
    // predictor mispredicts once per sampled event.
    n.put("mispredicts", v == Variant.DISE ? r.cost().handlerCalls() : 0);
    if (timed != null) {
      ObjectNode tn = n.putObject("timing");
      List<Object> row = timingRow(timed);
      for (int i = 0; i < TIMING_COLUMNS.size(); i++) {
        Object x = row.get(i);
        if (x instanceof Long l) {
          tn.put(TIMING_COLUMNS.get(i), l);
        } else if (x instanceof Double d) {
          tn.put(TIMING_COLUMNS.get(i), d);
        } else {
          tn.put(TIMING_COLUMNS.get(i), String.valueOf(x));
        }
      }
      tn.set("application", events(timed.application()));
      tn.set("profiled", events(timed.profiled()));
    }
    return n;
  }

  /** The runs' results read back, in the plan's order. */
  static List<Measured> measured(Lab lab, List<RunSpec> plan, List<JsonNode> results) {
    List<Measured> out = new ArrayList<>();
    for (int i = 0; i < plan.size(); i++) {
      RunSpec s = plan.get(i);
      JsonNode n = results.get(i);
      CostReport cost = Results.read(n.path("cost"), CostReport.class, "an overhead run's result");
      out.add(
          new Measured(
              lab.workload(s),
              Profile.valueOf(s.setting("profile")),
              Variant.valueOf(s.setting("variant")),
              cost,
              n.path("entries").asLong(),
              n.path("mispredicts").asLong(),
              timed(s, n.path("timing"))));
    }
    return out;
  }

  /** A result's timing figures read back (null: the run was not timed). */
  private static Timed timed(RunSpec s, JsonNode t) {
    TimingConfig config = Lab.timingConfig(s);
    if (config == null) {
      return null;
    }
    if (t.isMissingNode()) {
      throw new ExperimentException(
          "run " + s.label().strip() + ": its result has no timing figures");
    }
    List<Object> row = new ArrayList<>();
    for (String c : TIMING_COLUMNS) {
      JsonNode x = t.path(c);
      // The types timingRow gives, so that a result read from a file prints as one run here.
      row.add(
          c.equals("timing_model")
              ? x.asText()
              : c.startsWith("cycles_") ? (Object) x.asLong() : (Object) x.asDouble());
    }
    return new Timed(
        config,
        row,
        t.path("timing_overhead_pct").asDouble(),
        report(config.model(), t.path("application")),
        report(config.model(), t.path("profiled")));
  }

  /** A core's counts as a result's JSON (the members of {@link TimingReport#jsonMembers}). */
  static JsonNode events(TimingReport r) {
    try {
      return Results.MAPPER.readTree("{" + r.jsonMembers() + "}");
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A core's counts read back from {@link #events} (null: a result from before they were kept). */
  static TimingReport report(String model, JsonNode n) {
    if (n.isMissingNode()) {
      return null;
    }
    return new TimingReport(
        model,
        n.path("cycles").asLong(),
        new long[] {
          n.path("cycles_application").asLong(),
          n.path("cycles_inserted").asLong(),
          n.path("cycles_handler").asLong(),
          n.path("cycles_stall").asLong()
        },
        n.path("application_instructions").asLong(),
        n.path("inserted_instructions").asLong(),
        n.path("handler_calls").asLong(),
        n.path("l1i_accesses").asLong(),
        n.path("l1i_misses").asLong(),
        n.path("l1d_accesses").asLong(),
        n.path("l1d_misses").asLong(),
        n.path("l2_accesses").asLong(),
        n.path("l2_misses").asLong(),
        n.path("branches").asLong(),
        n.path("mispredictions").asLong(),
        n.path("loads").asLong(),
        n.path("stores").asLong(),
        n.path("fp").asLong(),
        n.path("l1d_read_misses").asLong(),
        n.path("l1d_write_misses").asLong(),
        n.path("bubble_cycles").asLong(),
        n.path("handler_code_instructions").asLong());
  }

  /** Every program under every profile type and variant, run here (the tests' view of the runs). */
  public static List<Measured> measure(Lab lab) {
    OverheadExperiment e = new OverheadExperiment();
    List<RunSpec> plan = e.plan(lab);
    return measured(lab, plan, plan.stream().map(s -> e.execute(lab, s)).toList());
  }

  @Override
  public Outcome collect(Lab lab, List<JsonNode> results) {
    List<Measured> runs = measured(lab, plan(lab), results);
    boolean timed = !runs.isEmpty() && runs.get(0).timing() != null;
    List<String> columns =
        new ArrayList<>(
            List.of(
                "program",
                "profile",
                "variant",
                "period",
                "application_instructions",
                "replacements",
                "inserted_instructions",
                "handler_calls",
                "profile_entries",
                "stall_cycles",
                "inserted_cycles",
                "flush_cycles",
                "handler_cycles",
                "handler_miss_cycles",
                "overhead_pct",
                "overhead_pct_cpi_0.5"));
    if (timed) {
      columns.addAll(TIMING_COLUMNS);
    }
    Table t = new Table(columns.toArray(new String[0]));
    Map<String, List<Double>> analytic = new LinkedHashMap<>();
    Map<String, List<Double>> byKey = new LinkedHashMap<>();
    Map<String, List<Double>> byKeyHalf = new LinkedHashMap<>();
    Map<Profile, List<Double>> density = new LinkedHashMap<>(); // events per instruction
    CycleModel half = model.withBaseCpi(0.5);
    for (Measured m : runs) {
      CycleModel.Cycles c = model.cycles(m.cost(), m.mispredicts(), m.entries());
      double halfOverhead = half.cycles(m.cost(), m.mispredicts(), m.entries()).overhead();
      List<Object> row = new ArrayList<>();
      java.util.Collections.addAll(
          row,
          m.workload().label(),
          m.profile().label,
          m.variant().name().toLowerCase(Locale.ROOT),
          m.variant() == Variant.EXHAUSTIVE ? 1 : PERIOD,
          m.cost().applicationInstructions(),
          m.cost().replacements(),
          m.cost().insertedInstructions(),
          m.cost().handlerCalls(),
          m.entries(),
          c.stalls(),
          c.inserted(),
          c.flushes(),
          c.handlers(),
          c.handlerMisses(),
          100 * c.overhead(),
          100 * halfOverhead);
      double overhead = 100 * c.overhead();
      if (timed) {
        row.addAll(m.timing().row());
        overhead = m.timing().overheadPct();
      }
      t.add(row.toArray());
      analytic
          .computeIfAbsent(m.profile() + "/" + m.variant(), k -> new ArrayList<>())
          .add(100 * c.overhead());
      byKey.computeIfAbsent(m.profile() + "/" + m.variant(), k -> new ArrayList<>()).add(overhead);
      if (m.variant() == Variant.EXHAUSTIVE) {
        density
            .computeIfAbsent(m.profile(), k -> new ArrayList<>())
            .add(
                (double) m.cost().replacements() / Math.max(1, m.cost().applicationInstructions()));
      }
      byKeyHalf
          .computeIfAbsent(m.profile() + "/" + m.variant(), k -> new ArrayList<>())
          .add(100 * halfOverhead);
    }
    Outcome o = new Outcome(t);
    o.model("cycle_model", model);
    if (timed) {
      o.settings("timing", runs.get(0).timing().config().values());
      o.setting("cost_model", runs.get(0).timing().config().model());
    } else {
      o.setting("cost_model", "analytic");
    }
    for (Profile p : Profile.values()) {
      List<String> programs =
          new ArrayList<>(lab.workloads().stream().map(Workload::label).toList());
      programs.add("average");
      double[] paper = PAPER_AVERAGE.get(p);
      if (paper != null) {
        programs.add(PAPER_CATEGORY);
      }
      List<Figure.Series> series = new ArrayList<>();
      for (Variant v : List.of(Variant.DISE, Variant.HPS)) {
        List<Double> ys = new ArrayList<>(byKey.get(p + "/" + v));
        ys.add(mean(ys));
        if (paper != null) {
          ys.add(paper[v == Variant.DISE ? 0 : 1]);
        }
        series.add(
            new Figure.Series(
                v == Variant.DISE
                    ? "DISE (check in inserted instructions)"
                    : "HPS (check in decode)",
                List.of(),
                ys));
      }
      o.figure(
          Figure.bars(
              p.name().toLowerCase(Locale.ROOT),
              "Overhead of sampled "
                  + p.label
                  + " profiling at 1/"
                  + PERIOD
                  + " events"
                  + (paper != null ? " (Fig. 9)" : " (not in Fig. 9: \"similar to call pairs\")"),
              "overhead, % of execution cycles",
              programs,
              series));
    }
    double dr = mean(byKey.get("REGIONS/DISE"));
    double hr = mean(byKey.get("REGIONS/HPS"));
    double dp = mean(byKey.get("PAIRS/DISE"));
    double hp = mean(byKey.get("PAIRS/HPS"));
    double dm = mean(byKey.get("METHODS/DISE"));
    double hm = mean(byKey.get("METHODS/HPS"));
    String cpiNote =
        "The paper's 4-way superscalar runs the application at under one cycle per"
            + " instruction, so the same extra cycles are a larger share of its time: at base CPI"
            + " 0.5 ours read %s (column overhead_pct_cpi_0.5).";
    o.compare(
        "code regions, DISE sampling overhead (average)",
        "120%",
        pct(dr),
        String.format(Locale.ROOT, cpiNote, pct(mean(byKeyHalf.get("REGIONS/DISE")))));
    o.compare(
        "code regions, HPS sampling overhead (average)",
        "24% (23% in the caption)",
        pct(hr),
        String.format(Locale.ROOT, cpiNote, pct(mean(byKeyHalf.get("REGIONS/HPS"))))
            + " The HPS overhead is the handler alone; ours costs 40 cycles a call plus its"
            + " table's cache misses.");
    o.compare(
        "call pairs, DISE sampling overhead (average)",
        "18%",
        pct(dp),
        String.format(Locale.ROOT, cpiNote, pct(mean(byKeyHalf.get("PAIRS/DISE")))));
    o.compare(
        "call pairs, HPS sampling overhead (average)",
        "1.3%",
        pct(hp),
        String.format(Locale.ROOT, cpiNote, pct(mean(byKeyHalf.get("PAIRS/HPS")))));
    o.compare(
        "methods, DISE vs HPS",
        "\"similar to call pairs\"",
        pct(dm) + " vs " + pct(hm),
        "Methods also count backward branches, so they have more" + " events than call pairs.");
    String analyticRatio =
        String.format(
            Locale.ROOT,
            "%.1fx / %.1fx",
            mean(analytic.get("REGIONS/DISE")) / mean(analytic.get("REGIONS/HPS")),
            mean(analytic.get("PAIRS/DISE")) / mean(analytic.get("PAIRS/HPS")));
    o.compare(
        "DISE:HPS ratio, code regions / call pairs",
        "5.0x / 13.8x",
        String.format(Locale.ROOT, "%.1fx / %.1fx", dr / hr, dp / hp),
        timed
            ? "Measured by the "
                + runs.get(0).timing().config().model()
                + " timing model (spec/timing.md); the analytic model's is "
                + analyticRatio
                + " for every program and profile type, since its costs per event are"
                + " constants. Per program in the next rows."
            : "The ratio is set by the cost of an unsampled event (stall + 2 inserted"
                + " instructions) against a sampled event's handler; our handlers' costs differ"
                + " by profile type only through their tables' cache misses.");
    if (timed) {
      for (Profile p : Profile.values()) {
        List<String> perProgram = new ArrayList<>();
        List<Double> d = byKey.get(p + "/" + Variant.DISE);
        List<Double> h = byKey.get(p + "/" + Variant.HPS);
        for (int i = 0; i < lab.workloads().size(); i++) {
          perProgram.add(
              String.format(
                  Locale.ROOT,
                  "%s %.1fx",
                  lab.workloads().get(i).label(),
                  h.get(i) == 0 ? Double.NaN : d.get(i) / h.get(i)));
        }
        o.compare(
            "DISE:HPS ratio per program, " + p.label,
            p == Profile.REGIONS ? "5.0x (average)" : p == Profile.PAIRS ? "13.8x (average)" : "",
            String.join(", ", perProgram),
            "Analytic model: "
                + String.format(
                    Locale.ROOT,
                    "%.1fx",
                    mean(analytic.get(p + "/" + Variant.DISE))
                        / mean(analytic.get(p + "/" + Variant.HPS)))
                + " for every program.");
      }
    }
    // Where the gap comes from: events per instruction (Fig. 8 gives the paper's) against cycles
    // per event (the paper's implied by its overheads over its event densities, at CPI 1).
    double regionDensity = mean(density.get(Profile.REGIONS));
    double pairDensity = mean(density.get(Profile.PAIRS));
    o.compare(
        "events per instruction, code regions / call pairs",
        "17.9% / 1.81% (Fig. 8, mean over its programs; 16.1% / 1.61% of all instructions)",
        String.format(Locale.ROOT, "%.1f%% / %.2f%%", 100 * regionDensity, 100 * pairDensity),
        "Code regions have about the paper's event density, so their overhead gap is the cost"
            + " per event (next row).");
    o.compare(
        "cycles per event under DISE, code regions / call pairs",
        String.format(
            Locale.ROOT,
            "%.1f / %.1f (implied: overhead / events per instruction, at CPI 1)",
            1.20 / PAPER_REGION_DENSITY,
            0.18 / PAPER_PAIR_DENSITY),
        String.format(Locale.ROOT, "%.1f / %.1f", dr / 100 / regionDensity, dp / 100 / pairDensity),
        "Ours: 1 stall + 2 inserted instructions per event, plus the sampled event's handler,"
            + " reset and flush over "
            + PERIOD
            + " events.");
    o.compare(
        "cycles per sampled event under HPS, code regions / call pairs",
        String.format(
            Locale.ROOT,
            "%.0f / %.0f (implied, at CPI 1)",
            0.24 / PAPER_REGION_DENSITY * PERIOD,
            0.013 / PAPER_PAIR_DENSITY * PERIOD),
        String.format(
            Locale.ROOT,
            "%.0f / %.0f",
            hr / 100 / regionDensity * PERIOD,
            hp / 100 / pairDensity * PERIOD),
        "The paper's handlers are compiled C over a hash table, with memory traffic and cache"
            + " pollution we do not model (spec/cost-model.md, Not modelled); ours cost 40 cycles"
            + " and a stall, plus table misses.");
    o.note("Cost model (spec/cost-model.md): " + model.describe());
    if (timed) {
      o.note(
          "Cycles measured by the "
              + runs.get(0).timing().config().model()
              + " timing model (spec/timing.md): the figures and timing_overhead_pct are its"
              + " overhead (profiled cycles over the application's own, from a second core fed"
              + " only the application's instructions); overhead_pct is the analytic model's, for"
              + " comparison. Handler cycles are the sink's cost plus the misses of a modelled"
              + " handler's code and table entry, not yet the handler's own instructions.");
    }
    o.note(
        "Exhaustive profiling replaces every event with the handler call, in DISE and HPS"
            + " alike; its rows are in the data.");
    return o;
  }

  /**
   * The timing model's columns (with --timing): spec/timing.md, "Reports"; {@code acf sweep
   * --timing} ends its rows in a part of them.
   */
  public static final List<String> TIMING_COLUMNS =
      List.of(
          "timing_model",
          "cycles_alone",
          "cycles_profiled",
          "cpi_alone",
          "cpi_profiled",
          "cycles_application",
          "cycles_inserted",
          "cycles_handler",
          "cycles_stall",
          "l1i_mpki",
          "l1d_mpki",
          "l2_mpki",
          "branch_mpki",
          "branch_mpki_alone",
          "timing_overhead_pct");

  /** A timed run's {@link #TIMING_COLUMNS}: the model's name, then figures (Long or Double). */
  public static List<Object> timingRow(TimingRun t) {
    TimingReport a = t.application();
    TimingReport p = t.profiled();
    return List.of(
        t.config().model(),
        a.cycles(),
        p.cycles(),
        a.cpi(),
        p.cpi(),
        p.applicationCycles(),
        p.insertedCycles(),
        p.handlerCycles(),
        p.stallCycles(),
        p.perKilo(p.l1iMisses()),
        p.perKilo(p.l1dMisses()),
        p.perKilo(p.l2Misses()),
        p.perKilo(p.mispredictions()),
        a.perKilo(a.mispredictions()),
        100 * t.overhead());
  }

  static double mean(List<Double> xs) {
    return xs == null || xs.isEmpty()
        ? Double.NaN
        : xs.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
  }

  static String pct(double v) {
    return String.format(Locale.ROOT, v < 10 ? "%.2f%%" : "%.1f%%", v);
  }
}
