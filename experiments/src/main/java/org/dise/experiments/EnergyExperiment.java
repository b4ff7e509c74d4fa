package org.dise.experiments;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.dise.experiments.model.CycleModel;
import org.dise.experiments.model.EnergyModel;
import org.dise.experiments.model.InstructionMix;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.timing.EventEnergy;
import org.dise.runtime.timing.TimingConfig;
import org.dise.runtime.timing.TimingReport;

/**
 * The first paper's StrongARM energy model (Section 5.4, Fig. 14(b)) applied to the runs of {@link
 * OverheadExperiment}: the application's energy from its instruction mix, and the energy profiling
 * adds (stalls, inserted instructions, handler cycles and misses, and sending the profile once at
 * the end).
 */
public final class EnergyExperiment extends SplitExperiment {
  /** Bytes per profile entry sent at the end: an 8-byte key and an 8-byte count, uncompressed. */
  public static final int BYTES_PER_ENTRY = 16;

  private final EnergyModel energy = EnergyModel.strongArm();
  private final CycleModel cycles = CycleModel.paper();

  public EnergyExperiment() {
    super(
        new About(
            "energy",
            "Nagpurkar et al., Efficient Remote Profiling, Fig. 14 (StrongARM energy model)",
            "Energy of each workload on the paper's StrongARM handheld, and the energy that"
                + " sampled (DISE and HPS) and exhaustive profiling add, per profile type.",
            OverheadExperiment.QUICK_PROGRAMS,
            OverheadExperiment.PROGRAMS));
  }

  /** The application's instruction mix, from a run that counts classes in HPS counters. */
  public static InstructionMix mix(Lab lab, Workload w, ProductionSet set) {
    Lab.Run r = lab.run(w, set);
    return new InstructionMix(
        r.cost().applicationInstructions(),
        r.engine().hps().value(4),
        r.engine().hps().value(5),
        r.engine().hps().value(6),
        r.engine().hps().value(7));
  }

  /**
   * Fig. 14(a): the six MediaBench runs' energy (J) and instructions (millions), measured on the
   * device: gsmdecode, gsmencode, jpegdecode, jpegencode, mpegdecode, mpegencode.
   */
  static final double[][] PAPER_RUNS = {
    {29.93, 1610.05}, {29.38, 2562.29}, {46.50, 1421.33},
    {100.65, 4218.60}, {65.03, 3007.85}, {52.63, 4196.19}
  };

  /** The paper's energy per instruction: the range over its runs, and its average row's. */
  static String paperEnergyPerInstruction() {
    double lo = Double.MAX_VALUE;
    double hi = 0;
    for (double[] r : PAPER_RUNS) {
      lo = Math.min(lo, r[0] / r[1] * 1e3);
      hi = Math.max(hi, r[0] / r[1] * 1e3);
    }
    return String.format(
        Locale.ROOT,
        "%.1f-%.1f nJ (Fig. 14(a), gsmencode to jpegdecode; its average row, 54.02 J over"
            + " 2,836 M instructions, is %.1f nJ)",
        lo,
        hi,
        54.02 / 2836.05 * 1e3);
  }

  /** Our energy per instruction for the integer programs and for those dominated by FP. */
  private String byGroup(Lab lab, Map<Workload, InstructionMix> mixes) {
    List<String> parts = new ArrayList<>();
    for (boolean fp : List.of(false, true)) {
      double lo = Double.MAX_VALUE;
      double hi = 0;
      int n = 0;
      for (Workload w : lab.workloads()) {
        InstructionMix m = mixes.get(w);
        if ((fpShare(m) > 0.5) == fp) {
          double v = energy.application(m) / m.total() * 1e9;
          lo = Math.min(lo, v);
          hi = Math.max(hi, v);
          n++;
        }
      }
      if (n > 0) {
        parts.add(
            String.format(
                Locale.ROOT,
                "%s %.1f-%.1f nJ (%d)",
                fp ? "FP-dominated programs" : "integer programs",
                lo,
                hi,
                n));
      }
    }
    return " (" + String.join("; ", parts) + ")";
  }

