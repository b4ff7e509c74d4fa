package org.dise.repl;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.dise.repl.common.ExitStatus;
import org.dise.repl.common.ProfileFormats;
import org.dise.repl.common.ProfileReport;
import org.dise.repl.common.UserError;
import org.dise.runtime.Machine;
import org.dise.runtime.dise.CostReport;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.dise.ProfilingEngine;
import org.dise.runtime.profiles.sampling.SimulationPoints;
import org.dise.runtime.profiles.sink.BasicBlockVectors;
import org.dise.runtime.session.ProfilingSession;
import org.dise.runtime.sink.ProfileTable;

/**
 * {@code acf run --fast-forward N} and {@code acf run --simpoints FILE --weights FILE}: runs in
 * which the productions are on for part of the program only, the rest running at full speed.
 */
final class PointRuns {
  private final RunCommand run;
  private final org.dise.repl.common.RunPoints points;

  PointRuns(RunCommand run) {
    this.run = run;
    this.points = run.options.points();
  }

  /** Runs them; the options were checked ({@link org.dise.repl.common.RunPoints}). */
  int run(ProductionSet productions, Path origin) {
    return points.simpoints() != null
        ? simpoints(productions, origin)
        : fastForward(productions, origin);
  }

  private int fastForward(ProductionSet productions, Path origin) {
    long n = points.fastForward();
    ProfilingSession.Run r = run.session.startOff();
    Machine machine = r.machine();
    Machine.Outcome o =
        r.run(
            run.options.session().maxInsns() >= 0
                ? Math.min(n, run.options.session().maxInsns())
                : n);
    ProfilingEngine engine;
    CostReport before = null;
    if (o.reason() == org.dise.runtime.cpu.StopReason.STEP_LIMIT
        && (run.options.session().maxInsns() < 0 || n < run.options.session().maxInsns())) {
      engine = r.profileFromHere(); // the stack is unwound here
      before = engine.cost();
      o = r.run(run.options.session().maxInsns());
    } else {
      engine = run.session.engine(); // its empty profiles, for the summary
      if (o.reason() == org.dise.runtime.cpu.StopReason.STEP_LIMIT) {
        o = r.run(run.options.session().maxInsns());
      }
    }
    System.out.flush();
    if (o.report() != null) {
      System.err.println("acf: " + o.report());
    }
    if (before == null) {
      System.err.printf(
          "acf: the guest ended after %,d instructions, before the fast-forward of"
              + " %,d: nothing was profiled%n",
          o.instructions(), n);
    }
    CostReport c =
        before == null
            ? new CostReport(0, 0, 0, 0, 0, 0)
            : engine.cost().fromInstruction(before.applicationInstructions());
    ProfileReport.summary(engine.sinks(), c, machine.symbols(), System.err);
    System.err.printf("  fast-forwarded           %,d%n", Math.min(n, o.instructions()));
    if (run.options.session().out() != null) {
      ProfileReport.write(
          engine.sinks(),
          c,
          machine.symbols(),
          run.options.session().out(),
          o.exitStatus(),
          ", \"fast_forward\": " + n);
    }
    return o.exitStatus();
  }

