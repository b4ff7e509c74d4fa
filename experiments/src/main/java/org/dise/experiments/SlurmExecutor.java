package org.dise.experiments;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The plan as SLURM job arrays ({@code --executor slurm}): one {@code sbatch --array} whose task T
 * runs plan index {@code base + T} (one array per 1,000 runs, below SLURM's default MaxArraySize),
 * every task the same worker command ({@code acf ... --run K --out DIR}), so the output directory
 * must be on a filesystem the nodes share. It then waits until {@code squeue} no longer lists the
 * tasks, printing each result as it appears ({@code wait} false: returns once submitted, and {@code
 * --status} and {@code --collect} take over).
 */
public final class SlurmExecutor implements Executor {
  /** Array tasks per {@code sbatch}: SLURM's default MaxArraySize is 1001 (indices 0 to 1000). */
  static final int CHUNK = 1000;

  /** The options the user gives: partition, time limit, memory, and any further sbatch options. */
  public record Options(
      String partition,
      String time,
      String mem,
      List<String> extra,
      String jobName,
      boolean waitForEnd) {}

  private final Options options;
  private final Worker worker;

  public SlurmExecutor(Options options, Worker worker) {
    this.options = options;
    this.worker = worker;
  }

  /** A word for sh, in single quotes. */
  static String quote(String s) {
    return s.matches("[A-Za-z0-9_./=:,+@%-]+") ? s : "'" + s.replace("'", "'\\''") + "'";
  }

  /** The batch script of one array: task T runs index {@code base + T}. */
  String script(int base) {
    String marker = "@@ACF_RUN_INDEX@@";
    String cmd =
        worker.command(marker).stream()
            .map(SlurmExecutor::quote)
            .collect(Collectors.joining(" "))
            .replace(quote(marker), "\"$((SLURM_ARRAY_TASK_ID + " + base + "))\"");
    return "#!/bin/sh\n"
        + "# Written by acf (--executor slurm): array task T runs plan index "
        + base
        + " + T.\n"
        + "exec "
        + cmd
        + "\n";
  }

  @Override
  public void run(List<Plans.Planned> todo, Results results, boolean retry) {
    Lab progress = todo.get(0).lab();
    Map<Integer, List<Plans.Planned>> chunks = new LinkedHashMap<>();
    for (Plans.Planned p : todo) {
      chunks.computeIfAbsent(p.index() / CHUNK * CHUNK, b -> new ArrayList<>()).add(p);
    }
    Path slurmDir = results.dir().resolve("slurm");
    List<String> jobs = new ArrayList<>();
    String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    try {
      Files.createDirectories(slurmDir);
      for (var chunk : chunks.entrySet()) {
        int base = chunk.getKey();
        Path script = slurmDir.resolve("array-" + stamp + "-" + base + ".sh");
        Files.writeString(script, script(base), StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        String array =
            chunk.getValue().stream()
                .map(p -> Integer.toString(p.index() - base))
                .collect(Collectors.joining(","));
        List<String> cmd = new ArrayList<>(List.of("sbatch", "--parsable"));
        cmd.add("--array=" + array);
        cmd.add("--job-name=" + options.jobName());
        cmd.add("--output=" + slurmDir.resolve("%A_%a.out"));
        cmd.add("--chdir=" + Path.of("").toAbsolutePath());
        if (options.partition() != null) {
          cmd.add("--partition=" + options.partition());
        }
        if (options.time() != null) {
          cmd.add("--time=" + options.time());
        }
        if (options.mem() != null) {
          cmd.add("--mem=" + options.mem());
        }
        cmd.addAll(options.extra());
        cmd.add(script.toString());
        String job = sbatch(cmd).split(";")[0].trim();
        jobs.add(job);
        for (Plans.Planned p : chunk.getValue()) {
          results.markQueued(p.spec(), job + "_" + (p.index() - base));
        }
        Files.writeString(
            slurmDir.resolve("jobs"),
            job + " " + base + " " + array + "\n",
            StandardCharsets.UTF_8,
            java.nio.file.StandardOpenOption.CREATE,
            java.nio.file.StandardOpenOption.APPEND);
        progress.progress(
            "submitted SLURM job %s: %d run(s) (array %s, script %s)",
            job, chunk.getValue().size(), abbreviate(array), script);
      }
    } catch (IOException e) {
      throw new ExperimentException(slurmDir + ": cannot write: " + e.getMessage());
    }
    if (!options.waitForEnd()) {
      progress.progress(
          "not waiting: `--status %s` shows the runs, `--collect` builds the results",
          results.dir().getParent());
      return;
    }
    progress.plan(todo.size());
    Set<String> reported = new HashSet<>();
    try {
      while (true) {
        boolean queued = false;
        for (String job : jobs) {
          queued |= Liveness.squeue(job).map(q -> !q.isEmpty()).orElse(true);
        }
        for (Plans.Planned p : todo) {
          if (!reported.contains(p.spec().id()) && Files.exists(results.result(p.spec()))) {
            reported.add(p.spec().id());
            progress.step("%s", p.spec().label());
          }
        }
        if (!queued) {
          break;
        }
        TimeUnit.SECONDS.sleep(2);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ExperimentException(
          "interrupted; the SLURM job(s) "
              + String.join(", ", jobs)
              + " go on (scancel stops them)");
    }
    for (Plans.Planned p : todo) {
      if (results.read(p.spec()).isEmpty() && !Files.exists(results.failed(p.spec()))) {
        results.markFailed(p.spec(), "the SLURM task ended without a result");
      }
    }
    Executors.checkDone(todo, results, s -> slurmDir);
  }

  static String abbreviate(String s) {
    return s.length() <= 40 ? s : s.substring(0, 37) + "...";
  }

  static String sbatch(List<String> cmd) {
    try {
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      if (!p.waitFor(120, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new ExperimentException("sbatch did not answer in 2 minutes");
      }
      if (p.exitValue() != 0) {
        throw new ExperimentException("sbatch failed (exit status " + p.exitValue() + "): " + out);
      }
      String last = out.lines().reduce((a, b) -> b).orElse("");
      if (!last.matches("\\d+(;.*)?")) {
        throw new ExperimentException("sbatch printed no job id: " + out);
      }
      return last;
    } catch (IOException e) {
      throw new ExperimentException(
          "cannot run sbatch (is SLURM installed and on PATH?): " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ExperimentException("interrupted");
    }
  }
}
