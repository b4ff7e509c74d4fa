package org.dise.experiments;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Whether a run marked running ({@code ID.running}: {@code HOST PID [slurm JOB_TASK]}, or {@code
 * queued slurm JOB_TASK} for a submitted task) is still under way: a SLURM task while {@code
 * squeue} lists it, a local worker while its process lives. A marker whose run ended without a
 * result (a crash, a cancelled or timed-out job) is lost: the run is run again. Where neither can
 * be checked (another host without SLURM, no {@code squeue}) the run counts as under way.
 */
public final class Liveness {
  private final Results results;
  private final Map<String, Optional<Set<String>>> queues = new HashMap<>();

  public Liveness(Results results) {
    this.results = results;
  }

  public boolean live(Plans.Planned p) {
    return live(results.runningOn(p.spec()));
  }

  boolean live(String marker) {
    String[] w = marker.trim().split("\\s+");
    int slurm = List.of(w).indexOf("slurm");
    if (slurm >= 0 && slurm + 1 < w.length) {
      String task = w[slurm + 1];
      String job = task.contains("_") ? task.substring(0, task.indexOf('_')) : task;
      return queue(job).map(q -> q.contains(task)).orElse(true);
    }
    if (w.length >= 2 && w[0].equals(Results.host())) {
      try {
        return ProcessHandle.of(Long.parseLong(w[1])).map(ProcessHandle::isAlive).orElse(false);
      } catch (NumberFormatException e) {
        return false;
      }
    }
    return w.length >= 2; // another host's worker: cannot tell
  }

  /** The tasks of {@code job} that squeue lists (pending or running), or empty without squeue. */
  Optional<Set<String>> queue(String job) {
    return queues.computeIfAbsent(job, Liveness::squeue);
  }

  /** {@code squeue -h -r -j JOB -o %i}: one line per array task, {@code JOB_TASK}. */
  static Optional<Set<String>> squeue(String job) {
    try {
      Process p =
          new ProcessBuilder("squeue", "-h", "-r", "-j", job, "-o", "%i")
              .redirectErrorStream(true)
              .start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return Optional.empty();
      }
      if (p.exitValue() != 0) {
        // An ended job is purged after MinJobAge; squeue then calls its id invalid.
        return out.contains("Invalid job id") ? Optional.of(Set.of()) : Optional.empty();
      }
      return Optional.of(
          Set.copyOf(out.lines().map(String::trim).filter(l -> !l.isEmpty()).toList()));
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }
}
