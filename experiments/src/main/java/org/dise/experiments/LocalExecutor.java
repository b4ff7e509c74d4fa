package org.dise.experiments;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A pool of worker processes on this machine ({@code --executor local --jobs N}): N workers, each
 * given every Nth run of those to do ({@code --run K,K,...}), one after another, its output in
 * {@code DIR/runs/worker-I.log}. Processes rather than threads, so that a run is what a cluster
 * node runs and a fault or a heap filled by one run costs only its worker; several runs per worker,
 * so that a JVM's start-up and warm-up (a second or two, more than a short run) are paid once per
 * worker, not per run.
 */
public final class LocalExecutor implements Executor {
  private final int jobs;
  private final Worker worker;

  public LocalExecutor(int jobs, Worker worker) {
    if (jobs < 1) {
      throw new ExperimentException("--jobs must be at least 1, not " + jobs);
    }
    this.jobs = jobs;
    this.worker = worker;
  }

  @Override
  public void run(List<Plans.Planned> todo, Results results, boolean retry) {
    if (todo.size() == 1) { // a worker would only add its start-up
      new InProcessExecutor().run(todo, results, retry);
      return;
    }
    int n = Math.min(jobs, todo.size());
    Lab progress = todo.get(0).lab();
    progress.plan(todo.size());
    progress.progress("%d run(s) in %d worker process(es)", todo.size(), n);
    Map<String, Path> logs = new HashMap<>();
    List<Process> workers = new ArrayList<>();
    Thread reaper = new Thread(() -> workers.forEach(Process::destroy));
    Runtime.getRuntime().addShutdownHook(reaper); // Ctrl-C: stop the workers too
    try {
      Files.createDirectories(results.dir());
      for (int i = 0; i < n; i++) {
        List<Plans.Planned> batch = new ArrayList<>();
        for (int j = i; j < todo.size(); j += n) {
          batch.add(todo.get(j));
        }
        Path log = results.dir().resolve("worker-" + i + ".log");
        batch.forEach(p -> logs.put(p.spec().id(), log));
        String ks =
            batch.stream().map(p -> Integer.toString(p.index())).collect(Collectors.joining(","));
        List<String> cmd = worker.command(ks);
        try {
          workers.add(
              new ProcessBuilder(cmd)
                  .redirectErrorStream(true)
                  .redirectOutput(log.toFile())
                  .start());
        } catch (IOException e) {
          throw new ExperimentException(
              "cannot start a worker (" + cmd.get(0) + "): " + e.getMessage());
        }
      }
      Set<String> reported = new HashSet<>();
      boolean alive = true;
      while (alive) {
        alive = false;
        for (Process w : workers) {
          alive |= !w.waitFor(alive ? 0 : 500, TimeUnit.MILLISECONDS);
        }
        for (Plans.Planned p : todo) {
          if (!reported.contains(p.spec().id()) && Files.exists(results.result(p.spec()))) {
            reported.add(p.spec().id());
            progress.step("%s", p.spec().label());
          } else if (!reported.contains(p.spec().id()) && Files.exists(results.failed(p.spec()))) {
            reported.add(p.spec().id());
            progress.step("%s: FAILED (%s)", p.spec().label(), logs.get(p.spec().id()));
          }
        }
      }
    } catch (IOException e) {
      throw new ExperimentException(results.dir() + ": cannot create: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ExperimentException("interrupted");
    } finally {
      workers.forEach(Process::destroy);
      try {
        Runtime.getRuntime().removeShutdownHook(reaper);
      } catch (IllegalStateException e) {
        // shutting down already
      }
    }
    // A run its worker started but did not finish (the worker died) failed; one it never
    // reached stays pending, for the next invocation.
    for (Plans.Planned p : todo) {
      if (results.state(p.spec()) == Results.State.RUNNING && !new Liveness(results).live(p)) {
        results.markFailed(p.spec(), "its worker exited without a result");
      }
    }
    Executors.checkDone(todo, results, s -> logs.get(s.id()));
  }
}