  /** The share of the application's energy spent in floating-point instructions. */
  double fpShare(InstructionMix m) {
    double app = energy.application(m);
    return app == 0 ? 0 : m.fp() * energy.fpJ() / app;
  }

  /**
   * The timing model the energy comes from: the lab's if it is {@code inorder} (the paper's
   * StrongARM handheld), {@code inorder}'s defaults under any other timing model, null under the
   * analytic model (then the instruction mix and a fixed miss rate price the runs).
   */
  static TimingConfig energyTiming(Lab lab) {
    TimingConfig t = lab.timing();
    if (t == null) {
      return null;
    }
    return t.model().equals("inorder") ? t : TimingConfig.defaults("inorder");
  }

  /**
   * Under a timing model, {@link OverheadExperiment}'s runs on {@code inorder}, whose application
   * core counts the instruction mix itself; under the analytic model, a mix run per program, then
   * {@link OverheadExperiment}'s runs (the same: shared).
   */
  @Override
  public List<RunSpec> plan(Lab lab) {
    TimingConfig timed = energyTiming(lab);
    if (timed != null) {
      return new OverheadExperiment(cycles).plan(lab, Lab.timingSettings(timed));
    }
    List<RunSpec> out = new ArrayList<>();
    for (Workload w : lab.workloads()) {
      out.add(
          lab.spec(
              "energy.mix",
              w,
              Map.of("acf", InstructionMix.ACF),
              String.format(Locale.ROOT, "energy: %-10s instruction mix", w.label())));
    }
    out.addAll(new OverheadExperiment(cycles).plan(lab));
    return out;
  }

  /** A mix run: the application's instruction mix. */
  @Override
  public JsonNode execute(Lab lab, RunSpec spec) {
    InstructionMix m = mix(lab, lab.workload(spec), lab.compile("mix.acf", spec.setting("acf")));
    ObjectNode n = Results.MAPPER.createObjectNode();
    n.put("total", m.total());
    n.put("loads", m.loads());
    n.put("stores", m.stores());
    n.put("fp", m.fp());
    n.put("branches", m.branches());
    return n;
  }

