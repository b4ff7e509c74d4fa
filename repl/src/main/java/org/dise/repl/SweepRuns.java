package org.dise.repl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.dise.experiments.Experiment;
import org.dise.experiments.Lab;
import org.dise.experiments.Outcome;
import org.dise.experiments.RunSpec;
import org.dise.experiments.Workload;
import org.dise.runtime.trigger.Sweep;

/**
 * {@code acf sweep} as a plan of runs: one run per workload (its exhaustive first pass and every
 * setting of the sweep on it, which all need that pass's exact profile), its result the points. The
 * specification holds the ACF texts, the sweep's settings and the input's hash, so that a run is a
 * function of it.
 */
final class SweepRuns implements Experiment {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final Map<String, String> settings;
  private final Function<Workload, List<Sweep.Point>> sweep;

  /**
   * @param settings what every run depends on besides its program (ACF texts, plan, input)
   * @param sweep the sweep of one workload, as {@code acf sweep} runs it
   */
  SweepRuns(Map<String, String> settings, Function<Workload, List<Sweep.Point>> sweep) {
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
    for (Sweep.Point p : sweep.apply(lab.workload(spec))) {
      ObjectNode n = points.addObject();
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
