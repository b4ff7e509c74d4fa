package org.dise.experiments;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedSet;
import java.util.function.ToDoubleFunction;
import org.dise.center.RemoteSimulation;
import org.dise.center.RemoteSimulation.Row;
import org.dise.center.Store;
import org.dise.center.StoreException;
import org.dise.center.StoreUrl;
import org.dise.runtime.Machine;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.trigger.TriggerSpec;

/**
 * Phase-ID feedback across users (phase-based remote profiling paper, Section 3.2.5 and Fig. 10):
 * simulated devices run one program on several inputs against a real center on loopback ({@link
 * RemoteSimulation}, what {@code acf remote-sim} runs), with and without feedback; the total
 * sampled fraction, the merged estimate's count and hot-set error, the bytes sent and the phases
 * found, versus the number of users. Each {@code --programs} item is one input; items of one
 * program are that program's inputs, which the users take in turn.
 */
public final class RemoteExperiment extends SplitExperiment {
  /** Users running at once; 0 for the machine's cores. */
  private final int parallel;

  public RemoteExperiment() {
    this(0);
  }

  /** With {@code parallel} users at once (tests fix it, so that feedback reaches later users). */
  public RemoteExperiment(int parallel) {
    super(
        new About(
            "remote",
            "Nagpurkar, Krintz, Sherwood, Phase-Based Remote Profiling, Section 3.2.5 and Fig. 10",
            "Total sampled fraction, count error and top-15% hot-set error of the center's"
                + " merged estimate versus the number of users (1 to 32), with and without phase-ID"
                + " feedback from the optimization center.",
            "phases:1:AABB,phases:1:BBCC,phases:1:CCAA",
            "phases:2:AABBCCDD,phases:2:ABAB,phases:2:CCDDA,phases:2:DDCCBB,phases:2:AACCAA,"
                + "phases:2:BDBD"));
    this.parallel = parallel;
  }

  /** The center's 'enough': sampled intervals per phase before feedback says skip it. */
  static final long ENOUGH = 1;

  /** The center's phase-matching threshold, percent (the devices' own). */
  static final double CENTER_THRESHOLD = 25;

  private static String trim(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }

  /** The grid: interval, users, users at once. */
  record Grid(long interval, int users, int parallel) {}

  Grid grid(boolean quick) {
    int cores = parallel > 0 ? parallel : Runtime.getRuntime().availableProcessors();
    return quick ? new Grid(250_000, 4, cores) : new Grid(1_000_000, 32, cores);
  }

  /** The runs' programs, each with its inputs (the {@code --programs} items), in order. */
  private static Map<Path, List<Workload>> byProgram(Lab lab) {
    Map<Path, List<Workload>> byProgram = new LinkedHashMap<>();
    lab.workloads()
        .forEach(w -> byProgram.computeIfAbsent(w.program(), k -> new ArrayList<>()).add(w));
    return byProgram;
  }

  /** The strategy every device runs. */
  private static TriggerSpec strategy(Grid g) {
    return new TriggerSpec(
        "phase_aware",
        Map.of("interval", Long.toString(g.interval()), "threshold", "25", "policy", "third"));
  }

  /**
   * One run per program and feedback mode: a simulation of every user against a fresh center; the
   * users at once are part of the specification, since they decide what feedback a user hears.
   */
  @Override
  public List<RunSpec> plan(Lab lab) {
    Grid g = grid(lab.quick());
    List<RunSpec> out = new ArrayList<>();
    for (Map.Entry<Path, List<Workload>> e : byProgram(lab).entrySet()) {
      for (boolean feedback : List.of(false, true)) {
        Map<String, String> settings = new java.util.TreeMap<>();
        settings.put("feedback", Boolean.toString(feedback));
        settings.put("interval", Long.toString(g.interval()));
        settings.put("users", Integer.toString(g.users()));
        settings.put("users_at_once", Integer.toString(g.parallel()));
        settings.put("acf", SamplingExperiment.ACF);
        out.add(
            lab.spec(
                "remote.run",
                e.getValue(),
                settings,
                String.format(
                    Locale.ROOT,
                    "remote: %s, %d inputs, feedback %s",
                    e.getKey().getFileName(),
                    e.getValue().size(),
                    feedback ? "on" : "off")));
      }
    }
    return out;
  }

