package org.dise.experiments;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import org.dise.runtime.io.AtomicFiles;

/**
 * The results of a plan's runs, one file each under {@code DIR/runs}: {@code ID.json} (the result,
 * with the specification and the acf version that produced it), {@code ID.running} (a run under
 * way: host, pid, SLURM task), {@code ID.failed} (why it failed) and {@code ID.log} (a worker's
 * output). Every file is written to a temporary name and moved into place, so that a crash or a
 * cancelled job leaves either the whole result or none; a run with a result is skipped (resume),
 * and a result of another version or specification is refused rather than mixed in.
 */
public final class Results {
  static final ObjectMapper MAPPER =
      new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);

  /**
   * A record a result holds, read back with the mapper that wrote it (members it does not know are
   * passed over); {@code what} names the result in the error.
   */
  static <T> T read(JsonNode n, Class<T> type, String what) {
    try {
      return MAPPER
          .readerFor(type)
          .without(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .treeToValue(n, type);
    } catch (java.io.IOException e) {
      throw new ExperimentException(what + ": cannot read it: " + e.getMessage());
    }
  }

  /** What {@link #state} finds for one run. */
  public enum State {
    PENDING,
    RUNNING,
    FAILED,
    DONE
  }

  /** One run's result as written: the value and when, where and how long it ran. */
  public record Result(
      RunSpec spec, String version, Instant started, double seconds, double load, JsonNode value) {}

  private final Path dir;
  private final String version;

  /** The results under {@code out/runs}, for runs of {@code version} ({@code acf 0.1.0 (...)}). */
  public Results(Path out, String version) {
    this.dir = out.resolve("runs");
    this.version = version;
  }

  public Path dir() {
    return dir;
  }

  public String version() {
    return version;
  }

  static String canonical(JsonNode n) {
    try {
      return MAPPER.writeValueAsString(MAPPER.treeToValue(n, Object.class));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  public Path result(RunSpec s) {
    return dir.resolve(s.id() + ".json");
  }

  public Path running(RunSpec s) {
    return dir.resolve(s.id() + ".running");
  }

  public Path failed(RunSpec s) {
    return dir.resolve(s.id() + ".failed");
  }

  public Path log(RunSpec s) {
    return dir.resolve(s.id() + ".log");
  }

  /**
   * The result of {@code s}, if one was written.
   *
   * @throws ExperimentException if the file holds another specification's result or another
   *     version's, or cannot be read: such a result is refused, never mixed in
   */
  public Optional<Result> read(RunSpec s) {
    Path p = result(s);
    JsonNode n;
    try {
      n = MAPPER.readTree(Files.readString(p, StandardCharsets.UTF_8));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new ExperimentException(p + ": cannot read the run's result: " + e.getMessage());
    }
    RunSpec written = RunSpec.fromJson(n.path("spec"));
    if (!canonical(written.toJson()).equals(canonical(s.toJson()))) {
      throw new ExperimentException(
          p
              + ": holds the result of another run specification ("
              + canonical(written.toJson())
              + ", not "
              + canonical(s.toJson())
              + "); remove it to run this one again");
    }
    String v = n.path("acf_version").asText();
    if (!v.equals(version)) {
      throw new ExperimentException(
          p
              + ": written by "
              + v
              + ", not "
              + version
              + ": results of another version are not mixed in; remove "
              + dir
              + " or use another --out");
    }
    return Optional.of(
        new Result(
            s,
            v,
            Instant.parse(n.path("started").asText()),
            n.path("seconds").asDouble(),
            n.path("load_at_start").asDouble(Double.NaN),
            n.path("result")));
  }

  /** Writes the result of {@code s} atomically and clears its running and failed markers. */
  public void write(RunSpec s, Instant started, double seconds, double load, JsonNode value) {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("acf_version", version);
    n.put("id", s.id());
    n.set("spec", s.toJson());
    n.put("label", s.label());
    n.put("started", started.toString());
    n.put("seconds", seconds);
    n.put("load_at_start", load);
    n.put("host", host());
    n.set("result", value);
    try {
      atomically(result(s), MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(n) + "\n");
      Files.deleteIfExists(running(s));
      Files.deleteIfExists(failed(s));
    } catch (IOException e) {
      throw new ExperimentException(
          result(s) + ": cannot write the run's result: " + e.getMessage());
    }
  }

  /** Marks {@code s} as running here (host, pid, SLURM's array task if any). */
  public void markRunning(RunSpec s) {
    String slurm = System.getenv("SLURM_ARRAY_JOB_ID");
    String task = System.getenv("SLURM_ARRAY_TASK_ID");
    try {
      Files.createDirectories(dir);
      Files.deleteIfExists(failed(s));
      atomically(
          running(s),
          host()
              + " "
              + ProcessHandle.current().pid()
              + (slurm == null ? "" : " slurm " + slurm + "_" + task)
              + "\n");
    } catch (IOException e) {
      throw new ExperimentException(running(s) + ": cannot write: " + e.getMessage());
    }
  }

  /** Marks {@code s} as submitted to SLURM as array task {@code task} ({@code JOB_T}). */
  public void markQueued(RunSpec s, String task) {
    try {
      Files.deleteIfExists(failed(s));
      atomically(running(s), "queued slurm " + task + "\n");
    } catch (IOException e) {
      throw new ExperimentException(running(s) + ": cannot write: " + e.getMessage());
    }
  }

  /** Records why {@code s} failed (its result stays absent, so the next invocation retries it). */
  public void markFailed(RunSpec s, String why) {
    try {
      Files.createDirectories(dir);
      atomically(failed(s), why.endsWith("\n") ? why : why + "\n");
      Files.deleteIfExists(running(s));
    } catch (IOException e) {
      throw new ExperimentException(failed(s) + ": cannot write: " + e.getMessage());
    }
  }

  /** What is known of {@code s}: done (a result, checked as {@link #read} checks it), ... */
  public State state(RunSpec s) {
    if (read(s).isPresent()) {
      return State.DONE;
    }
    if (Files.exists(failed(s))) {
      return State.FAILED;
    }
    return Files.exists(running(s)) ? State.RUNNING : State.PENDING;
  }

  /** The running marker's text (host, pid, SLURM task), or empty. */
  public String runningOn(RunSpec s) {
    try {
      return Files.readString(running(s)).trim();
    } catch (IOException e) {
      return "";
    }
  }

  /** The failure's text, or empty. */
  public String failure(RunSpec s) {
    try {
      return Files.readString(failed(s)).trim();
    } catch (IOException e) {
      return "";
    }
  }

  /** Writes {@code p} whole or not at all (a reader never sees half a result). */
  static void atomically(Path p, String text) throws IOException {
    Files.createDirectories(p.getParent());
    AtomicFiles.writeString(p, text);
  }

  static String host() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "localhost";
    }
  }

  /** The host's one-minute load average. */
  static double load() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }
}