  private int simpoints(ProductionSet productions, Path origin) {
    List<SimulationPoints.Point> points;
    long interval;
    interval = run.options.sampling().pointInterval(BasicBlockVectors.DEFAULT_INTERVAL);
    try {
      points = SimulationPoints.read(this.points.simpoints(), this.points.weights());
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage(), ExitStatus.USAGE);
    }
    Machine machine = run.session.load();
    // Build one engine first, so that a refusal is reported before the run.
    run.session.engine();
    SimulationPoints.Result r =
        run.session.simulationPoints(machine, points, interval, run.options.session().maxInsns());
    System.out.flush();
    if (r.outcome().report() != null) {
      System.err.println("acf: " + r.outcome().report());
    }
    for (SimulationPoints.PointRun p : r.points()) {
      System.err.printf(
          Locale.ROOT,
          "simulation point: interval %d (cluster %d, weight %.4f)%n",
          p.point().interval(),
          p.point().cluster(),
          p.point().weight());
      ProfileReport.summary(p.engine().sinks(), p.cost(), machine.symbols(), System.err);
    }
    if (r.points().size() < points.size()) {
      System.err.printf(
          "acf: warning: the run had %d intervals of %,d; %d of %d simulation"
              + " points lie beyond its end and were not profiled%n",
          r.intervals(), interval, points.size() - r.points().size(), points.size());
    }
    System.err.printf(
        Locale.ROOT,
        "simulation points %d of %d, intervals %,d of %,d"
            + " instructions; estimate = sum of weight x intervals x point's profile%n",
        r.points().size(),
        points.size(),
        r.intervals(),
        interval);
    for (Map.Entry<String, Map<String, Double>> e : r.estimate().entrySet()) {
      for (String line :
          ProfileFormats.terminal(
              e.getKey() + " (whole-program estimate)",
              estimateTable(e.getValue()),
              ProfileReport.TOP)) {
        System.err.println(line);
      }
    }
    if (run.options.session().out() != null) {
      write(r, interval, machine);
    }
    return r.outcome().exitStatus();
  }

  private static ProfileTable estimateTable(Map<String, Double> estimate) {
    List<Map.Entry<String, Double>> entries = new ArrayList<>(estimate.entrySet());
    entries.sort((a, b) -> Double.compare(b.getValue(), a.getValue()));
    List<List<String>> rows = new ArrayList<>();
    for (Map.Entry<String, Double> e : entries) {
      rows.add(List.of(e.getKey(), Long.toString(Math.round(e.getValue()))));
    }
    return new ProfileTable(List.of("key", "estimate"), rows, List.of("key"), "estimate");
  }

  private void write(SimulationPoints.Result r, long interval, Machine machine) {
    Path dir = run.options.session().out();
    StringBuilder points =
        new StringBuilder("interval,cluster,weight,application_instructions," + "total_cycles\n");
    for (SimulationPoints.PointRun p : r.points()) {
      ProfileReport.write(
          p.engine().sinks(),
          p.cost(),
          machine.symbols(),
          dir.resolve("point-" + p.point().interval()),
          r.outcome().exitStatus(),
          String.format(
              Locale.ROOT,
              ", \"simpoint_interval\": %d, \"cluster\": %d," + " \"weight\": %.6f",
              p.point().interval(),
              p.point().cluster(),
              p.point().weight()));
      points.append(
          String.format(
              Locale.ROOT,
              "%d,%d,%.6f,%d,%d%n",
              p.point().interval(),
              p.point().cluster(),
              p.point().weight(),
              p.cost().applicationInstructions(),
              p.cost().totalCycles()));
    }
    try {
      Files.createDirectories(dir);
      Files.writeString(dir.resolve("simpoints.csv"), points, StandardCharsets.UTF_8);
      for (Map.Entry<String, Map<String, Double>> e : r.estimate().entrySet()) {
        StringBuilder sb = new StringBuilder("key,estimate\n");
        for (List<String> row : estimateTable(e.getValue()).rows()) {
          String k = row.get(0);
          sb.append(k.contains(",") ? "\"" + k + "\"" : k)
              .append(',')
              .append(row.get(1))
              .append('\n');
        }
        Files.writeString(dir.resolve(e.getKey() + ".estimate.csv"), sb, StandardCharsets.UTF_8);
      }
      Files.writeString(
          dir.resolve("summary.json"),
          String.format(
              Locale.ROOT,
              "{\"application_instructions\": %d, \"intervals\": %d, \"interval\": %d,"
                  + " \"simulation_points\": %d, \"exit_status\": %d}%n",
              r.applicationInstructions(),
              r.intervals(),
              interval,
              r.points().size(),
              r.outcome().exitStatus()),
          StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UserError("--out " + dir + ": cannot write: " + UserError.why(e));
    }
  }
}
