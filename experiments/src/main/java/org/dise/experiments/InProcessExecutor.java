package org.dise.experiments;

import java.util.List;

/** Runs the plan in this process, one run after another: {@code --jobs 1}, and the tests. */
public final class InProcessExecutor implements Executor {
  @Override
  public void execute(List<Plans.Planned> plan, Results results, boolean retry) {
    List<Plans.Planned> todo = Plans.todo(plan, results, new Liveness(results)::live, retry);
    Executors.skipped(plan, todo, results);
    if (todo.isEmpty()) {
      return;
    }
    Lab progress = todo.get(0).lab();
    progress.plan(todo.size());
    for (Plans.Planned p : todo) {
      Plans.runOne(p, results);
      if (!p.spec().kind().endsWith(".whole")) { // a whole experiment reports its own steps
        progress.step("%s", p.spec().label());
      }
    }
  }
}
