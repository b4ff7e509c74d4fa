package org.dise.repl;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.dise.experiments.ExperimentException;
import org.dise.experiments.Lab;
import org.dise.experiments.Plans;
import org.dise.experiments.Results;
import org.dise.experiments.RunStatus;
import org.dise.experiments.Workload;
import org.dise.repl.common.ExitStatus;
import org.dise.repl.common.GuestFileOptions;
import org.dise.repl.common.RunGuest;
import org.dise.repl.common.RunSampling;
import org.dise.repl.common.UserError;
import org.dise.repl.common.Verbosity;
import org.dise.repl.common.Version;
import org.dise.runtime.Machine;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.dise.ProfilingEngine;
import org.dise.runtime.linux.HostNames;
import org.dise.runtime.profiles.sampling.SamplingRun;
import org.dise.runtime.profiles.sampling.Sweep;
import org.dise.runtime.session.ProfilingSession;
import org.dise.runtime.session.SessionOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code acf sweep}: accuracy versus sampled fraction for every sampling strategy. */
@Command(
    name = "sweep",
    description =
        "Run workloads under periodic, random and phase-aware sampling over a range of"
            + " N, P (several seeds) and thresholds, and write accuracy versus sampled fraction"
            + " as CSV (spec/sampling.md).",
    footer = {
      "",
      "Each workload runs once exhaustively (the exact profile), then once per setting;"
          + " the count error and hot-set error of the first sink's estimate are the papers'"
          + " metrics. The table at the end gives, per strategy, the smallest sampled fraction"
          + " with a count error of at most --target.",
      "",
      "Examples:",
      "  ./acf sweep --acf examples/acf/sampled_regions.acf --out sweep.csv",
      "  ./acf sweep --acf examples/acf/sampled_regions.acf --interval 1M \\",
      "      --workload 'phases 4' --workload 'jpeg 1' --seeds 1,2,3 --out sweep.csv",
      "  ./acf sweep --acf examples/acf/sampled_regions.acf --allow-read data \\",
      "      --stdin data/input.txt --workload 'prog data/table.csv' --out sweep.csv",
      "  ./acf sweep --acf examples/acf/sampled_regions.acf --timing ooo \\",
      "      --out sweep.csv",
      "  ./acf sweep --acf examples/acf/sampled_regions.acf --executor slurm \\",
      "      --slurm-time 60 --out /shared/sweep.csv",
      "",
      "One run per workload (--plan prints them); each writes its result to",
      "DIR/runs/ID.json under --runs DIR (default: --out with .runs), and a run with a",
      "result is not run again. --executor local (worker processes, --jobs N) or slurm;",
      "--run K, --status DIR, --collect DIR as for acf experiment (docs/scaling.md).",
    },
    mixinStandardHelpOptions = true)
public final class SweepCommand implements Callable<Integer> {
  @Option(
      names = "--acf",
      paramLabel = "FILE",
      description =
          "The productions (with the external trigger productions, e.g. `import"
              + " sampling; use external_trigger;`); repeat to compose.")
  List<Path> acfs = new ArrayList<>();

  @Option(
      names = "--workload",
      paramLabel = "'NAME ARGS'",
      description =
          "A program (a name in --dir, or a path) and its arguments; repeatable"
              + " (default: 'phases 4', 'jpeg 1', 'lz77 1', 'adpcm 1').")
  List<String> workloads = new ArrayList<>();

  @Option(
      names = "--dir",
      paramLabel = "DIR",
      description = "Where workload names are found (default: ${DEFAULT-VALUE}).")
  Path dir = Path.of("examples/programs/bin");

  @Option(
      names = "--interval",
      paramLabel = "N",
      description = "Interval length in application instructions (default: ${DEFAULT-VALUE}).")
  String interval = "1M";

  @Option(
      names = "--thresholds",
      paramLabel = "T",
      split = ",",
      splitSynopsisLabel = ",",
      description = "Phase tracker thresholds, percent (default: 5,10,15,25,40,60).")
  List<Double> thresholds = new ArrayList<>(List.of(5.0, 10.0, 15.0, 25.0, 40.0, 60.0));

  @Option(
      names = "--periods",
      paramLabel = "N",
      split = ",",
      splitSynopsisLabel = ",",
      description = "Periodic: every Nth interval (default: 2,3,5,8,12,20,30).")
  List<Long> periods = new ArrayList<>(List.of(2L, 3L, 5L, 8L, 12L, 20L, 30L));

  @Option(
      names = "--one-in",
      paramLabel = "P",
      split = ",",
      splitSynopsisLabel = ",",
      description = "Random: probability 1/P (default: 2,3,5,8,12,20,30).")
  List<Long> oneIns = new ArrayList<>(List.of(2L, 3L, 5L, 8L, 12L, 20L, 30L));

