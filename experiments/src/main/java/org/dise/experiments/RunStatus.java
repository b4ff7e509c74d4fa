package org.dise.experiments;

import java.io.PrintStream;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code --status DIR}: each run of the plan, done, running (where), queued (its SLURM task),
 * failed (why) or pending, and the counts. A run marked running whose process or SLURM task has
 * ended is shown as failed ("lost"): the next invocation runs it again.
 */
public final class RunStatus {
  private RunStatus() {}

  /** Prints the status; returns 0 when every run is done, 1 otherwise. */
  public static int print(List<Plans.Planned> plan, Results results, PrintStream out) {
    Liveness liveness = new Liveness(results);
    Map<Results.State, Integer> counts = new EnumMap<>(Results.State.class);
    int queued = 0;
    for (Plans.Planned p : plan) {
      Results.State st = results.state(p.spec());
      String detail = "";
      if (st == Results.State.RUNNING) {
        String marker = results.runningOn(p.spec());
        if (liveness.live(p) && marker.startsWith("queued")) {
          queued++;
          detail = "(" + marker + ")";
        } else if (liveness.live(p)) {
          detail = "(on " + marker + ")";
        } else {
          st = Results.State.FAILED;
          detail = "(lost: " + marker + " ended without a result; run again to rerun it)";
        }
      } else if (st == Results.State.FAILED) {
        detail = "(" + results.failure(p.spec()).lines().findFirst().orElse("") + ")";
      }
      counts.merge(st, 1, Integer::sum);
      out.printf(
          Locale.ROOT,
          "%4d  %-8s %s  %s %s%n",
          p.index(),
          detail.startsWith("(queued") ? "queued" : st.name().toLowerCase(Locale.ROOT),
          p.spec().id(),
          p.spec().label(),
          detail);
    }
    out.printf(
        Locale.ROOT,
        "%d runs: %d done, %d running, %d queued, %d failed, %d pending (%s)%n",
        plan.size(),
        counts.getOrDefault(Results.State.DONE, 0),
        counts.getOrDefault(Results.State.RUNNING, 0) - queued,
        queued,
        counts.getOrDefault(Results.State.FAILED, 0),
        counts.getOrDefault(Results.State.PENDING, 0),
        results.dir());
    return counts.getOrDefault(Results.State.DONE, 0) == plan.size() ? 0 : 1;
  }
}
