package org.dise.runtime.profiles.sampling;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.dise.runtime.Machine;
import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.cpu.StopReason;
import org.dise.runtime.dise.CostReport;
import org.dise.runtime.dise.ProfilingEngine;
import org.dise.runtime.sink.Sink;

/**
 * SimPoint's simulation points (Sherwood et al., "Automatically characterizing large scale program
 * behavior"; SimPoint 3's {@code -saveSimpoints} and {@code -saveSimpointWeights} files): one
 * representative interval per cluster with the cluster's weight. {@link #run} runs the program once
 * at full speed and turns the productions on for the chosen intervals only, each with fresh sinks,
 * then scales the points' profiles into a whole-program estimate.
 */
public final class SimulationPoints {
  private SimulationPoints() {}

  /** A simulation point: its interval (from 0), its cluster, and the cluster's weight. */
  public record Point(long interval, int cluster, double weight) {}

  /** One point's run: its engine (sinks) and what the productions cost in it. */
  public record PointRun(Point point, ProfilingEngine engine, CostReport cost) {}

  /**
   * The run: the guest's outcome, the points that were reached, the application instructions of the
   * whole run, its intervals, and per sink the estimate of the whole-program profile by key (the
   * key cells of the sink's table joined by {@code |}).
   */
  public record Result(
      Machine.Outcome outcome,
      List<PointRun> points,
      long applicationInstructions,
      long intervals,
      Map<String, Map<String, Double>> estimate) {}

