package org.dise.experiments;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.dise.experiments.model.CycleModel;
import org.dise.experiments.model.EnergyModel;
import org.dise.experiments.model.InstructionMix;
import org.dise.runtime.dise.ProductionSet;

/**
 * The first paper's StrongARM energy model (Section 5.4, Fig. 14(b)) applied to the runs of {@link
 * OverheadExperiment}: the application's energy from its instruction mix, and the energy profiling
 * adds (stalls, inserted instructions, handler cycles and misses, and sending the profile once at
 * the end).
 */
public final class EnergyExperiment implements Experiment {
  /** Bytes per profile entry sent at the end: an 8-byte key and an 8-byte count, uncompressed. */
  public static final int BYTES_PER_ENTRY = 16;

  private final EnergyModel energy = EnergyModel.strongArm();
  private final CycleModel cycles = CycleModel.paper();

  @Override
  public String name() {
    return "energy";
  }

  @Override
  public String reproduces() {
    return "Nagpurkar et al., Efficient Remote Profiling, Fig. 14 (StrongARM energy model)";
  }

  @Override
  public String summary() {
    return "Energy of each workload on the paper's StrongARM handheld, and the energy that"
        + " sampled (DISE and HPS) and exhaustive profiling add, per profile type.";
  }

  @Override
  public String defaultPrograms(boolean quick) {
    return new OverheadExperiment().defaultPrograms(quick);
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

  /** A mix run per program, then {@link OverheadExperiment}'s runs (the same: shared). */
  @Override
  public List<RunSpec> plan(Lab lab) {
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
  public Outcome run(Lab lab) {
    return Plans.inProcess(this, lab);
  }

  @Override
  public Outcome collect(Lab lab, List<JsonNode> results) {
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
        new Table(
            "program",
            "profile",
            "variant",
            "application_instructions",
            "loads",
            "stores",
            "fp",
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
          r.workload().label(),
          r.profile().label,
          r.variant().name().toLowerCase(Locale.ROOT),
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
          100 * fpShare(m));
      byKey
          .computeIfAbsent(r.profile() + "/" + r.variant(), k -> new ArrayList<>())
          .add(100 * prof / app);
    }
    Outcome o = new Outcome(t);
    o.model("cycle_model", cycles);
    o.model("energy_model", energy);
    o.setting("bytes_per_entry", BYTES_PER_ENTRY);
    List<String> programs = new ArrayList<>(lab.workloads().stream().map(Workload::label).toList());
    programs.add("average");
    List<Figure.Series> series = new ArrayList<>();
    for (OverheadExperiment.Profile p : OverheadExperiment.Profile.values()) {
      for (OverheadExperiment.Variant v :
          List.of(OverheadExperiment.Variant.DISE, OverheadExperiment.Variant.HPS)) {
        List<Double> ys = new ArrayList<>(byKey.get(p + "/" + v));
        ys.add(OverheadExperiment.mean(ys));
        series.add(new Figure.Series(p.label + ", " + v.name(), List.of(), ys));
      }
    }
    o.figure(
        Figure.bars(
            "energy",
            "Energy added by sampled profiling on the StrongARM"
                + " model (1/100 events, profile sent once at the end)",
            "energy overhead, %",
            programs,
            series));
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
}
