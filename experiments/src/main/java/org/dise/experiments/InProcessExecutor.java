package org.dise.experiments;

import java.util.List;

/** Runs the plan in this process, one run after another: {@code --jobs 1}, and the tests. */
public final class InProcessExecutor implements Executor {
  @Override
  public void run(List<Plans.Planned> todo, Results results, boolean retry) {
    Lab progress = todo.get(0).lab();
    // A whole experiment (one run) plans and reports its own steps.
    progress.plan((int) todo.stream().filter(p -> !whole(p)).count());
    for (Plans.Planned p : todo) {
      Plans.runOne(p, results);
      if (!whole(p)) {
        progress.step("%s", p.spec().label());
      }
    }
  }

  static boolean whole(Plans.Planned p) {
    return p.spec().kind().endsWith(".whole");
  }
}
