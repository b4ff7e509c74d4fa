package org.dise.repl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.dise.experiments.Experiment;
import org.dise.experiments.Lab;
import org.dise.experiments.Outcome;
import org.dise.experiments.OverheadExperiment;
import org.dise.experiments.RunSpec;
import org.dise.experiments.Workload;
import org.dise.runtime.profiles.sampling.Sweep;

/**
 * {@code acf sweep} as a plan of runs: one run per workload (its exhaustive first pass and every
 * setting of the sweep on it, which all need that pass's exact profile), its result the points. The
 * specification holds the ACF texts, the sweep's settings and the input's hash, so that a run is a
 * function of it.
 */
final class SweepRuns implements Experiment {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final Map<String, String> settings;
  private final Function<Workload, Swept> sweep;

  /**
   * A workload's points, and under {@code --timing} each point's sampled run's timing measurement
   * (the same order; empty without a model).
   */
  record Swept(List<Sweep.Point> points, List<org.dise.runtime.timing.TimingRun> timing) {}

  /**
   * The overhead report's timing columns a sweep leaves out: the cycle attribution and the
   * application's own branch MPKI (spec/timing.md, "Where --timing applies").
   */
  private static final Set<String> NOT_SWEPT =
      Set.of(
          "cycles_application",
          "cycles_inserted",
          "cycles_handler",
          "cycles_stall",
          "branch_mpki_alone");

  /** The timing columns a timed sweep's CSV ends in: the overhead experiment's, in its order. */
  static final List<String> TIMING_COLUMNS =
      OverheadExperiment.TIMING_COLUMNS.stream().filter(c -> !NOT_SWEPT.contains(c)).toList();

  /**
   * @param settings what every run depends on besides its program (ACF texts, plan, input)
   * @param sweep the sweep of one workload, as {@code acf sweep} runs it
   */
  SweepRuns(Map<String, String> settings, Function<Workload, Swept> sweep) {
    this.settings = settings;
    this.sweep = sweep;
  }

  @Override
  public String name() {
    return "sweep";
  }

  @Override
  public String reproduces() {
    return "accuracy versus sampled fraction (spec/sampling.md)";
  }

  @Override
  public String summary() {
    return "acf sweep";
  }

  @Override
  public String defaultPrograms(boolean quick) {
    return "";
  }

  @Override
  public List<RunSpec> plan(Lab lab) {
    List<RunSpec> out = new ArrayList<>();
    for (Workload w : lab.workloads()) {
      out.add(lab.spec("sweep.workload", w, settings, "sweep: " + w.label()));
    }
    return out;
  }

  @Override
  public JsonNode execute(Lab lab, RunSpec spec) {
    ArrayNode points = JSON.createArrayNode();
    Swept swept = sweep.apply(lab.workload(spec));
    for (int i = 0; i < swept.points().size(); i++) {
      Sweep.Point p = swept.points().get(i);
      ObjectNode n = points.addObject();
      if (!swept.timing().isEmpty()) {
        ObjectNode t = n.putObject("timing");
        List<String> values = timingValues(swept.timing().get(i));
        for (int k = 0; k < TIMING_COLUMNS.size(); k++) {
          t.put(TIMING_COLUMNS.get(k), values.get(k));
        }
      }
      n.put("workload", p.workload());
      n.put("strategy", p.strategy());
      n.put("parameter", p.parameter());
      n.put("seed", p.seed());
      // Doubles as their exact text (NaN included): the CSV and the summary read them back.
      n.put("sampled_fraction", Double.toString(p.sampledFraction()));
      n.put("count_error", Double.toString(p.countError()));
      n.put("hot_error", Double.toString(p.hotError()));
      n.put("intervals", p.intervals());
      n.put("phases", p.phases());
    }
    return points;
  }

  /**
   * A timed point's {@link #TIMING_COLUMNS}, as the CSV's text: counts whole, rates to four places.
   */
  static List<String> timingValues(org.dise.runtime.timing.TimingRun t) {
    List<Object> row = OverheadExperiment.timingRow(t);
    List<String> values = new ArrayList<>();
    for (int k = 0; k < row.size(); k++) {
      if (!NOT_SWEPT.contains(OverheadExperiment.TIMING_COLUMNS.get(k))) {
        values.add(
            row.get(k) instanceof Double d
                ? String.format(java.util.Locale.ROOT, "%.4f", d)
                : row.get(k).toString());
      }
    }
    return values;
  }

  /** Each point's timing columns (an empty list: the point was not timed), in the plan's order. */
  static List<List<String>> timing(List<JsonNode> results) {
    List<List<String>> out = new ArrayList<>();
    for (JsonNode r : results) {
      for (JsonNode n : r) {
        JsonNode t = n.path("timing");
        List<String> values = new ArrayList<>();
        if (!t.isMissingNode()) {
          for (String c : TIMING_COLUMNS) {
            values.add(t.path(c).asText());
          }
        }
        out.add(values);
      }
    }
    return out;
  }

  /** The points of every run's result, in the plan's order. */
  static List<Sweep.Point> points(List<JsonNode> results) {
    List<Sweep.Point> out = new ArrayList<>();
    for (JsonNode r : results) {
      for (JsonNode n : r) {
        out.add(
            new Sweep.Point(
                n.path("workload").asText(),
                n.path("strategy").asText(),
                n.path("parameter").asText(),
                n.path("seed").asLong(),
                Double.parseDouble(n.path("sampled_fraction").asText()),
                Double.parseDouble(n.path("count_error").asText()),
                Double.parseDouble(n.path("hot_error").asText()),
                n.path("intervals").asLong(),
                n.path("phases").asInt()));
      }
    }
    return out;
  }

  /** Not an experiment of the report: {@code acf sweep} writes its CSV itself. */
  @Override
  public Outcome run(Lab lab) {
    throw new UnsupportedOperationException("acf sweep collects its own points");
  }
}