  @Override
  public Outcome collect(Lab lab, List<JsonNode> results) {
    TimingConfig timed = energyTiming(lab);
    if (timed != null) {
      return collectTimed(lab, timed, results);
    }
    Map<Workload, InstructionMix> mixes = new LinkedHashMap<>();
    int n = lab.workloads().size();
    for (int i = 0; i < n; i++) {
      JsonNode m = results.get(i);
      mixes.put(
          lab.workloads().get(i),
          new InstructionMix(
              m.path("total").asLong(),
              m.path("loads").asLong(),
              m.path("stores").asLong(),
              m.path("fp").asLong(),
              m.path("branches").asLong()));
    }
    List<RunSpec> plan = plan(lab);
    List<OverheadExperiment.Measured> runs =
        OverheadExperiment.measured(
            lab, plan.subList(n, plan.size()), results.subList(n, results.size()));
    Table t =
        table(
            "application_joules",
            "nj_per_instruction",
            "profiling_joules",
            "bytes_sent",
            "transmit_joules",
            "energy_overhead_pct",
            "fp_energy_pct");
    Map<String, List<Double>> byKey = new LinkedHashMap<>();
    List<Double> njPerInsn = new ArrayList<>();
    List<String> fpHeavy = new ArrayList<>();
    for (Workload w : lab.workloads()) {
      InstructionMix m = mixes.get(w);
      njPerInsn.add(energy.application(m) / m.total() * 1e9);
      if (fpShare(m) > 0.5) {
        fpHeavy.add(
            String.format(
                Locale.ROOT,
                "%s (%.1f%% of its instructions, %.0f%% of its energy)",
                w.label(),
                100.0 * m.fp() / m.total(),
                100 * fpShare(m)));
      }
    }
    for (OverheadExperiment.Measured r : runs) {
      InstructionMix m = mixes.get(r.workload());
      double app = energy.application(m);
      CycleModel.Cycles c = cycles.cycles(r.cost(), r.mispredicts(), r.entries());
      long bytes = r.entries() * BYTES_PER_ENTRY;
      double prof = energy.profiling(c, bytes, 0);
      t.add(
          row(
              r,
              m.total(),
              m.loads(),
              m.stores(),
              m.fp(),
              app,
              app / m.total() * 1e9,
              prof,
              bytes,
              bytes * energy.byteJ(),
              100 * prof / app,
              100 * fpShare(m)));
      byKey
          .computeIfAbsent(r.profile() + "/" + r.variant(), k -> new ArrayList<>())
          .add(100 * prof / app);
    }
    Outcome o = new Outcome(t);
    o.model("cycle_model", cycles);
    o.model("energy_model", energy);
    o.setting("bytes_per_entry", BYTES_PER_ENTRY);
    o.figure(overheadFigure(lab, "StrongARM model", byKey));
    double nj = OverheadExperiment.mean(njPerInsn);
    o.compare(
        "application energy per instruction (average)",
        paperEnergyPerInstruction(),
        String.format(Locale.ROOT, "%.2f nJ", nj) + byGroup(lab, mixes),
        "Fig. 14(a)'s totals include effects outside Fig. 14(b)'s per-instruction table (the"
            + " display, the OS, idle time: the average run draws 54 J in 215 s); our model"
            + " prices instructions only. Floating point, emulated in software on the"
            + " StrongARM at 2.2 uJ an instruction, dominates where a program has any: "
            + (fpHeavy.isEmpty() ? "none of ours does" : String.join(", ", fpHeavy))
            + " (column fp_energy_pct).");
    o.compare(
        "HPS vs DISE energy for code regions (average added energy)",
        "not published per profile type (Fig. 15(b) gives sampling strategies)",
        OverheadExperiment.pct(OverheadExperiment.mean(byKey.get("REGIONS/DISE")))
            + " vs "
            + OverheadExperiment.pct(OverheadExperiment.mean(byKey.get("REGIONS/HPS"))),
        "Energy follows cycles on a single-issue core, so the DISE:HPS ratio is that of Fig. 9.");
    o.note("Energy model (spec/cost-model.md), per event: " + energy.describe());
    o.note(
        "The profile is sent once at the end (the paper's \"At End\"), "
            + BYTES_PER_ENTRY
            + " bytes per entry, uncompressed.");
    return o;
  }