  @Option(
      names = "--seeds",
      paramLabel = "S",
      split = ",",
      splitSynopsisLabel = ",",
      description = "Random: seeds, averaged per P (default: 1,2,3).")
  List<Long> seeds = new ArrayList<>(List.of(1L, 2L, 3L));

  @Option(
      names = "--policy",
      paramLabel = "POLICY",
      description =
          "Phase-aware representative policy: first, third, or the oracles"
              + " centroid and random (default: ${DEFAULT-VALUE}).")
  String policy = "third";

  @Option(
      names = "--predictor",
      paramLabel = "KIND",
      description = "Phase predictor: last, markov or oracle (default: ${DEFAULT-VALUE}).")
  String predictor = "last";

  @Option(
      names = "--target",
      paramLabel = "E",
      split = ",",
      splitSynopsisLabel = ",",
      description = "Count errors, percent, for the summary tables (default: 5).")
  List<Double> targets = new ArrayList<>(List.of(5.0));

  @Option(
      names = "--from",
      paramLabel = "FILE",
      description = "Print the summary tables of a CSV an earlier sweep wrote, without running.")
  Path from;

  @Option(names = "--out", paramLabel = "FILE", description = "Write the points as CSV here.")
  Path out;

  /** --sysroot, --allow-read, --allow-write: the workloads' files, as acf run takes them. */
  @picocli.CommandLine.Mixin GuestFileOptions files = new GuestFileOptions();

  @Option(
      names = "--stdin",
      paramLabel = "FILE",
      description =
          "Give every run of every workload this file as its standard input" + " (default: empty).")
  Path stdin;

  @Option(
      names = "--runs",
      paramLabel = "DIR",
      description =
          "Where each workload's run writes its result (DIR/runs/ID.json; runs with a result"
              + " are not run again); default: --out's name with .runs, or sweep-runs.")
  Path runs;

  @picocli.CommandLine.Mixin PlanOptions exec = new PlanOptions();

  /**
   * --timing MODEL: each sampled run measured by a timing model; the CSV gains its cycles, CPI,
   * MPKIs and overhead.
   */
  @picocli.CommandLine.Mixin TimingOptions timing = new TimingOptions();

  @Parameters(arity = "0", hidden = true)
  List<String> none = new ArrayList<>();

