package org.dise.experiments;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Plans of runs and running them: the one path every experiment goes through, in this process or in
 * workers ({@code acf experiment NAME --run K}) started by a {@link Executor}.
 */
public final class Plans {
  private Plans() {}

  /**
   * One run of a plan: its index ({@code --run K}), the experiment and lab that planned it, and its
   * specification.
   */
  public record Planned(int index, Experiment experiment, Lab lab, RunSpec spec) {
    /** The plan line {@code --plan} prints: JSON, one line. */
    public String jsonLine() {
      ObjectNode n = Results.MAPPER.createObjectNode();
      n.put("index", index);
      n.put("experiment", experiment.name());
      n.put("id", spec.id());
      n.put("label", spec.label());
      n.setAll(spec.toJson());
      return n.toString();
    }
  }

  /**
   * The runs of {@code experiments}, each with its own lab, in order; a run two experiments share
   * (energy plans overhead's runs) is planned once, where it first appears.
   */
  public static List<Planned> plan(Map<Experiment, Lab> experiments) {
    Map<String, Planned> byId = new LinkedHashMap<>();
    experiments.forEach(
        (e, lab) -> {
          for (RunSpec s : e.plan(lab)) {
            byId.putIfAbsent(s.id(), new Planned(byId.size(), e, lab, s));
          }
        });
    return List.copyOf(byId.values());
  }

  /** Runs {@code s} here with {@code lab}: the experiment its kind names executes it. */
  public static JsonNode execute(Lab lab, RunSpec s) {
    Experiment e =
        Experiments.named(s.experiment())
            .orElseThrow(() -> new ExperimentException("run " + s.kind() + ": no such experiment"));
    return e.execute(lab, s);
  }

  /**
   * Runs {@code p} here unless it has a result, and writes the result; a failure is recorded (so
   * that {@code --status} shows it) and thrown.
   *
   * @return whether it ran (false: a result was there)
   */
  public static boolean runOne(Planned p, Results results) {
    if (results.read(p.spec()).isPresent()) {
      return false;
    }
    results.markRunning(p.spec());
    Instant started = Instant.now();
    double load = Results.load();
    long t0 = System.nanoTime();
    try {
      JsonNode value =
          Experiments.named(p.spec().experiment())
              .orElse(p.experiment()) // a plan outside the experiments: acf sweep
              .execute(p.lab(), p.spec());
      results.write(p.spec(), started, (System.nanoTime() - t0) / 1e9, load, value);
      return true;
    } catch (RuntimeException | Error ex) {
      results.markFailed(
          p.spec(), ex instanceof ExperimentException ? ex.getMessage() : ex.toString());
      throw ex;
    }
  }

  /** A split experiment's {@link Experiment#run}: its plan run here, in memory, and collected. */
  public static Outcome inProcess(Experiment e, Lab lab) {
    List<RunSpec> plan = e.plan(lab);
    lab.plan(plan.size());
    List<JsonNode> values = new ArrayList<>();
    for (RunSpec s : plan) {
      values.add(execute(lab, s));
      lab.step("%s", s.label());
    }
    return e.collect(lab, values);
  }

  /** The results of {@code e}'s plan, in order; a missing one is an error naming how many. */
  public static List<Results.Result> results(Experiment e, Lab lab, Results results) {
    List<Results.Result> out = new ArrayList<>();
    int missing = 0;
    int failed = 0;
    String why = "";
    for (RunSpec s : e.plan(lab)) {
      var r = results.read(s);
      if (r.isEmpty()) {
        missing++;
        if (results.state(s) == Results.State.FAILED) {
          failed++;
          if (why.isEmpty()) {
            why = "; the first: " + s.label() + ": " + results.failure(s);
          }
        }
      } else {
        out.add(r.get());
      }
    }
    if (missing > 0) {
      throw new ExperimentException(
          String.format(
              Locale.ROOT,
              "%s: %d of %d runs have no result in %s, %d of them failed (`--status` shows"
                  + " which; the same command runs the others, with --retry the failed ones too)%s",
              e.name(),
              missing,
              missing + out.size(),
              results.dir(),
              failed,
              why));
    }
    return out;
  }

  /**
   * The runs that have no result and are not under way elsewhere ({@code retry}: failed ones too).
   */
  public static List<Planned> todo(
      List<Planned> plan, Results results, Function<Planned, Boolean> live, boolean retry) {
    List<Planned> out = new ArrayList<>();
    for (Planned p : plan) {
      Results.State st = results.state(p.spec());
      if (st == Results.State.DONE) {
        continue;
      }
      if (st == Results.State.FAILED && !retry) {
        continue;
      }
      if (st == Results.State.RUNNING && live.apply(p)) {
        continue;
      }
      out.add(p);
    }
    return out;
  }
}