  /**
   * Energy from the {@code inorder} model's measured events (spec/timing.md, "Energy"): each run's
   * application core gives the application's energy, the profiled core's the energy with profiling;
   * the analytic model's figure (instruction mix from the same counts, 0.2% misses) is kept beside.
   */
  private Outcome collectTimed(Lab lab, TimingConfig config, List<JsonNode> results) {
    EventEnergy e = EventEnergy.of(config);
    List<OverheadExperiment.Measured> runs = OverheadExperiment.measured(lab, plan(lab), results);
    Table t =
        table(
            "l1i_misses",
            "l1d_read_misses",
            "l1d_write_misses",
            "bubble_cycles",
            "application_joules",
            "nj_per_instruction",
            "profiled_instructions",
            "profiled_l1i_misses",
            "profiled_l1d_read_misses",
            "profiled_l1d_write_misses",
            "profiling_joules",
            "bytes_sent",
            "transmit_joules",
            "energy_overhead_pct",
            "fp_energy_pct",
            "analytic_energy_overhead_pct");
    Map<String, List<Double>> byKey = new LinkedHashMap<>();
    Map<String, List<Double>> analyticByKey = new LinkedHashMap<>();
    Map<Workload, TimingReport> alone = new LinkedHashMap<>();
    for (OverheadExperiment.Measured r : runs) {
      if (r.timing() == null || r.timing().application() == null) {
        throw new ExperimentException(
            "energy: the result of "
                + r.workload().label()
                + " has no timing events (a result from before energy was measured; run it"
                + " again)");
      }
      TimingReport a = r.timing().application();
      TimingReport p = r.timing().profiled();
      alone.putIfAbsent(r.workload(), a);
      EventEnergy.Breakdown ab = e.of(a);
      long bytes = r.entries() * BYTES_PER_ENTRY;
      double prof = e.profiling(a, p, bytes);
      InstructionMix mix =
          new InstructionMix(a.applicationInstructions(), a.loads(), a.stores(), a.fp(), 0);
      double analytic =
          100
              * energy.profiling(cycles.cycles(r.cost(), r.mispredicts(), r.entries()), bytes, 0)
              / energy.application(mix);
      t.add(
          row(
              r,
              a.applicationInstructions(),
              a.loads(),
              a.stores(),
              a.fp(),
              a.l1iMisses(),
              a.l1dReadMisses(),
              a.l1dWriteMisses(),
              a.bubbleCycles(),
              ab.total(),
              ab.total() / Math.max(1, a.applicationInstructions()) * 1e9,
              p.instructions(),
              p.l1iMisses(),
              p.l1dReadMisses(),
              p.l1dWriteMisses(),
              prof,
              bytes,
              e.transmit(bytes),
              100 * prof / ab.total(),
              100 * ab.fpShare(),
              analytic));
      String key = r.profile() + "/" + r.variant();
      byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(100 * prof / ab.total());
      analyticByKey.computeIfAbsent(key, k -> new ArrayList<>()).add(analytic);
    }
    Outcome o = new Outcome(t);
    o.settings("timing", config.values());
    o.setting("cost_model", config.model());
    o.setting("bytes_per_entry", BYTES_PER_ENTRY);
    o.figure(
        overheadFigure(
            lab, "inorder (StrongARM SA-1110) timing model, from its measured events", byKey));
    List<Double> nj = new ArrayList<>();
    List<String> missRates = new ArrayList<>();
    List<String> fpHeavy = new ArrayList<>();
    for (Map.Entry<Workload, TimingReport> w : alone.entrySet()) {
      TimingReport a = w.getValue();
      EventEnergy.Breakdown b = e.of(a);
      nj.add(b.total() / Math.max(1, a.applicationInstructions()) * 1e9);
      long memOps = Math.max(1, a.loads() + a.stores());
      missRates.add(
          String.format(
              Locale.ROOT,
              "%s %.2f%%",
              w.getKey().label(),
              100.0 * (a.l1dReadMisses() + a.l1dWriteMisses()) / memOps));
      if (b.fpShare() > 0.5) {
        fpHeavy.add(
            String.format(
                Locale.ROOT, "%s (%.0f%% of its energy)", w.getKey().label(), 100 * b.fpShare()));
      }
    }
    o.compare(
        "application energy per instruction (average)",
        paperEnergyPerInstruction(),
        String.format(Locale.ROOT, "%.2f nJ", OverheadExperiment.mean(nj)),
        "Fig. 14(a)'s totals include the display, the OS and idle time; the model prices the"
            + " measured events only. Floating point is emulated in software on the StrongARM:"
            + " "
            + (fpHeavy.isEmpty()
                ? "no program here is dominated by it"
                : String.join(", ", fpHeavy))
            + ".");
    o.compare(
        "L1 D miss rate of loads and stores (measured, 8 KB 32-way)",
        "0.2% (the analytic model's fixed rate, Fig. 14(a)'s average)",
        String.join(", ", missRates),
        "Measured by the inorder model's L1 D; each miss is priced as IMEM-R or IMEM-W.");
    for (OverheadExperiment.Profile p : OverheadExperiment.Profile.values()) {
      String d = p + "/" + OverheadExperiment.Variant.DISE;
      String h = p + "/" + OverheadExperiment.Variant.HPS;
      o.compare(
          p.label + ", energy added by DISE / HPS sampling (average)",
          "not published per profile type",
          OverheadExperiment.pct(OverheadExperiment.mean(byKey.get(d)))
              + " / "
              + OverheadExperiment.pct(OverheadExperiment.mean(byKey.get(h))),
          "Analytic model: "
              + OverheadExperiment.pct(OverheadExperiment.mean(analyticByKey.get(d)))
              + " / "
              + OverheadExperiment.pct(OverheadExperiment.mean(analyticByKey.get(h)))
              + " (column analytic_energy_overhead_pct).");
    }
    o.note(
        "Energy from the inorder timing model's events (spec/timing.md, \"Energy\"): IREG "
            + config.string("energy.ireg_nj")
            + " nJ per instruction and bubble cycle, IMEM-R "
            + config.string("energy.imem_r_nj")
            + " nJ per L1 read miss (loads and fetches), IMEM-W "
            + config.string("energy.imem_w_nj")
            + " nJ per L1 D write miss, FPREG "
            + config.string("energy.fp_nj")
            + " nJ per FP instruction, "
            + config.string("energy.byte_nj")
            + " nJ per byte sent.");
    o.note(
        "The profile is sent once at the end (the paper's \"At End\"), "
            + BYTES_PER_ENTRY
            + " bytes per entry, uncompressed.");
    return o;
  }

