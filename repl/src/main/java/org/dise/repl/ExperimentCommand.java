package org.dise.repl;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.dise.experiments.Experiment;
import org.dise.experiments.ExperimentException;
import org.dise.experiments.ExperimentRunner;
import org.dise.experiments.Experiments;
import org.dise.experiments.Lab;
import org.dise.experiments.Plans;
import org.dise.experiments.Results;
import org.dise.experiments.RunStatus;
import org.dise.experiments.Workload;
import org.dise.repl.common.ExitStatus;
import org.dise.repl.common.RunTiming;
import org.dise.repl.common.UserError;
import org.dise.repl.common.Version;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code acf experiment}: reproduce a paper's figure with one command (experiments/README.md). */
@Command(
    name = "experiment",
    description =
        "Reproduce a figure or table of the papers: run the experiment on the"
            + " workloads and write DIR/NAME.csv, DIR/NAME.png and .svg, and DIR/index.html (a"
            + " self-contained report: figures, the paper's numbers beside ours, commands,"
            + " program hashes).",
    footer = {
      "",
      "`acf experiment list` names every experiment and what it reproduces. Progress",
      "goes to stderr; --quick runs a small parameter grid on one small program, in a",
      "few minutes. docs/reproduction.md holds a full run beside the papers.",
      "",
      "Examples:",
      "  ./acf experiment list",
      "  ./acf experiment overhead --quick --out results",
      "  ./acf experiment sampling --programs phases,jpeg:1 --out results",
      "  ./acf experiment rap --set code_range_bits=64,32 --out results",
      "  ./acf experiment all --out results",
      "  ./acf experiment overhead --quick --executor local --jobs 2 --out results",
      "  ./acf experiment overhead --executor slurm --slurm-time 60 --out /shared/r",
      "  ./acf experiment overhead --plan",
      "  ./acf experiment overhead --run 3 --out results",
      "  ./acf experiment overhead --status results",
      "  ./acf experiment overhead --collect results",
      "",
      "Each experiment is a plan of runs (--plan prints it, a JSON line each); a run's",
      "result goes to DIR/runs/ID.json, and a run with a result is not run again. The",
      "options that choose the runs (--programs, --quick, --set) must be the same for",
      "--plan, --run, --status and --collect. docs/scaling.md: other schedulers.",
    },
    mixinStandardHelpOptions = true)
public final class ExperimentCommand implements Callable<Integer> {
  @Parameters(
      index = "0",
      paramLabel = "NAME",
      description =
          "An experiment (see `acf experiment list`), several separated by commas,"
              + " `all`, or `list`.")
  String name;

  @Option(
      names = "--programs",
      paramLabel = "LIST",
      description =
          "Comma-separated programs, each NAME[:ARG...] (a program in --dir or a"
              + " path; `phases:2` runs `phases 2`); default: the experiment's own.")
  String programs;

  @Option(
      names = "--dir",
      paramLabel = "DIR",
      description = "Where program names are found (default: ${DEFAULT-VALUE}).")
  Path dir = Path.of("examples/programs/bin");

  @Option(names = "--quick", description = "A small grid on a small program, for tests.")
  boolean quick;

