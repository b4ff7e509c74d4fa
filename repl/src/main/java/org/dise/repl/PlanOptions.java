package org.dise.repl;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dise.experiments.Executor;
import org.dise.experiments.InProcessExecutor;
import org.dise.experiments.LocalExecutor;
import org.dise.experiments.Plans;
import org.dise.experiments.Results;
import org.dise.experiments.SlurmExecutor;
import org.dise.repl.common.ExitStatus;
import org.dise.repl.common.UserError;
import picocli.CommandLine.Option;

/**
 * The options of a command whose work is a plan of runs ({@code acf experiment}, {@code acf
 * sweep}): print the plan, run one run, collect, show the status, and which executor runs the rest
 * (experiments/README.md, docs/scaling.md).
 */
final class PlanOptions {
  @Option(
      names = "--plan",
      description = "Print the runs of the plan, one JSON line each, and stop.")
  boolean plan;

  @Option(
      names = "--run",
      paramLabel = "K",
      split = ",",
      splitSynopsisLabel = ",",
      description =
          "Run only run K of the plan (from 0), unless it has a result; several, comma-separated,"
              + " one after another in this process.")
  List<Integer> run;

  @Option(
      names = "--collect",
      paramLabel = "DIR",
      description = "Build the results (CSVs, figures, report) from the runs' results in DIR.")
  Path collect;

  @Option(
      names = "--status",
      paramLabel = "DIR",
      description = "Show which runs of the plan are done, running, failed or pending in DIR.")
  Path status;

  @Option(
      names = "--executor",
      paramLabel = "KIND",
      description =
          "local (worker processes on this machine) or slurm (one sbatch --array);"
              + " default: ${DEFAULT-VALUE}.")
  String executor = "local";

  @Option(
      names = "--jobs",
      paramLabel = "N",
      description =
          "Local worker processes at once (default: the number of cores; 1 runs every run in"
              + " this process).")
  Integer jobs;

  @Option(names = "--retry", description = "Run the runs that failed again (others never are).")
  boolean retry;

  @Option(names = "--slurm-partition", paramLabel = "P", description = "sbatch --partition.")
  String slurmPartition;

  @Option(names = "--slurm-time", paramLabel = "T", description = "sbatch --time, per run.")
  String slurmTime;

  @Option(names = "--slurm-mem", paramLabel = "M", description = "sbatch --mem, per run.")
  String slurmMem;

  @Option(
      names = "--sbatch",
      paramLabel = "OPT",
      description = "A further sbatch option, passed through (repeatable): --sbatch=--account=x.")
  List<String> sbatch = new ArrayList<>();

  @Option(
      names = "--no-wait",
      description = "With --executor slurm: return once submitted (then --status, --collect).")
  boolean noWait;

  /**
   * Whether the executor only submits ({@code --executor slurm --no-wait}): nothing to collect yet.
   */
  boolean submitOnly() {
    return executor.equals("slurm") && noWait;
  }

  /**
   * Runs {@code --run K[,K...]} of {@code plan} here, each unless it has a result. One run's
   * failure is its error (a usage error, as before); of several, the others still run, and the
   * status is a failure if any failed.
   */
  /**
   * --verbose: how many runs the plan has, how many already have a result, and where the results
   * go.
   */
  static void debugPlan(List<Plans.Planned> plan, Results results) {
    if (!org.dise.repl.common.Verbosity.verbose()) {
      return;
    }
    long held =
        plan.stream().filter(p -> java.nio.file.Files.exists(results.result(p.spec()))).count();
    org.dise.repl.common.Verbosity.debug(
        System.err,
        "plan: "
            + plan.size()
            + " run(s), "
            + held
            + " with a result already; results in "
            + results.dir());
  }

  int runs(List<Plans.Planned> plan, Results results) {
    int status = 0;
    for (int k : run) {
      if (k < 0 || k >= plan.size()) {
        throw new UserError(
            "--run " + k + ": the plan has runs 0 to " + (plan.size() - 1), ExitStatus.USAGE);
      }
    }
    for (int k : run) {
      Plans.Planned p = plan.get(k);
      try {
        long t0 = System.nanoTime();
        boolean ran = Plans.runOne(p, results);
        org.dise.repl.common.Verbosity.debug(
            System.err,
            "run %d (%s, id %s): %.1f s",
            k,
            p.spec().label(),
            p.spec().id(),
            (System.nanoTime() - t0) / 1e9);
        System.err.println(
            "run "
                + k
                + " ("
                + p.spec().label()
                + "): "
                + (ran ? "done" : "has a result, skipped"));
      } catch (RuntimeException e) {
        if (run.size() == 1) {
          throw e;
        }
        System.err.println("run " + k + " (" + p.spec().label() + "): FAILED: " + e.getMessage());
        status = ExitStatus.FAILURE;
      }
    }
    return status;
  }

  /** The executor the options choose; its workers run {@code worker}'s command for run K. */
  Executor executor(Executor.Worker worker, String jobName) {
    switch (executor) {
      case "local" -> {
        int n = jobs != null ? jobs : Runtime.getRuntime().availableProcessors();
        org.dise.repl.common.Verbosity.debug(
            System.err,
            "executor local: "
                + (n == 1 ? "every run in this process" : n + " worker processes")
                + (jobs != null ? " (--jobs)" : " (one per core)"));
        return n == 1 ? new InProcessExecutor() : new LocalExecutor(n, worker);
      }
      case "slurm" -> {
        org.dise.repl.common.Verbosity.debug(
            System.err,
            "executor slurm: job "
                + jobName
                + (slurmPartition == null ? "" : ", partition " + slurmPartition)
                + (noWait ? ", returning once submitted" : ", waiting for the array"));
        return new SlurmExecutor(
            new SlurmExecutor.Options(
                slurmPartition, slurmTime, slurmMem, new ArrayList<>(sbatch), jobName, !noWait),
            worker);
      }
      default ->
          throw new UserError("--executor " + executor + ": local or slurm", ExitStatus.USAGE);
    }
  }
}