  /** The columns both tables begin with: the run, then its application's instruction mix. */
  private static final List<String> RUN_COLUMNS =
      List.of("program", "profile", "variant", "application_instructions", "loads", "stores", "fp");

  /** A table of runs: {@link #RUN_COLUMNS}, then {@code more}. */
  private static Table table(String... more) {
    return new Table(Stream.concat(RUN_COLUMNS.stream(), Stream.of(more)).toArray(String[]::new));
  }

  /** A row of {@link #table}: the run {@code r} and its mix, then {@code more} values. */
  private static Object[] row(
      OverheadExperiment.Measured r,
      long instructions,
      long loads,
      long stores,
      long fp,
      Object... more) {
    Stream<Object> run =
        Stream.of(
            r.workload().label(),
            r.profile().label,
            r.variant().name().toLowerCase(Locale.ROOT),
            instructions,
            loads,
            stores,
            fp);
    return Stream.concat(run, Stream.of(more)).toArray();
  }

  /**
   * The energy sampled profiling adds on {@code model}, per program (then their average) and
   * sampled variant, from {@code byKey} ("PROFILE/VARIANT").
   */
  private static Figure overheadFigure(Lab lab, String model, Map<String, List<Double>> byKey) {
    List<String> programs = new ArrayList<>(lab.workloads().stream().map(Workload::label).toList());
    programs.add("average");
    return Figure.bars(
        "energy",
        "Energy added by sampled profiling on the "
            + model
            + " (1/100 events, profile sent once at the end)",
        "energy overhead, %",
        programs,
        sampledSeries(byKey));
  }

  /**
   * One bar series per profile type and sampled variant (DISE, HPS): each program's energy overhead
   * from {@code byKey} ("PROFILE/VARIANT"), then their mean.
   */
  private static List<Figure.Series> sampledSeries(Map<String, List<Double>> byKey) {
    List<Figure.Series> series = new ArrayList<>();
    for (OverheadExperiment.Profile p : OverheadExperiment.Profile.values()) {
      for (OverheadExperiment.Variant v :
          List.of(OverheadExperiment.Variant.DISE, OverheadExperiment.Variant.HPS)) {
        List<Double> ys = new ArrayList<>(byKey.get(p + "/" + v));
        ys.add(OverheadExperiment.mean(ys));
        series.add(new Figure.Series(p.label + ", " + v.name(), List.of(), ys));
      }
    }
    return series;
  }
}