  @Option(
      names = "--set",
      paramLabel = "NAME=VALUE",
      description =
          "Change one of the experiment's settings (repeatable); `acf experiment list`"
              + " names each experiment's settings and their defaults.")
  java.util.Map<String, String> set = new java.util.LinkedHashMap<>();

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description = "Where the results go (default: ${DEFAULT-VALUE}).")
  Path out = Path.of("experiments-out");

  @Option(
      names = "--timing",
      paramLabel = "MODEL",
      description =
          "The cycle model of overhead and energy: ooo (the default: the first paper's core,"
              + " measured, spec/timing.md), inorder, or analytic (one cycle per event,"
              + " spec/cost-model.md).")
  String timing = "ooo";

  /** --timing-config FILE, as acf run and acf sweep take it. */
  @picocli.CommandLine.Mixin TimingFileOption timingFile = new TimingFileOption();

  @picocli.CommandLine.Mixin PlanOptions exec = new PlanOptions();

  /**
   * The timing options as acf run's record of them ({@link RunTiming}: no sampled timing here),
   * checked when a run uses them.
   */
  RunTiming timingValues() {
    return new RunTiming(timing, timingFile.configFile, null);
  }

  @Override
  public Integer call() {
    // acf run's check of the model and its file (--timing-config needs a model), before anything.
    org.dise.runtime.timing.TimingConfig timed = timingValues().config();
    if (name.equals("list")) {
      for (Experiment e : Experiments.all()) {
        System.out.printf("%-10s %s%n%-10s   %s%n", e.name(), e.reproduces(), "", e.summary());
        for (Experiment.Option o : e.options()) {
          System.out.printf(
              "%-10s   --set %s=%s (--quick: %s): %s%n",
              "", o.name(), o.fullDefault(), o.quickDefault(), o.doc());
        }
      }
      return 0;
    }
    List<Experiment> chosen = new ArrayList<>();
    if (name.equals("all")) {
      chosen.addAll(Experiments.all());
    } else {
      for (String one : name.split(",")) {
        chosen.add(
            Experiments.named(one)
                .orElseThrow(
                    () ->
                        new UserError(
                            "no experiment `" + one + "`; `acf experiment list` names them",
                            ExitStatus.USAGE)));
      }
    }
    for (String key : set.keySet()) {
      if (chosen.stream()
          .noneMatch(e -> e.options().stream().anyMatch(o -> o.name().equals(key)))) {
        List<String> known = new ArrayList<>();
        chosen.forEach(e -> e.options().forEach(o -> known.add(o.name())));
        throw new UserError(
            "--set "
                + key
                + ": "
                + (chosen.size() == 1
                    ? "experiment " + chosen.get(0).name()
                    : "no chosen experiment")
                + " has no setting `"
                + key
                + "`"
                + (known.isEmpty()
                    ? " (it has none)"
                    : " (settings: " + String.join(", ", known) + ")"),
            ExitStatus.USAGE);
      }
    }
    String version = "acf " + Version.VERSION;
    try {
      java.util.Map<Experiment, Lab> labs = new java.util.LinkedHashMap<>();
      java.util.Map<Experiment, String> commands = new java.util.LinkedHashMap<>();
      for (Experiment e : chosen) {
        String list = programs != null ? programs : e.defaultPrograms(quick);
        List<Workload> ws = Workload.parseList(list, dir);
        java.util.Map<String, String> own = new java.util.LinkedHashMap<>();
        StringBuilder sets = new StringBuilder();
        for (Experiment.Option o : e.options()) {
          if (set.containsKey(o.name())) {
            own.put(o.name(), set.get(o.name()));
            sets.append(" --set ").append(o.name()).append('=').append(set.get(o.name()));
          }
        }
        labs.put(e, new Lab(ws, quick, System.err).set(own).timing(timed));
        commands.put(
            e,
            "./acf experiment "
                + e.name()
                + " --programs "
                + String.join(",", ws.stream().map(Workload::spec).toList())
                + (quick ? " --quick" : "")
                + sets
                + (timing.equals("ooo") ? "" : " --timing " + timing)
                + (timingFile.configFile == null ? "" : " --timing-config " + timingFile.configFile)
                + " --out "
                + out);
      }
      List<Plans.Planned> planned = Plans.plan(labs);
      if (exec.plan) {
        planned.forEach(p -> System.out.println(p.jsonLine()));
        return 0;
      }
      if (exec.status != null) {
        return RunStatus.print(planned, new Results(exec.status, version), System.out);
      }
      if (exec.run != null) {
        return exec.runs(planned, new Results(out, version));
      }
      Path into = exec.collect != null ? exec.collect : out;
      if (exec.collect == null) {
        for (Experiment e : chosen) {
          Lab lab = labs.get(e);
          lab.progress(
              "%s: %s on %d program(s)%s",
              e.name(), e.reproduces(), lab.workloads().size(), quick ? " (quick)" : "");
        }
        Results results = new Results(into, version);
        PlanOptions.debugPlan(planned, results);
        exec.executor(k -> Workers.command(workerArgs(into, k)), "acf-" + name.replace(',', '-'))
            .execute(planned, results, exec.retry);
        if (exec.submitOnly()) {
          return 0; // --status and --collect take over
        }
      }
      for (Experiment e : chosen) {
        ExperimentRunner.Written w =
            ExperimentRunner.collect(e, labs.get(e), into, commands.get(e), version);
        w.outcome()
            .comparisons
            .forEach(
                c ->
                    System.out.printf(
                        "%-8s %s: paper %s, ours %s%n", e.name(), c.what(), c.paper(), c.ours()));
      }
    } catch (ExperimentException e) {
      throw new UserError(e.getMessage(), ExitStatus.USAGE);
    }
    return 0;
  }

  /**
   * This command's arguments for the worker of run {@code k}; the output directory absolute, the
   * programs as given, since the guest sees their paths (the worker runs in this directory).
   */
  private List<String> workerArgs(Path into, String k) {
    List<String> a = new ArrayList<>(List.of("experiment", name));
    if (programs != null) {
      a.add("--programs");
      a.add(programs); // as given: a program's path is its argv[0] (workers share our cwd)
    }
    a.add("--dir");
    a.add(dir.toString());
    if (quick) {
      a.add("--quick");
    }
    set.forEach((key, v) -> a.add("--set=" + key + "=" + v));
    a.add("--timing");
    a.add(timing);
    a.addAll(timingFile.arguments());
    a.add("--out");
    a.add(into.toAbsolutePath().toString());
    a.add("--run");
    a.add(k);
    return a;
  }
}
