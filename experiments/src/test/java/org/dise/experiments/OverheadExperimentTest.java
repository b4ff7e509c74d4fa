package org.dise.experiments;

import static com.google.common.truth.Truth.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.dise.experiments.OverheadExperiment.Measured;
import org.dise.experiments.OverheadExperiment.Profile;
import org.dise.experiments.OverheadExperiment.Variant;
import org.dise.runtime.timing.TimingConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The DISE-only and HPS sampling blocks, the cost model and the written results. */
class OverheadExperimentTest {
  static final Path BIN = Path.of("../examples/programs/bin");

  static Lab lab() {
    return new Lab(Workload.parseList("phases:1:AB", BIN), true, null);
  }

  @Test
  void diseReplacesEveryEventAndHpsOnlyTheSampledOnes(@TempDir Path out) throws Exception {
    Lab lab = lab();
    List<Measured> runs = OverheadExperiment.measure(lab);
    for (Profile p : Profile.values()) {
      Measured ex = find(runs, p, Variant.EXHAUSTIVE);
      Measured dise = find(runs, p, Variant.DISE);
      Measured hps = find(runs, p, Variant.HPS);
      long events = ex.cost().handlerCalls();
      assertThat(events).isGreaterThan(200L);
      // Pure DISE: every event is replaced; the countdown samples the 1st, 101st, ... event.
      assertThat(dise.cost().replacements()).isEqualTo(events);
      assertThat(dise.cost().handlerCalls())
          .isEqualTo((events + OverheadExperiment.PERIOD - 1) / OverheadExperiment.PERIOD);
      assertThat(dise.cost().insertedInstructions())
          .isEqualTo(2 * events + dise.cost().handlerCalls());
      // HPS: the counter samples the 100th, 200th, ... event, and nothing else is replaced.
      assertThat(hps.cost().replacements()).isEqualTo(events / OverheadExperiment.PERIOD);
      assertThat(hps.cost().handlerCalls()).isEqualTo(events / OverheadExperiment.PERIOD);
      assertThat(hps.cost().insertedInstructions()).isEqualTo(0L);
    }
  }

  @Test
  void writesCsvFiguresAndASelfContainedReport(@TempDir Path out) throws Exception {
    ExperimentRunner.Written w =
        ExperimentRunner.run(
            new OverheadExperiment(), lab(), out, "./acf experiment overhead --quick", "acf test");
    List<String> csv = Files.readAllLines(out.resolve("overhead.csv"));
    assertThat(csv.get(0)).startsWith("program,profile,variant,period,");
    assertThat(csv).hasSize(1 + 9);
    assertThat(Files.size(out.resolve("overhead.png"))).isGreaterThan(1000L);
    assertThat(Files.readString(out.resolve("overhead.svg"))).contains("<svg");
    String html = Files.readString(out.resolve("index.html"));
    assertThat(html).contains("data:image/png;base64,");
    // Every figure is in the report, inline: code regions, methods and call pairs.
    assertThat(w.outcome().figures).hasSize(3);
    assertThat(html.split("<figure><img ", -1)).hasLength(1 + w.outcome().figures.size());
    for (Figure f : w.outcome().figures) {
      assertThat(html).contains("<figcaption>" + HtmlReport.esc(f.title()) + "</figcaption>");
    }
    assertThat(html).contains("./acf experiment overhead --quick");
    assertThat(html).contains(lab().workloads().get(0).sha256());
    assertThat(html).contains("120%"); // the paper's figure beside ours
    // Timings on a shared machine come with its load.
    assertThat(html)
        .containsMatch("cores, load average \\d+\\.\\d at the start, \\d+\\.\\d at the end");
    // The figures draw the paper's averages as the last group, DISE then HPS; Fig. 9 has no
    // method bars, so that figure has none.
    for (Figure f : w.outcome().figures) {
      boolean hasPaper = f.categories().contains(OverheadExperiment.PAPER_CATEGORY);
      assertThat(hasPaper).isEqualTo(!f.name().equals("methods"));
      if (f.name().equals("regions")) {
        assertThat(f.series().get(0).ys().get(f.categories().size() - 1)).isEqualTo(120.0);
        assertThat(f.series().get(1).ys().get(f.categories().size() - 1)).isEqualTo(24.0);
      }
      for (Figure.Series s : f.series()) {
        assertThat(s.ys()).hasSize(f.categories().size());
      }
    }
    // The gap's decomposition: the paper's per-event costs, implied by Fig. 8 and Section 5.2.
    Comparison perEvent =
        w.outcome().comparisons.stream()
            .filter(c -> c.what().startsWith("cycles per event under DISE"))
            .findFirst()
            .orElseThrow();
    assertThat(perEvent.paper()).startsWith("6.7 / 10.0");
    // Ours: 1 stall + 2 inserted per event, the sampled one's handler over the period.
    double regions = Double.parseDouble(perEvent.ours().split(" / ")[0]);
    assertThat(regions).isWithin(0.3).of(3.5);
    // HPS is cheaper than DISE for every profile type.
    for (Comparison c : w.outcome().comparisons) {
      if (c.what().startsWith("DISE:HPS ratio")) {
        for (String ratio : c.ours().split(" / ")) {
          assertThat(Double.parseDouble(ratio.replace("x", ""))).isGreaterThan(2.0);
        }
      }
    }
  }

