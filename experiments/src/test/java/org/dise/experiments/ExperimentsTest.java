package org.dise.experiments;

import static com.google.common.truth.Truth.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each experiment end to end on one small program (--quick grids): it writes its CSV, its figures
 * and its report section, and its figures say what the papers' mechanisms imply.
 */
class ExperimentsTest {
  static Lab lab(String programs) {
    return new Lab(Workload.parseList(programs, OverheadExperimentTest.BIN), true, null);
  }

  static List<List<Object>> rows(ExperimentRunner.Written w, String column, Object value) {
    int i = w.outcome().data.columns().indexOf(column);
    return w.outcome().data.rows().stream().filter(r -> r.get(i).equals(value)).toList();
  }

  static double num(ExperimentRunner.Written w, List<Object> row, String column) {
    return ((Number) row.get(w.outcome().data.columns().indexOf(column))).doubleValue();
  }

  @Test
  void rapNeedsFewerNodesAtALargerEpsilonAndStaysWithinIt(@TempDir Path out) throws Exception {
    ExperimentRunner.Written w =
        ExperimentRunner.run(new RapExperiment(), lab("phases:1:AB"), out, "test", "test");
    assertThat(Files.readString(out.resolve("index.html"))).contains("id=\"rap\"");
    assertThat(Files.exists(out.resolve("rap-error.svg"))).isTrue();
    for (String stream : List.of("code", "value")) {
      List<List<Object>> rs = rows(w, "stream", stream);
      List<Object> fine =
          rs.stream().filter(r -> num(w, r, "epsilon_pct") == 1.0).findFirst().orElseThrow();
      List<Object> coarse =
          rs.stream().filter(r -> num(w, r, "epsilon_pct") == 10.0).findFirst().orElseThrow();
      assertThat(num(w, coarse, "max_nodes")).isLessThan(num(w, fine, "max_nodes"));
      // RAP's bound: a range's count is off by at most epsilon of all events; the hot ranges
      // hold at least epsilon each, so their percent error stays well within 100%.
      assertThat(num(w, coarse, "max_error_pct")).isLessThan(50.0);
    }
  }

  @Test
  void aThirtyTwoBitCodeRangeGivesAShallowerTreeWithFewerNodes(@TempDir Path out) {
    Lab lab = lab("phases:1:AB").set(java.util.Map.of("code_range_bits", "64,32"));
    ExperimentRunner.Written w =
        ExperimentRunner.run(new RapExperiment(), lab, out, "test", "test");
    List<List<Object>> code = rows(w, "stream", "code");
    for (double eps : List.of(1.0, 10.0)) {
      List<Object> wide =
          code.stream()
              .filter(r -> num(w, r, "epsilon_pct") == eps && num(w, r, "range_bits") == 64)
              .findFirst()
              .orElseThrow();
      List<Object> narrow =
          code.stream()
              .filter(r -> num(w, r, "epsilon_pct") == eps && num(w, r, "range_bits") == 32)
              .findFirst()
              .orElseThrow();
      // The same pcs (they fit in 32 bits), half the height: a larger split threshold.
      assertThat(num(w, narrow, "events")).isEqualTo(num(w, wide, "events"));
      assertThat(num(w, narrow, "max_nodes")).isLessThan(num(w, wide, "max_nodes"));
    }
    // The value tree does not depend on the code tree's range: run once per epsilon.
    assertThat(rows(w, "stream", "value")).hasSize(2);
    assertThat(w.outcome().settings).doesNotContainKey("Code.range_bits"); // a column
    assertThat(w.outcome().settings).containsEntry("Values.range_bits", "64");
  }