  /** One program's simulation in one feedback mode: a row per number of users. */
  @Override
  public JsonNode execute(Lab lab, RunSpec spec) {
    ProductionSet set = lab.compile("sampled_regions.acf", spec.setting("acf"));
    Grid g =
        new Grid(
            Long.parseLong(spec.setting("interval")),
            Integer.parseInt(spec.setting("users")),
            Integer.parseInt(spec.setting("users_at_once")));
    List<Workload> inputs = lab.workloads(spec);
    Path program = inputs.get(0).program();
    SortedSet<Integer> points = RemoteSimulation.Settings.doubling(g.users());
    points.add(Math.min(inputs.size(), g.users()));
    RemoteSimulation.Settings settings =
        new RemoteSimulation.Settings(
            program,
            "experiment:remote",
            set,
            strategy(g),
            inputs.size(),
            g.users(),
            g.parallel(),
            ENOUGH,
            CENTER_THRESHOLD,
            null,
            points);
    RemoteSimulation sim =
        new RemoteSimulation(
            settings,
            (input, seed) -> Lab.session(inputs.get(input), options(seed), set),
            line -> lab.progress("remote: %s", line));
    return Results.MAPPER.valueToTree(
        simulate(sim, Boolean.parseBoolean(spec.setting("feedback"))));
  }

