package org.dise.experiments;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** What the executors share: the lines they print and the error they end with. */
final class Executors {
  private Executors() {}

  static void skipped(List<Plans.Planned> plan, List<Plans.Planned> todo, Results results) {
    if (todo.size() < plan.size() && !plan.isEmpty()) {
      plan.get(0)
          .lab()
          .progress(
              "%d of %d runs already have a result or are under way in %s: not run again",
              plan.size() - todo.size(), plan.size(), results.dir());
    }
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