  @Test
  void aSettingWithABadCountNamesIt(@TempDir Path out) {
    Lab lab = lab("phases:1:AB").set(java.util.Map.of("intervals", "1M,0"));
    ExperimentException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            ExperimentException.class,
            () -> ExperimentRunner.run(new IntervalsExperiment(), lab, out, "t", "t"));
    assertThat(e.getMessage()).isEqualTo("--set intervals: intervals must be at least 1, not 0");
  }

  @Test
  void coprocessorCostsLessThanSamplingEveryHundredthLoad(@TempDir Path out) throws Exception {
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    Lab lab =
        new Lab(
            Workload.parseList("phases:1:AB", OverheadExperimentTest.BIN),
            true,
            new PrintStream(progress, true, StandardCharsets.UTF_8));
    ExperimentRunner.Written w =
        ExperimentRunner.run(new CoprocExperiment(), lab, out, "test", "test");
    // Two periods, the first also without random tagging: three runs, each counted once.
    String lines = progress.toString(StandardCharsets.UTF_8);
    assertThat(lines).contains("run 1 of 3, ~");
    assertThat(lines).contains("] run 3 of 3: coproc: ");
    assertThat(lines).doesNotContain("run 4 of");
    List<Object> cp = rows(w, "profiler", "co-processor").get(0);
    List<Object> s100 = rows(w, "parameter", "1/100").get(0);
    assertThat(num(w, cp, "overhead_pct")).isLessThan(num(w, s100, "overhead_pct"));
    assertThat(rows(w, "profiler", "co-processor, no random tagging")).hasSize(1);
    // Overheads span decades (the co-processor's 0.1% to sampling's 100%+): a log x axis.
    assertThat(w.outcome().figures.get(0).logX()).isTrue();
    assertThat(Files.size(out.resolve("coproc.png"))).isGreaterThan(1000L);
    // The settings every run shared, defaults included, as constant columns and in the report.
    assertThat(w.outcome().settings).containsEntry("Coproc.slots", "64");
    assertThat(w.outcome().settings).containsEntry("Sampler.interrupt_cycles", "420");
    assertThat(w.outcome().settings).containsEntry("Sampler.jitter", "true");
    assertThat(w.outcome().settings).doesNotContainKey("Sampler.period"); // a column
    List<String> csv = Files.readAllLines(out.resolve("coproc.csv"));
    List<String> header = List.of(csv.get(0).split(","));
    int slots = header.indexOf("Coproc.slots");
    assertThat(slots).isGreaterThan(header.indexOf("weighted_rms_error_pct"));
    for (String row : csv.subList(1, csv.size())) {
      assertThat(
              List.of(row.replace("\"co-processor, no", "co-processor no").split(",")).get(slots))
          .isEqualTo("64");
    }
    assertThat(Files.readString(out.resolve("index.html")))
        .containsMatch("Settings every run shared[^§]*<code>Coproc.slots</code></td><td><code>64<");
  }

  @Test
  void burstyTracingTracesItsSamplingRateAndFindsStreams(@TempDir Path out) {
    ExperimentRunner.Written w =
        ExperimentRunner.run(new BurstyExperiment(), lab("phases:1:AB"), out, "test", "test");
    // The stream search's settings, defaults included, as the other experiments record theirs.
    assertThat(w.outcome().settings).containsEntry("Streams.min_length", "10");
    assertThat(w.outcome().settings).containsEntry("Streams.max_length", "40");
    assertThat(w.outcome().settings).containsEntry("Streams.coverage_pct", "90");
    assertThat(w.outcome().settings).containsKey("cycle_model.insertedCpi");
    double oneCheckBursts = 0;
    double fiftyCheckBursts = 0;
    for (List<Object> r : w.outcome().data.rows()) {
      if (num(w, r, "nCheck0") == 0) {
        // The complete trace is one burst.
        assertThat(num(w, r, "bursts")).isEqualTo(1.0);
      }
      if (num(w, r, "nCheck0") == 20 && num(w, r, "nInstr0") == 1) {
        oneCheckBursts = num(w, r, "bursts");
      }
      if (num(w, r, "nCheck0") == 1000 && num(w, r, "nInstr0") == 50) {
        fiftyCheckBursts = num(w, r, "bursts");
        assertThat(num(w, r, "references_per_burst")).isGreaterThan(10.0);
      }
      if (num(w, r, "nCheck0") == 1000 && num(w, r, "nInstr0") == 50) {
        // 50 of every 1050 checks sampled: about 5% of the references (bursts vary in length).
        assertThat(num(w, r, "traced_pct")).isWithin(3.0).of(100.0 * 50 / 1050);
        assertThat(num(w, r, "hot_streams")).isGreaterThan(0.0);
        assertThat(num(w, r, "overlap_pct")).isGreaterThan(0.0);
      }
      // The analysis' CPU time is measured on the searching thread and cannot exceed its wall
      // time by more than the clocks' resolution.
      assertThat(num(w, r, "analysis_cpu_us_per_reference")).isAtLeast(0.0);
      assertThat(num(w, r, "analysis_cpu_us_per_reference"))
          .isAtMost(num(w, r, "analysis_us_per_reference") + 1.0);
    }
    // The sink sees where each burst ends: at the same 5% rate, bursts of one check are about
    // 50 times as many as bursts of 50 checks.
    assertThat(fiftyCheckBursts).isGreaterThan(1.0);
    assertThat(oneCheckBursts).isGreaterThan(20 * fiftyCheckBursts);
  }

  @Test
  void samplingFractionsFollowTheStrategies(@TempDir Path out) {
    ExperimentRunner.Written w =
        ExperimentRunner.run(new SamplingExperiment(), lab("phases:1:AABB"), out, "test", "test");
    for (List<Object> r : rows(w, "strategy", "periodic")) {
      double n =
          Double.parseDouble((String) r.get(w.outcome().data.columns().indexOf("parameter")));
      assertThat(num(w, r, "sampled_fraction")).isWithin(0.03).of(1 / n);
    }
    assertThat(rows(w, "strategy", "phase:centroid")).isNotEmpty();
    for (List<Object> r : rows(w, "strategy", "phase:third")) {
      assertThat(num(w, r, "prediction_accuracy")).isAtLeast(0.5);
      assertThat(num(w, r, "weighted_hot_error")).isAtMost(num(w, r, "hot_error") + 1e-9);
    }
    // The count figure draws the papers' 5%-error points beside ours.
    assertThat(w.outcome().figures.get(0).series()).contains(SamplingExperiment.PAPER_POINTS);
    // The estimator's settings that produced the data, defaults included; varied ones are columns.
    assertThat(w.outcome().settings)
        .containsEntry("phase_aware.scaling", org.dise.runtime.trigger.Triggers.DEFAULT_SCALING);
    assertThat(w.outcome().settings).containsEntry("phase_aware.reach", "50");
    assertThat(w.outcome().settings).containsEntry("random.length", "1");
    assertThat(w.outcome().settings).containsEntry("hot_set", "top 15% of entries");
    assertThat(w.outcome().settings).doesNotContainKey("phase_aware.threshold");
  }

  @Test
  void shorterIntervalsLetPhaseAwareSamplingTakeLessAtMatchedFractions(@TempDir Path out) {
    ExperimentRunner.Written w =
        ExperimentRunner.run(new IntervalsExperiment(), lab("phases:1:AABB"), out, "test", "test");
    // The interval curve: shorter intervals let phase-aware sampling take a smaller fraction
    // (one interval per phase), and periodic and random sampling run at that fraction.
    List<List<Object>> phase = rows(w, "strategy", "phase:third");
    assertThat(phase).hasSize(2);
    List<Object> longer =
        phase.stream().filter(r -> num(w, r, "interval") == 100_000).findFirst().orElseThrow();
    List<Object> shorter =
        phase.stream().filter(r -> num(w, r, "interval") == 50_000).findFirst().orElseThrow();
    assertThat(num(w, shorter, "sampled_fraction")).isLessThan(num(w, longer, "sampled_fraction"));
    assertThat(num(w, shorter, "intervals")).isGreaterThan(num(w, longer, "intervals"));
    for (List<Object> r : rows(w, "strategy", "periodic")) {
      List<Object> same = num(w, r, "interval") == 50_000 ? shorter : longer;
      assertThat(num(w, r, "sampled_fraction"))
          .isWithin(0.5 * num(w, same, "sampled_fraction"))
          .of(num(w, same, "sampled_fraction"));
    }
    assertThat(rows(w, "strategy", "random")).hasSize(2);
    for (List<Object> r : w.outcome().data.rows()) {
      assertThat(num(w, r, "hot_weight_error")).isAtLeast(0.0);
      assertThat(num(w, r, "hot_weight_error")).isAtMost(1.0);
    }
    assertThat(Files.exists(out.resolve("intervals.svg"))).isTrue();
    assertThat(w.outcome().settings).containsEntry("phase_aware.threshold", "25");
    assertThat(w.outcome().settings).containsEntry("phase_aware.scaling", "nearest");
    assertThat(w.outcome().settings).doesNotContainKey("phase_aware.interval"); // a column
  }

  @Test
  void energyOfDiseSamplingExceedsHps(@TempDir Path out) {
    ExperimentRunner.Written w =
        ExperimentRunner.run(new EnergyExperiment(), lab("phases:1:AB"), out, "test", "test");
    List<List<Object>> dise = rows(w, "variant", "dise");
    List<List<Object>> hps = rows(w, "variant", "hps");
    for (int i = 0; i < dise.size(); i++) {
      assertThat(num(w, dise.get(i), "energy_overhead_pct"))
          .isGreaterThan(num(w, hps.get(i), "energy_overhead_pct"));
    }
    // The application's joules are the model's price of its measured instruction mix.
    List<Object> r = dise.get(0);
    org.dise.experiments.model.InstructionMix mix =
        new org.dise.experiments.model.InstructionMix(
            (long) num(w, r, "application_instructions"),
            (long) num(w, r, "loads"),
            (long) num(w, r, "stores"),
            (long) num(w, r, "fp"),
            0);
    assertThat(mix.loads()).isGreaterThan(0L);
    assertThat(mix.fp()).isGreaterThan(0L); // block B is floating point
    assertThat(num(w, r, "application_joules"))
        .isWithin(1e-9)
        .of(org.dise.experiments.model.EnergyModel.strongArm().application(mix));
    // The floating-point share of that energy: the FP instructions at the FPREG price.
    org.dise.experiments.model.EnergyModel e = org.dise.experiments.model.EnergyModel.strongArm();
    assertThat(num(w, r, "fp_energy_pct"))
        .isWithin(1e-6)
        .of(100 * mix.fp() * e.fpJ() / e.application(mix));
    assertThat(num(w, r, "fp_energy_pct")).isGreaterThan(0.0);
    // The paper's range is computed from its Fig. 14(a) rows, not typed in.
    assertThat(w.outcome().comparisons.get(0).paper()).startsWith("11.5-32.7 nJ");
    assertThat(w.outcome().comparisons.get(0).paper()).contains("is 19.0 nJ");
    assertThat(w.outcome().comparisons.get(0).ours()).contains("FP-dominated programs");
  }

  @Test
  void energyUnderATimingModelIsPricedFromTheInorderModelsEvents(@TempDir Path out) {
    // The default --timing is ooo; energy runs on inorder, the paper's StrongARM handheld.
    Lab lab = lab("phases:1:AB").timing(org.dise.runtime.timing.TimingConfig.defaults("ooo"));
    ExperimentRunner.Written w = ExperimentRunner.run(new EnergyExperiment(), lab, out, "t", "t");
    assertThat(w.outcome().settings).containsEntry("cost_model", "inorder");
    List<List<Object>> dise = rows(w, "variant", "dise");
    List<List<Object>> hps = rows(w, "variant", "hps");
    assertThat(dise).hasSize(3);
    for (int i = 0; i < dise.size(); i++) {
      assertThat(num(w, dise.get(i), "energy_overhead_pct"))
          .isGreaterThan(num(w, hps.get(i), "energy_overhead_pct"));
    }
    List<Object> r = dise.get(0);
    // The application's joules are the measured events at their Fig. 14(b) prices: no fixed
    // miss rate, the misses are counted; a refill's bubble cycles cost an IREG cycle each.
    double ireg = 0.865 / 204.79e6;
    double expected =
        (num(w, r, "application_instructions") - num(w, r, "fp")) * ireg
            + num(w, r, "fp") * 0.965 / 0.439e6
            + (num(w, r, "l1d_read_misses") + num(w, r, "l1i_misses")) * (0.973 / 19.462e6 - ireg)
            + num(w, r, "l1d_write_misses") * (1.340 / 11.625e6 - ireg)
            + num(w, r, "bubble_cycles") * ireg;
    assertThat(num(w, r, "application_joules")).isWithin(1e-4 * expected).of(expected);
    assertThat(num(w, r, "l1d_read_misses")).isGreaterThan(0.0);
    // The profiled run misses more than the application alone (the handler's lines).
    assertThat(num(w, r, "profiled_l1d_read_misses") + num(w, r, "profiled_l1i_misses"))
        .isAtLeast(num(w, r, "l1d_read_misses") + num(w, r, "l1i_misses"));
    // The analytic model's figure is kept beside the measured one.
    assertThat(num(w, r, "analytic_energy_overhead_pct")).isGreaterThan(0.0);
    assertThat(w.outcome().comparisons.get(1).paper()).startsWith("0.2%");
  }

  @Test
  void badProgramsAreNamed() {
    ExperimentException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            ExperimentException.class,
            () -> Workload.parseList("nope:1", OverheadExperimentTest.BIN));
    assertThat(e).hasMessageThat().contains("nope: no such program");
  }
}
