package org.dise.experiments;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** What the executors share: the lines they print and the error they end with. */
final class Executors {
  private Executors() {}

  /**
   * The runs of {@code plan} to run now ({@link Plans#todo}: no result, not under way elsewhere;
   * {@code retry}: failed ones too), having said which are not run now.
   */
  static List<Plans.Planned> todo(List<Plans.Planned> plan, Results results, boolean retry) {
    List<Plans.Planned> todo = Plans.todo(plan, results, new Liveness(results)::live, retry);
    skipped(plan, todo, results);
    return todo;
  }

  /** Says which runs are not run now: those with a result, failed ones, those under way. */
  private static void skipped(List<Plans.Planned> plan, List<Plans.Planned> todo, Results results) {
    if (todo.size() == plan.size() || plan.isEmpty()) {
      return;
    }
    java.util.Set<Plans.Planned> now = new java.util.HashSet<>(todo);
    int done = 0;
    int failed = 0;
    int live = 0;
    for (Plans.Planned p : plan) {
      if (!now.contains(p)) {
        switch (results.state(p.spec())) {
          case DONE -> done++;
          case FAILED -> failed++;
          default -> live++;
        }
      }
    }
    plan.get(0)
        .lab()
        .progress(
            "%d of %d runs not run now: %d have a result, %d failed (--retry runs them again),"
                + " %d under way (%s)",
            plan.size() - todo.size(), plan.size(), done, failed, live, results.dir());
  }

  /** Throws, naming the runs of {@code ran} that have no result, if any. */
  static void checkDone(
      List<Plans.Planned> ran,
      Results results,
      java.util.function.Function<RunSpec, java.nio.file.Path> log) {
    List<String> failed = new ArrayList<>();
    for (Plans.Planned p : ran) {
      if (results.read(p.spec()).isEmpty()) {
        String why = results.failure(p.spec()).lines().findFirst().orElse("no result");
        failed.add(
            String.format(
                Locale.ROOT,
                "  run %d (%s): %s; log %s",
                p.index(),
                p.spec().label(),
                why,
                log.apply(p.spec())));
      }
    }
    if (!failed.isEmpty()) {
      throw new ExperimentException(
          failed.size()
              + " of "
              + ran.size()
              + " runs failed (`--status` lists them, `--retry` runs them again):\n"
              + String.join("\n", failed.subList(0, Math.min(10, failed.size())))
              + (failed.size() > 10 ? "\n  ..." : ""));
    }
  }
}