  /**
   * Reads a simulation points file ({@code interval cluster} per line) and its weights file ({@code
   * weight cluster} per line), points in interval order.
   *
   * @throws IllegalArgumentException as {@code file:line:col: message}
   */
  public static List<Point> read(Path simpoints, Path weights) {
    Map<Integer, Long> intervals = new LinkedHashMap<>();
    for (String[] f : fields(simpoints)) {
      long interval = number(simpoints, f, 0);
      int cluster = (int) number(simpoints, f, 1);
      if (intervals.put(cluster, interval) != null) {
        throw new IllegalArgumentException(
            at(simpoints, f, 1) + "cluster " + cluster + " has a second simulation point");
      }
    }
    Map<Integer, Double> w = new HashMap<>();
    for (String[] f : fields(weights)) {
      double weight;
      try {
        weight = Double.parseDouble(f[2]);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            at(weights, f, 0) + "expected a weight, got `" + f[2] + "`");
      }
      if (!(weight >= 0 && weight <= 1)) {
        throw new IllegalArgumentException(
            at(weights, f, 0) + "a weight is between 0 and 1, got " + f[2]);
      }
      int cluster = (int) number(weights, f, 1);
      if (!intervals.containsKey(cluster)) {
        throw new IllegalArgumentException(
            at(weights, f, 1) + "cluster " + cluster + " has no simulation point in " + simpoints);
      }
      w.put(cluster, weight);
    }
    List<Point> points = new ArrayList<>();
    intervals.forEach(
        (cluster, interval) -> {
          if (!w.containsKey(cluster)) {
            throw new IllegalArgumentException(
                weights
                    + ": cluster "
                    + cluster
                    + " (interval "
                    + interval
                    + " in "
                    + simpoints
                    + ") has no weight");
          }
          points.add(new Point(interval, cluster, w.get(cluster)));
        });
    if (points.isEmpty()) {
      throw new IllegalArgumentException(simpoints + ": no simulation points");
    }
    double sum = points.stream().mapToDouble(Point::weight).sum();
    if (Math.abs(sum - 1) > 0.01) {
      throw new IllegalArgumentException(weights + ": the weights add up to " + sum + ", not 1");
    }
    points.sort(Comparator.comparingLong(Point::interval));
    return points;
  }

  /** The lines of {@code f} as [line number, column of field 2, field 1, field 2]. */
  private static List<String[]> fields(Path f) {
    List<String> lines;
    try {
      lines = Files.readAllLines(f, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalArgumentException(f + ": cannot read: " + e.getMessage());
    }
    List<String[]> out = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String[] parts = line.split("\\s+");
      if (parts.length != 2) {
        throw new IllegalArgumentException(
            f + ":" + (i + 1) + ":1: expected two fields, got `" + line + "`");
      }
      int col2 =
          lines.get(i).indexOf(parts[1], lines.get(i).indexOf(parts[0]) + parts[0].length()) + 1;
      int col1 = lines.get(i).indexOf(parts[0]) + 1;
      out.add(new String[] {Integer.toString(i + 1), col1 + "," + col2, parts[0], parts[1]});
    }
    return out;
  }

  private static String at(Path f, String[] fields, int index) {
    return f + ":" + fields[0] + ":" + fields[1].split(",")[index] + ": ";
  }

  private static long number(Path f, String[] fields, int index) {
    try {
      long n = Long.parseLong(fields[2 + index]);
      if (n < 0) {
        throw new NumberFormatException();
      }
      return n;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          at(f, fields, index) + "expected a whole number, got `" + fields[2 + index] + "`");
    }
  }

  /**
   * Runs {@code machine} to its end at full speed (no decode stage), turning a fresh engine from
   * {@code engines} on for {@code interval} application instructions at each point, then scales
   * each sink's profile by the point's weight and the run's interval count.
   */
  public static Result run(
      Machine machine,
      Supplier<ProfilingEngine> engines,
      List<Point> points,
      long interval,
      long maxInsns) {
    Cpu cpu = machine.cpu();
    long inserted = 0;
    List<PointRun> runs = new ArrayList<>();
    Machine.Outcome o = null;
    for (Point p : points) {
      long start = p.interval() * interval + inserted; // instret counts inserted instructions
      if (cpu.instret() < start) {
        o = machine.run(limit(start, maxInsns));
        if (o.reason() != StopReason.STEP_LIMIT || cpu.instret() < start) {
          break; // the guest ended (or --max-insns stopped it) before this point
        }
      }
      ProfilingEngine e = engines.get();
      e.install(cpu);
      long app0 = e.cost().applicationInstructions();
      // As for an external trigger: sinks that charge time start here and stop at the end.
      e.sinks().forEach(s -> s.resume(cpu, app0));
      while (e.cost().applicationInstructions() - app0 < interval) {
        long rest = interval - (e.cost().applicationInstructions() - app0);
        o = machine.run(limit(cpu.instret() + rest, maxInsns));
        if (o.reason() != StopReason.STEP_LIMIT || maxInsns >= 0 && cpu.instret() >= maxInsns) {
          break;
        }
      }
      CostReport c = e.cost();
      e.sinks().forEach(s -> s.pause(c.applicationInstructions()));
      cpu.setDecodeStage(null);
      inserted += c.insertedInstructions();
      runs.add(new PointRun(p, e, c.fromInstruction(app0)));
      if (o.reason() != StopReason.STEP_LIMIT) {
        break;
      }
    }
    if (o == null || o.reason() == StopReason.STEP_LIMIT) {
      o = machine.run(maxInsns);
    }
    long app = cpu.instret() - inserted;
    long intervals = (app + interval - 1) / interval;
    Map<String, Map<String, Double>> estimate = new LinkedHashMap<>();
    for (PointRun r : runs) {
      for (Sink s : r.engine().sinks()) {
        Map<String, Double> m = estimate.computeIfAbsent(s.name(), k -> new LinkedHashMap<>());
        double scale = r.point().weight() * intervals;
        s.table(machine.symbols()).weights().forEach((k, v) -> m.merge(k, v * scale, Double::sum));
      }
    }
    return new Result(o, runs, app, intervals, estimate);
  }

  private static long limit(long target, long maxInsns) {
    return maxInsns >= 0 ? Math.min(target, maxInsns) : target;
  }
}