  @Override
  public Outcome collect(Lab lab, List<JsonNode> results) {
    Grid g = grid(lab.quick());
    Map<Path, List<Workload>> byProgram = byProgram(lab);
    Table t =
        new Table(
            "program",
            "inputs",
            "users",
            "feedback",
            "sampled_fraction",
            "count_error",
            "hot_error",
            "weighted_hot_error",
            "hot_entries",
            "hot_unseen",
            "bytes_sent",
            "phases_at_center",
            "phases_found_by_devices");
    Map<String, List<Row>> series = new LinkedHashMap<>();
    List<RunSpec> plan = plan(lab);
    for (int i = 0; i < plan.size(); i++) {
      List<Workload> inputs = lab.workloads(plan.get(i));
      String program = inputs.get(0).program().getFileName().toString();
      boolean feedback = Boolean.parseBoolean(plan.get(i).setting("feedback"));
      List<Row> rows = new ArrayList<>();
      try {
        for (JsonNode r : results.get(i)) {
          rows.add(Results.MAPPER.treeToValue(r, Row.class));
        }
      } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
        throw new ExperimentException("remote: a run's result: cannot read it: " + e.getMessage());
      }
      for (Row r : rows) {
        t.add(
            program,
            inputs.size(),
            r.users(),
            r.feedback() ? "on" : "off",
            r.sampledFraction(),
            r.countError(),
            r.hotError(),
            r.weightedHotError(),
            r.hotSize(),
            r.hotUnseen(),
            r.bytes(),
            r.phases(),
            r.devicePhases());
      }
      series.put(program + ", feedback " + (feedback ? "on" : "off"), rows);
    }
    TriggerSpec used = byProgram.isEmpty() ? null : strategy(g);
    Outcome o = new Outcome(t);
    if (used != null) {
      o.settings(used);
    }
    o.setting("center.enough", ENOUGH);
    o.setting("center.threshold", trim(CENTER_THRESHOLD));
    o.setting("users_at_once", g.parallel());
    o.setting("center.store", "sqlite, fresh per mode");
    // The errors are of the center's merged estimate, which scales each phase by its own
    // instructions over its sampled ones (Store.estimate): the devices' phase_aware.scaling
    // shapes only their local estimates.
    o.setting("center.estimate_scaling", "phase");
    o.setting("hot_set", SamplingExperiment.HOT_SET);
    o.figure(
        Figure.lines(
            "sampled",
            "Total sampled fraction vs users (phase-aware, third)",
            "users",
            "sampled fraction, %",
            lines(series, Row::sampledFraction)));
    o.figure(
        Figure.lines(
            "count",
            "Count error of the center's merged estimate vs users",
            "users",
            "count error, %",
            lines(series, Row::countError)));
    o.figure(
        Figure.lines(
            "hot",
            "Top-15% hot-set error of the merged estimate vs users",
            "users",
            "hot-set error, %",
            lines(series, Row::hotError)));
    List<Figure.Series> tradeoff =
        series(series, r -> 100 * r.sampledFraction(), r -> 100 * r.countError());
    o.figure(
        Figure.points(
            "tradeoff",
            "Count error vs total sampled fraction (1 to " + g.users() + " users)",
            "sampled fraction, %",
            "count error, %",
            tradeoff));
    compare(o, series, byProgram);
    o.note(
        "Users run "
            + g.parallel()
            + " at once (the machine's cores), each on its own"
            + " thread, input (the items of --programs, in turn) and seed, against one center on"
            + " loopback with a fresh SQLite store per mode; a user hears of the uploads finished"
            + " before it started. The row for k users is the center's state after k uploads.");
    o.note(
        "Interval "
            + g.interval()
            + " application instructions, phase threshold 25%,"
            + " policy third, the center's 'enough' 1 sampled interval per phase.");
    o.note(
        "Hot-set error counts entries, as the paper defines it. hot_unseen is the number of"
            + " exhaustive hot entries that no sampled interval of any user saw: on `phases` they"
            + " are start-up branches that run only in each run's first interval, which the online"
            + " phase-aware daemon never samples (no prediction before the first interval ends),"
            + " so neither more users nor feedback reach them; weighted_hot_error shows they carry"
            + " about 1% of the hot set's executions (docs/benchmarks.md).");
    return o;
  }

  private static List<Row> simulate(RemoteSimulation sim, boolean feedback) {
    Path dir = null;
    try {
      dir = Files.createTempDirectory("acf-experiment-remote");
      Store store = Store.open(StoreUrl.parse("sqlite:" + dir.resolve("center.db")), 1);
      return sim.run(feedback, store, dir);
    } catch (IOException | StoreException e) {
      throw new ExperimentException("remote: the center on loopback failed: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ExperimentException("remote: interrupted");
    } finally {
      if (dir != null) {
        delete(dir);
      }
    }
  }

  private static void delete(Path dir) {
    try (var walk = Files.walk(dir)) {
      walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // a temporary directory left behind is harmless
    }
  }

  /** A fresh machine of one input with its own seed (and its own sandbox and limits). */
  /** A device's machine options: its own seed, the emulator's notices discarded. */
  private static Machine.Options options(long seed) {
    Machine.Options d = Machine.Options.defaults();
    return new Machine.Options(
        d.sandbox(),
        d.env(),
        seed,
        new PrintStream(OutputStream.nullOutputStream()),
        d.translateThreshold());
  }

  /** One line a series: {@code y} (a fraction, drawn in percent) against users. */
  private static List<Figure.Series> lines(Map<String, List<Row>> series, ToDoubleFunction<Row> y) {
    return series(series, Row::users, r -> 100 * y.applyAsDouble(r));
  }

  private static List<Figure.Series> series(
      Map<String, List<Row>> series, ToDoubleFunction<Row> x, ToDoubleFunction<Row> y) {
    List<Figure.Series> out = new ArrayList<>();
    series.forEach(
        (name, rows) -> {
          List<Double> xs = new ArrayList<>();
          List<Double> ys = new ArrayList<>();
          rows.forEach(
              r -> {
                xs.add(x.applyAsDouble(r));
                ys.add(y.applyAsDouble(r));
              });
          out.add(new Figure.Series(name, xs, ys));
        });
    return out;
  }

  private static void compare(
      Outcome o, Map<String, List<Row>> series, Map<Path, List<Workload>> byProgram) {
    for (Map.Entry<Path, List<Workload>> e : byProgram.entrySet()) {
      String program = e.getKey().getFileName().toString();
      int inputs = e.getValue().size();
      List<Row> off = series.get(program + ", feedback off");
      List<Row> on = series.get(program + ", feedback on");
      Row offLast = off.get(off.size() - 1);
      Row onLast = on.get(on.size() - 1);
      // Without feedback each device's tracker finds its phases on its own, as the paper's
      // "each input separately" (with feedback the center's phases are seeded into it).
      Row perInput =
          off.stream()
              .filter(r -> r.users() == Math.min(inputs, offLast.users()))
              .findFirst()
              .orElse(offLast);
      o.compare(
          program + ": phases to sample, each input separately vs unique across inputs",
          "gsmdecode, 5 inputs: 28 vs 18 (10 phases, 36%, shared across inputs; Fig. 10)",
          String.format(
              Locale.ROOT,
              "%d inputs: %d vs %d (%s fewer)",
              perInput.users(),
              perInput.devicePhases(),
              perInput.phases(),
              pct(1 - (double) perInput.phases() / Math.max(1, perInput.devicePhases()))),
          "Our inputs are schedules of the same four kernels, so nearly every phase recurs"
              + " across inputs.");
      o.compare(
          program
              + ": total sampled fraction at "
              + offLast.users()
              + " users, without vs with feedback",
          "not measured (the paper estimates the potential only: 36% fewer phases)",
          pct(offLast.sampledFraction()) + " vs " + pct(onLast.sampledFraction()),
          "With feedback later users sample only phases the center does not yet hold and"
              + " intervals the last-value predictor mispredicts.");
      o.compare(
          program
              + ": count error of the merged estimate at "
              + offLast.users()
              + " users, without vs with feedback",
          "5% at 4% sampled, one user (Section 3.2.4)",
          pct(offLast.countError()) + " vs " + pct(onLast.countError()),
          "With feedback the center's estimate of a phase rests on the early users' samples"
              + " instead of one per user.");
      o.compare(
          program
              + ": top-15% hot-set error at "
              + offLast.users()
              + " users, without vs with feedback",
          "< 10% at 1% sampled, hot methods and call pairs (Fig. 7), one user",
          pct(offLast.hotError())
              + " vs "
              + pct(onLast.hotError())
              + " ("
              + onLast.hotUnseen()
              + " of "
              + onLast.hotSize()
              + " hot entries never sampled; weighted "
              + pct(onLast.weightedHotError())
              + ")",
          "The missed entries are start-up branches of each run's first interval, which the"
              + " online daemon never samples on any device.");
    }
  }

  private static String pct(double f) {
    return String.format(Locale.ROOT, "%.1f%%", 100 * f);
  }
}