  @Test
  void aTimedRunNamesItsModelInItsSpecificationAndReturnsTheModelsFigures() throws Exception {
    Lab timed = lab().timing(TimingConfig.defaults("inorder").set("l1d.size", "4096"));
    OverheadExperiment e = new OverheadExperiment();
    List<RunSpec> plan = e.plan(timed);
    RunSpec dise = plan.get(1);
    assertThat(dise.setting("variant")).isEqualTo("DISE");
    assertThat(dise.setting("timing")).isEqualTo("inorder");
    assertThat(dise.setting("timing.l1d.size")).isEqualTo("4096");
    // The worker rebuilds the model from the specification alone.
    assertThat(Lab.timingConfig(dise).values()).isEqualTo(timed.timing().values());
    // Another model, another configuration or none: other runs (their results are not shared).
    List<RunSpec> analytic = e.plan(lab());
    List<RunSpec> defaults = e.plan(lab().timing(TimingConfig.defaults("inorder")));
    assertThat(analytic.get(1).setting("timing")).isEqualTo("analytic");
    assertThat(Lab.timingConfig(analytic.get(1))).isNull();
    assertThat(analytic.get(1).id()).isNotEqualTo(dise.id());
    assertThat(defaults.get(1).id()).isNotEqualTo(dise.id());

    // The run itself is measured by the model, and its result holds the figures of the CSV.
    JsonNode r = e.execute(timed, dise);
    JsonNode t = r.path("timing");
    assertThat(t.path("timing_model").asText()).isEqualTo("inorder");
    assertThat(t.path("cycles_profiled").asLong()).isGreaterThan(t.path("cycles_alone").asLong());
    assertThat(t.path("timing_overhead_pct").asDouble()).isGreaterThan(0.0);
    for (String c : OverheadExperiment.TIMING_COLUMNS) {
      assertThat(t.has(c)).isTrue();
    }
    assertThat(e.execute(lab(), analytic.get(1)).has("timing")).isFalse();
  }

  @Test
  void aTimedExperimentsCsvHasTheTimingColumnsAndKeepsTheAnalyticOnes(@TempDir Path out)
      throws Exception {
    Path timedOut = out.resolve("timed");
    Path analyticOut = out.resolve("analytic");
    ExperimentRunner.run(
        new OverheadExperiment(),
        lab().timing(TimingConfig.defaults("inorder")),
        timedOut,
        "./acf experiment overhead --quick --timing inorder",
        "acf test");
    ExperimentRunner.run(
        new OverheadExperiment(), lab(), analyticOut, "./acf experiment overhead", "acf test");
    List<String> timed = Files.readAllLines(timedOut.resolve("overhead.csv"));
    List<String> analytic = Files.readAllLines(analyticOut.resolve("overhead.csv"));
    assertThat(timed.get(0)).contains("," + String.join(",", OverheadExperiment.TIMING_COLUMNS));
    assertThat(analytic.get(0)).doesNotContain("timing_model");
    assertThat(timed).hasSize(analytic.size());
    int overhead = List.of(analytic.get(0).split(",")).indexOf("overhead_pct");
    int model = List.of(timed.get(0).split(",")).indexOf("timing_model");
    for (int i = 1; i < timed.size(); i++) {
      String[] tr = timed.get(i).split(",");
      // --timing analytic keeps the analytic numbers; the timed run has them too, beside its own.
      assertThat(tr[overhead]).isEqualTo(analytic.get(i).split(",")[overhead]);
      assertThat(tr[model]).isEqualTo("inorder");
    }
  }

  static Measured find(List<Measured> runs, Profile p, Variant v) {
    return runs.stream()
        .filter(m -> m.profile() == p && m.variant() == v)
        .findFirst()
        .orElseThrow();
  }
}