  @Override
  public Integer call() {
    if (from != null) {
      try {
        summary(Sweep.readCsv(Files.readAllLines(from, StandardCharsets.UTF_8)), -1);
      } catch (IOException e) {
        throw new UserError("--from " + from + ": cannot read: " + UserError.why(e));
      } catch (IllegalArgumentException e) {
        throw new UserError("--from " + from + ": cannot read: " + e.getMessage());
      }
      return 0;
    }
    if (acfs.isEmpty()) {
      throw new UserError("acf sweep needs --acf (or --from)", ExitStatus.USAGE);
    }
    // Checked now: the CSV is written after every run, minutes later.
    Path outDir = out == null ? null : out.toAbsolutePath().getParent();
    if (outDir != null && !Files.isDirectory(outDir)) {
      throw new UserError("--out " + out + ": no such directory " + outDir, ExitStatus.USAGE);
    }
    // acf run's checks of the options it shares, before the ACFs are read or anything runs.
    long iv = RunSampling.interval(interval);
    org.dise.runtime.timing.TimingConfig timed = timing.config(); // a bad model fails here
    ProductionSet set = AcfLoader.load(acfs);
    if (workloads.isEmpty()) {
      workloads = List.of("phases 4", "jpeg 1", "lz77 1", "adpcm 1");
    }
    Sweep.Plan plan = new Sweep.Plan(iv, thresholds, periods, oneIns, seeds, policy, predictor);
    if (stdin != null && !Files.isReadable(stdin)) {
      throw new UserError(
          "--stdin " + stdin + ": cannot read: no such file or not readable", ExitStatus.USAGE);
    }
    // The workloads' guest as acf run makes it (and refuses a wrong --sysroot), its notes unsaid.
    Machine.Options options =
        RunGuest.measured(files.values(), Machine.Options.DEFAULT_TRANSLATE_THRESHOLD)
            .machine(
                HostNames.workingDirectory(), new PrintStream(OutputStream.nullOutputStream()));
    List<Workload> ws = new ArrayList<>();
    for (String w : workloads) {
      List<String> words = new ArrayList<>(Arrays.asList(w.trim().split("\\s+")));
      Path program = words.get(0).contains("/") ? Path.of(words.get(0)) : dir.resolve(words.get(0));
      List<String> args = words.subList(1, words.size());
      String name = program.getFileName() + (args.isEmpty() ? "" : " " + String.join(" ", args));
      if (!Files.isRegularFile(program)) {
        throw new UserError(
            "--workload " + w + ": " + program + ": no such program", ExitStatus.USAGE);
      }
      ws.add(new Workload(name, program, args));
    }
    SweepRuns sweep =
        new SweepRuns(
            specSettings(plan),
            w -> {
              String name = w.label();
              List<org.dise.runtime.timing.TimingRun> measured = new ArrayList<>();
              SamplingRun.Setup setup =
                  ProfilingSession.of(
                          new SessionOptions(w.program(), w.args(), acfs, null, null, -1, true),
                          options,
                          set)
                      .bound(System.err, "nothing was run") // each its own addresses
                      .preparing(
                          m -> {
                            m.kernel().setStdio(0, input(), null);
                            m.kernel().setStdio(1, null, OutputStream.nullOutputStream());
                          })
                      .sampling(
                          new ProfilingSession.Hooks() {
                            @Override
                            public void started(
                                String pass,
                                org.dise.runtime.dise.TriggerDriver driver,
                                Machine machine,
                                ProfilingEngine engine) {
                              // Only the sampled runs are measured; the first pass is the
                              // reference.
                              if (timed != null && pass.equals("sampled run")) {
                                measured.add(
                                    new org.dise.runtime.timing.TimingRun(timed)
                                        .attach(machine.cpu()));
                              }
                            }

                            @Override
                            public java.io.InputStream firstPassInput() {
                              return input();
                            }
                          });
              try {
                long t0 = System.nanoTime();
                List<Sweep.Point> pts = Sweep.run(name, setup, plan, System.err);
                Verbosity.debug(
                    System.err,
                    "%s: %d sampled configuration(s) in %.1f s",
                    name,
                    pts.size(),
                    (System.nanoTime() - t0) / 1e9);
                return new SweepRuns.Swept(pts, measured);
              } catch (IllegalArgumentException e) {
                throw new UserError("sweep: " + e.getMessage(), ExitStatus.USAGE);
              }
            });
    Lab lab = new Lab(ws, false, System.err);
    List<Plans.Planned> planned = Plans.plan(Map.of(sweep, lab));
    String version = "acf " + Version.VERSION;
    Path into =
        exec.collect != null
            ? exec.collect
            : exec.status != null
                ? exec.status
                : runs != null ? runs : Path.of(out == null ? "sweep-runs" : out + ".runs");
    List<Sweep.Point> points;
    List<List<String>> timingColumns;
    try {
      if (exec.plan) {
        planned.forEach(p -> System.out.println(p.jsonLine()));
        return 0;
      }
      Results results = new Results(into, version);
      if (exec.status != null) {
        return RunStatus.print(planned, results, System.out);
      }
      if (exec.run != null) {
        return exec.runs(planned, results);
      }
      if (exec.collect == null) {
        PlanOptions.debugPlan(planned, results);
        exec.executor(k -> Workers.command(workerArgs(into, k)), "acf-sweep")
            .execute(planned, results, exec.retry);
        if (exec.submitOnly()) {
          return 0; // --status and --collect take over
        }
      }
      List<JsonNode> values =
          Plans.results(sweep, lab, results).stream().map(Results.Result::value).toList();
      points = SweepRuns.points(values);
      timingColumns = SweepRuns.timing(values);
    } catch (ExperimentException e) {
      throw new UserError(e.getMessage(), ExitStatus.USAGE);
    }
    if (out != null) {
      try (Writer wr = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
        Map<String, String> shared = new java.util.LinkedHashMap<>(Sweep.settings(plan));
        if (timed != null) {
          timed.values().forEach((k, v) -> shared.put("timing." + k, v));
        }
        java.io.StringWriter csv = new java.io.StringWriter();
        Sweep.writeCsv(points, shared, csv);
        wr.write(withTiming(csv.toString(), timingColumns));
      } catch (IOException e) {
        throw new UserError("--out " + out + ": cannot write: " + UserError.why(e));
      }
    }
    summary(points, iv);
    if (timed != null) {
      timingSummary(points, timingColumns);
    }
    return 0;
  }

  /** The CSV with each row's timing columns at its end (unchanged when no point was timed). */
  static String withTiming(String csv, List<List<String>> timing) {
    if (timing.stream().allMatch(List::isEmpty)) {
      return csv;
    }
    String[] lines = csv.split("\n", -1);
    StringBuilder b = new StringBuilder();
    b.append(lines[0]).append(',').append(String.join(",", SweepRuns.TIMING_COLUMNS)).append('\n');
    for (int i = 1; i < lines.length; i++) {
      if (lines[i].isEmpty()) {
        continue;
      }
      List<String> t = i - 1 < timing.size() ? timing.get(i - 1) : List.of();
      b.append(lines[i]);
      for (int k = 0; k < SweepRuns.TIMING_COLUMNS.size(); k++) {
        b.append(',').append(k < t.size() ? t.get(k) : "");
      }
      b.append('\n');
    }
    return b.toString();
  }

