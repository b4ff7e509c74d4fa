package org.dise.experiments;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A pool of worker processes on this machine ({@code --executor local --jobs N}): at most N workers
 * at once, each one run ({@code --run K}), its output in {@code DIR/runs/ID.log}. Processes rather
 * than threads, so that a run is what a cluster node runs, and a fault or a heap filled by one run
 * costs only that run.
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
  public void execute(List<Plans.Planned> plan, Results results, boolean retry) {
    List<Plans.Planned> todo = Plans.todo(plan, results, new Liveness(results)::live, retry);
    Executors.skipped(plan, todo, results);
    if (todo.isEmpty()) {
      return;
    }
    if (todo.size() == 1) { // a worker would only add its start-up
      new InProcessExecutor().execute(todo, results, retry);
      return;
    }
    Lab progress = todo.get(0).lab();
    progress.plan(todo.size());
    progress.progress("%d run(s) in up to %d worker process(es)", todo.size(), jobs);
    Deque<Plans.Planned> waiting = new ArrayDeque<>(todo);
    Map<Process, Plans.Planned> live = new LinkedHashMap<>();
    LinkedBlockingQueue<Process> ended = new LinkedBlockingQueue<>();
    Thread reaper = new Thread(() -> live.keySet().forEach(Process::destroy));
    Runtime.getRuntime().addShutdownHook(reaper); // Ctrl-C: stop the workers too
    try {
      while (!waiting.isEmpty() || !live.isEmpty()) {
        while (live.size() < jobs && !waiting.isEmpty()) {
          Plans.Planned p = waiting.poll();
          Process proc = start(p, results);
          synchronized (live) {
            live.put(proc, p);
          }
          proc.onExit().thenAccept(ended::add);
        }
        Process done = ended.poll(1, TimeUnit.HOURS);
        if (done == null) {
          continue;
        }
        Plans.Planned p;
        synchronized (live) {
          p = live.remove(done);
        }
        if (results.read(p.spec()).isPresent()) {
          progress.step("%s", p.spec().label());
        } else {
          if (!Files.exists(results.failed(p.spec()))) {
            results.markFailed(
                p.spec(),
                "the worker exited with status " + done.exitValue() + " without a result");
          }
          progress.step("%s: FAILED (%s)", p.spec().label(), results.log(p.spec()));
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ExperimentException("interrupted");
    } finally {
      live.keySet().forEach(Process::destroy);
      try {
        Runtime.getRuntime().removeShutdownHook(reaper);
      } catch (IllegalStateException e) {
        // shutting down already
      }
    }
    Executors.checkDone(new ArrayList<>(todo), results, results::log);
  }

  private Process start(Plans.Planned p, Results results) {
    List<String> cmd = worker.command(Integer.toString(p.index()));
    try {
      Files.createDirectories(results.dir());
      return new ProcessBuilder(cmd)
          .redirectErrorStream(true)
          .redirectOutput(results.log(p.spec()).toFile())
          .start();
    } catch (IOException e) {
      throw new ExperimentException(
          "cannot start a worker (" + cmd.get(0) + "): " + e.getMessage());
    }
  }
}
