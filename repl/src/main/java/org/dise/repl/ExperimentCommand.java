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
import org.dise.experiments.Workload;
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
      "  ./acf experiment all --out results",
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
      names = "--out",
      paramLabel = "DIR",
      description = "Where the results go (default: ${DEFAULT-VALUE}).")
  Path out = Path.of("experiments-out");

  @Override
  public Integer call() {
    if (name.equals("list")) {
      for (Experiment e : Experiments.all()) {
        System.out.printf("%-10s %s%n%-10s   %s%n", e.name(), e.reproduces(), "", e.summary());
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
                            Main.EXIT_USAGE)));
      }
    }
    try {
      for (Experiment e : chosen) {
        String list = programs != null ? programs : e.defaultPrograms(quick);
        List<Workload> ws = Workload.parseList(list, dir);
        Lab lab = new Lab(ws, quick, System.err);
        String command =
            "./acf experiment "
                + e.name()
                + " --programs "
                + String.join(",", ws.stream().map(Workload::spec).toList())
                + (quick ? " --quick" : "")
                + " --out "
                + out;
        ExperimentRunner.Written w =
            ExperimentRunner.run(e, lab, out, command, "acf " + Version.VERSION);
        w.outcome()
            .comparisons
            .forEach(
                c ->
                    System.out.printf(
                        "%-8s %s: paper %s, ours %s%n", e.name(), c.what(), c.paper(), c.ours()));
      }
    } catch (ExperimentException e) {
      throw new UserError(e.getMessage(), Main.EXIT_USAGE);
    }
    return 0;
  }
}