  /** Each point's measured overhead beside its sampled fraction. */
  private static void timingSummary(List<Sweep.Point> points, List<List<String>> timing) {
    System.out.println(
        "timing: overhead of each sampled run (profiled cycles over the application's)");
    int overhead = SweepRuns.TIMING_COLUMNS.indexOf("timing_overhead_pct");
    int cpi = SweepRuns.TIMING_COLUMNS.indexOf("cpi_profiled");
    for (int i = 0; i < points.size(); i++) {
      Sweep.Point p = points.get(i);
      List<String> t = timing.get(i);
      if (t.isEmpty()) {
        continue;
      }
      System.out.printf(
          Locale.ROOT,
          "  %-12s %-14s %-8s seed %-3d sampled %6.2f%%  overhead %s%%  CPI %s  (%s)%n",
          p.workload(),
          p.strategy(),
          p.parameter(),
          p.seed(),
          100 * p.sampledFraction(),
          t.get(overhead),
          t.get(cpi),
          t.get(0));
    }
  }

  /** What every workload's run depends on besides its program: the ACFs, the plan, the input. */
  private Map<String, String> specSettings(Sweep.Plan plan) {
    Map<String, String> s = new java.util.TreeMap<>();
    StringBuilder acf = new StringBuilder();
    for (Path p : acfs) {
      try {
        acf.append("// ").append(p).append('\n').append(Files.readString(p)).append('\n');
      } catch (IOException e) {
        throw new UserError("--acf " + p + ": cannot read: " + UserError.why(e));
      }
    }
    s.put("acf", acf.toString());
    s.put("interval", Long.toString(plan.interval()));
    s.put("thresholds", plan.thresholds().toString());
    s.put("periods", plan.periods().toString());
    s.put("one_in", plan.oneIns().toString());
    s.put("seeds", plan.seeds().toString());
    s.put("policy", plan.policy());
    s.put("predictor", plan.predictor());
    s.put("allow_read", files.allowRead.toString());
    s.put("allow_write", files.allowWrite.toString());
    if (stdin != null) {
      s.put("stdin", stdin + " " + new Workload("stdin", stdin, List.of()).sha256());
    }
    if (timing.values().active()) {
      s.putAll(Lab.timingSettings(timing.config())); // a timed run is another run
    }
    return s;
  }

  /** --stdin's file, opened afresh for each run (empty without --stdin). */
  private java.io.InputStream input() {
    if (stdin == null) {
      return java.io.InputStream.nullInputStream();
    }
    try {
      return new java.io.BufferedInputStream(Files.newInputStream(stdin));
    } catch (IOException e) {
      throw new UserError("--stdin " + stdin + ": cannot read: " + UserError.why(e));
    }
  }

  /** This command's arguments for the worker of run {@code k} (the same cwd: paths as given). */
  List<String> workerArgs(Path into, String k) {
    List<String> a = new ArrayList<>(List.of("sweep"));
    acfs.forEach(p -> a.addAll(List.of("--acf", p.toString())));
    workloads.forEach(w -> a.addAll(List.of("--workload", w)));
    a.addAll(List.of("--dir", dir.toString(), "--interval", interval));
    a.add("--thresholds=" + join(thresholds));
    a.add("--periods=" + join(periods));
    a.add("--one-in=" + join(oneIns));
    a.add("--seeds=" + join(seeds));
    a.addAll(List.of("--policy", policy, "--predictor", predictor));
    a.addAll(files.arguments());
    if (stdin != null) {
      a.addAll(List.of("--stdin", stdin.toString()));
    }
    a.addAll(timing.arguments());
    a.addAll(List.of("--runs", into.toAbsolutePath().toString(), "--run", k));
    return a;
  }

  private static String join(List<?> xs) {
    return String.join(",", xs.stream().map(String::valueOf).toList());
  }

  private void summary(List<Sweep.Point> points, long iv) {
    for (double target : targets) {
      System.out.printf(
          Locale.ROOT,
          "sampled fraction at <= %.1f%% count error%s%n",
          target,
          iv < 0 ? "" : String.format(" (interval %,d)", iv));
      Map<String, Map<String, Double>> table = Sweep.fractionAtError(points, target / 100);
      table.forEach(
          (w, byStrategy) -> {
            StringBuilder sb = new StringBuilder(String.format("  %-12s", w));
            byStrategy.forEach(
                (s, f) ->
                    sb.append(
                        String.format(
                            Locale.ROOT,
                            "  %s %s",
                            s,
                            f == null
                                ? "not reached"
                                : String.format(Locale.ROOT, "%.1f%%", 100 * f))));
            System.out.println(sb);
          });
    }
  }
}
