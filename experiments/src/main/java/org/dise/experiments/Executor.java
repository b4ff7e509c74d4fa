package org.dise.experiments;

import java.util.List;

/**
 * Runs a plan's runs that have no result yet: here ({@link InProcessExecutor}), in a pool of worker
 * processes ({@link LocalExecutor}) or as one SLURM job array ({@link SlurmExecutor}). A worker is
 * {@code acf experiment NAME --run K --out DIR} (or {@code acf sweep ... --run K}): the executors
 * only start it, so that any scheduler can (docs/scaling.md).
 */
public interface Executor {
  /**
   * Runs every run of {@code plan} without a result in {@code results} (those that failed, only
   * with {@code retry}; those under way elsewhere, not at all), and returns once each has ended.
   *
   * @throws ExperimentException naming the runs that failed, with their logs
   */
  default void execute(List<Plans.Planned> plan, Results results, boolean retry) {
    List<Plans.Planned> todo = Executors.todo(plan, results, retry);
    if (!todo.isEmpty()) {
      run(todo, results, retry);
    }
  }

  /** Runs {@code todo}, the runs {@link #execute} chose (at least one), as this executor does. */
  void run(List<Plans.Planned> todo, Results results, boolean retry);

  /** The command line of the worker that runs plan index {@code k} (a number, or a shell word). */
  @FunctionalInterface
  interface Worker {
    List<String> command(String k);
  }
}
