package org.dise.center;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.dise.runtime.dise.TriggerDriver;
import org.dise.runtime.elf.SymbolTable;
import org.dise.runtime.profiles.sampling.ProfileEstimator;
import org.dise.runtime.sink.ProfileTable;
import org.dise.runtime.sink.Sink;
import org.dise.runtime.trigger.PhaseAwareTrigger;
import org.dise.runtime.trigger.PhaseTracker;

/**
 * The device side of remote profiling (first paper, Section 4; phase-based remote profiling paper,
 * Sections 2.3 and 3.2.5): the profile daemon's bounded profile buffer, compressed and sent to the
 * center at the end of the run or every N intervals, tagged with the program, the configuration,
 * the device and each interval's phase; parts the center does not take go to the spool. At start it
 * sends what is spooled, and asks the center which phases of the program it already holds enough
 * of, which a phase-aware trigger then does not sample.
 */
public final class DeviceReporter {
  /** How {@code acf run --report-to} was asked to report. */
  public record Options(
      String url,
      String device,
      String token,
      Path spool,
      String send,
      boolean feedback,
      long bufferBytes,
      Duration timeout) {}

  /** Intervals per part when sending interleaved; 0 sends once, at the end. */
  private final int every;

  private final Options options;
  private final CenterClient client;
  private final Spool spool;
  private final PrintStream err;
  private final String uploadId = UUID.randomUUID().toString();
  private final String programName;
  private final String programSha256;
  private final String configHash;
  private final TransmissionModel model = TransmissionModel.STRONGARM_WIRELESS;

  /** The center's phases this device need not sample (signatures), from the feedback. */
  private final List<double[]> known = new ArrayList<>();

  private String feedbackProblem;
  private String centerProblem;

  /** Why this run's report failed for good (a part refused, the token refused), or null. */
  private String failure;

  private Spool.Drained drained;

  // The run.
  private List<Sink> sinks = List.of();
  private SymbolTable symbols;
  private PhaseTracker tracker;
  private final Map<Integer, double[]> signatures = new LinkedHashMap<>();
  private int seeded;
  private Map<String, ProfileTable> lastTables = new LinkedHashMap<>();
  private long interval;

  // The part being filled: the profile buffer.
  private final Map<Integer, PhaseAcc> phases = new LinkedHashMap<>();
  private final List<Integer> trace = new ArrayList<>();
  private long partIntervals;
  private long partSampledIntervals;
  private long partInstructions;
  private long partSampledInstructions;
  private long bufferedBytes;

  // What was transmitted.
  private int parts;
  private int stored;
  private int held;
  private int spooled;
  private int refused;
  private int fullBuffer;
  private long bytes;
  private long rawBytes;
  private long skippedIntervals;

  /** One phase's figures and sampled weights in the part being filled. */
  private static final class PhaseAcc {
    long intervals;
    long instructions;
    long sampledIntervals;
    long sampledInstructions;
    final Map<String, Map<String, Long>> weights = new LinkedHashMap<>();
  }

  private DeviceReporter(
      Options options,
      int every,
      String programName,
      String programSha256,
      String configHash,
      PrintStream err) {
    this.options = options;
    this.every = every;
    this.client = new CenterClient(options.url(), options.timeout());
    this.spool = new Spool(options.spool() != null ? options.spool() : Spool.defaultDir());
    this.err = err;
    this.programName = programName;
    this.programSha256 = programSha256;
    this.configHash = configHash;
  }

  /**
   * Intervals per part of a {@code --send} value: 0 for {@code at-end}, N for {@code
   * interleaved[:N]} (default 1).
   *
   * @throws IllegalArgumentException naming the accepted forms
   */
  public static int parseSend(String send) {
    if (send == null || send.equals("at-end")) {
      return 0;
    }
    if (send.equals("interleaved")) {
      return 1;
    }
    if (send.matches("interleaved:[1-9][0-9]{0,8}")) {
      return Integer.parseInt(send.substring("interleaved:".length()));
    }
    throw new IllegalArgumentException(
        "--send " + send + ": expected at-end or" + " interleaved[:N] (a part every N intervals)");
  }

  /**
   * Gets ready to report a run of {@code program}: sends what the spool holds, then asks the center
   * for the program's phases (when {@code options.feedback()}). Neither stops the run when the
   * center is down.
   */
  public static DeviceReporter open(
      Options options, Path program, String configHash, PrintStream err) throws IOException {
    int every = parseSend(options.send());
    DeviceReporter r =
        new DeviceReporter(
            options, every, program.getFileName().toString(), sha256(program), configHash, err);
    r.drained = r.spool.drain(r.client, options.token(), err);
    if (r.drained.stored() + r.drained.held() > 0) {
      err.printf(
          "acf: sent %d spooled part(s) from %s to %s%n",
          r.drained.stored() + r.drained.held(), r.spool.dir(), r.client.url());
    }
    if (r.drained.problem() != null) {
      r.centerProblem = r.drained.problem();
      if (r.drained.problem().startsWith("the center refused the token")) {
        r.failure = r.drained.problem();
      }
    }
    if (options.feedback() && r.centerProblem == null) {
      r.fetchFeedback();
    }
    return r;
  }

  private void fetchFeedback() {
    try {
      JsonNode n = client.get("/v1/programs/" + programSha256 + "/phases", options.token());
      for (JsonNode p : n.path("phases")) {
        if (p.path("enough").asBoolean()) {
          double[] s = new double[p.path("signature").size()];
          for (int i = 0; i < s.length; i++) {
            s[i] = p.path("signature").get(i).asDouble();
          }
          known.add(s);
        }
      }
    } catch (CenterClient.CenterException e) {
      feedbackProblem = e.getMessage();
    }
  }

  /** The phases the center said it holds enough of. */
  public int knownPhases() {
    return known.size();
  }

  /** Whether {@code --send} asks for parts during the run. */
  public boolean interleaved() {
    return every > 0;
  }

  /**
   * Starts reporting the sampled pass that {@code driver} runs: a phase-aware trigger learns the
   * center's known phases (with their sampled bits set) before its first interval.
   */
  public void attach(TriggerDriver driver, List<Sink> sinks, SymbolTable symbols) {
    this.sinks = sinks;
    this.symbols = symbols;
    this.interval = driver.trigger().interval();
    if (driver.trigger() instanceof PhaseAwareTrigger p) {
      tracker = p.tracker();
      for (double[] s : known) {
        if (s.length == tracker.buckets()) {
          signatures.put(p.markKnown(s), s);
          seeded++;
        }
      }
      if (seeded < known.size()) {
        err.printf(
            "acf: %d of the center's phases have signatures of another size than this"
                + " tracker's %d buckets; they are sampled here as usual%n",
            known.size() - seeded, tracker.buckets());
      }
    }
  }

  /** Starts reporting a run without a trigger: one part at the end with the whole profile. */
  public void attach(List<Sink> sinks, SymbolTable symbols) {
    this.sinks = sinks;
    this.symbols = symbols;
  }

  /** The listener for the sampled pass: {@code estimator} first, then the profile buffer. */
  public TriggerDriver.Listener listener(ProfileEstimator estimator) {
    return (index, instructions, sampled, nextSampled) -> {
      estimator.endInterval(index, instructions, sampled, nextSampled);
      interval(index, instructions, sampled, estimator.part(index));
    };
  }

  private void interval(
      long index, long instructions, boolean sampled, Map<String, Map<String, Long>> added) {
    partIntervals++;
    partInstructions += instructions;
    if (sampled) {
      partSampledIntervals++;
      partSampledInstructions += instructions;
    }
    if (tracker != null && tracker.intervals() > index) {
      int p = tracker.phase(index);
      signatures.computeIfAbsent(p, k -> tracker.footprint(index));
      if (!sampled && p < seeded) {
        skippedIntervals++;
      }
      PhaseAcc a = phases.computeIfAbsent(p, k -> new PhaseAcc());
      if (a.intervals == 0) {
        bufferedBytes += 16L * signatures.get(p).length;
      }
      a.intervals++;
      a.instructions += instructions;
      trace.add(p);
      bufferedBytes += 4;
      if (sampled) {
        a.sampledIntervals++;
        a.sampledInstructions += instructions;
        if (added != null) {
          added.forEach(
              (sink, m) -> {
                Map<String, Long> w = a.weights.computeIfAbsent(sink, k -> new LinkedHashMap<>());
                m.forEach(
                    (k, v) -> {
                      if (w.merge(k, v, Long::sum).equals(v)) {
                        bufferedBytes += k.length() + 12;
                      }
                    });
              });
        }
      }
    }
    if (every > 0 && partIntervals >= every) {
      flush(false, null);
    } else if (bufferedBytes >= options.bufferBytes()) {
      fullBuffer++; // the buffer is full: empty it now (first paper, Section 4)
      flush(false, null);
    }
  }

  /** What the run transmitted, for the report beside the cost report and for summary.json. */
  public record Summary(List<String> lines, String json, String failure) {}

  /**
   * Sends the last part (for a run without a trigger: the whole profile over {@code instructions}
   * application instructions) and says what was transmitted.
   */
  public Summary finish(long instructions, int exitStatus) {
    if (interval == 0 && parts == 0) {
      // No trigger: the whole run is one stretch, profiled throughout.
      partInstructions = instructions;
      partSampledInstructions = instructions;
    }
    flush(true, exitStatus);
    return summary();
  }

  private void flush(boolean last, Integer exitStatus) {
    List<Upload.SinkProfile> profiles = new ArrayList<>();
    Map<String, ProfileTable> now = new LinkedHashMap<>();
    for (Sink s : sinks) {
      ProfileTable t = s.table(symbols);
      now.put(s.name(), t);
      profiles.add(
          new Upload.SinkProfile(s.name(), ProfileMerge.since(t, lastTables.get(s.name()))));
    }
    lastTables = now;
    List<Upload.PhaseReport> reports = new ArrayList<>();
    phases.forEach(
        (p, a) ->
            reports.add(
                new Upload.PhaseReport(
                    p,
                    signatures.get(p),
                    a.intervals,
                    a.instructions,
                    a.sampledIntervals,
                    a.sampledInstructions,
                    a.weights)));
    Upload u =
        new Upload(
            uploadId,
            parts,
            last,
            options.device(),
            programName,
            programSha256,
            configHash,
            new Upload.Figures(
                partIntervals,
                partSampledIntervals,
                partInstructions,
                partSampledInstructions,
                interval,
                exitStatus),
            profiles,
            reports,
            new ArrayList<>(trace));
    phases.clear();
    trace.clear();
    partIntervals = partSampledIntervals = partInstructions = partSampledInstructions = 0;
    bufferedBytes = 0;
    byte[] raw = UploadCodec.json(u);
    byte[] gz = UploadCodec.gzip(raw);
    rawBytes += raw.length;
    bytes += gz.length;
    String name = uploadId + "." + String.format("%05d", parts);
    parts++;
    if (centerProblem == null) {
      CenterClient.Sent s = client.upload(gz, options.token());
      switch (s.outcome()) {
        case STORED -> stored++;
        case HELD -> held++;
        case REFUSED -> {
          refused++;
          String why = "refused by the center (" + s.status() + ": " + s.message() + ")";
          failure = "the center refused part " + u.part() + " of this run's profile: " + why;
          try {
            Path kept = spool.reject(name, gz, why);
            err.println("acf: " + failure + "; kept as " + kept);
          } catch (IOException e) {
            err.println("acf: " + failure + "; cannot keep it: " + e.getMessage());
          }
        }
        default -> {
          centerProblem =
              s.outcome() == CenterClient.Outcome.UNAUTHORIZED
                  ? "the center refused the token (" + s.status() + ": " + s.message() + ")"
                  : "the center cannot be reached (" + s.message() + ")";
          if (s.outcome() == CenterClient.Outcome.UNAUTHORIZED) {
            failure = centerProblem;
          }
          toSpool(name, gz);
        }
      }
    } else {
      toSpool(name, gz);
    }
  }

  private void toSpool(String name, byte[] gz) {
    try {
      spool.put(name, gz);
      spooled++;
    } catch (IOException e) {
      err.println(
          "acf: cannot spool the profile in "
              + spool.dir()
              + ": "
              + e.getMessage()
              + "; this part is lost");
    }
  }

  private Summary summary() {
    List<String> lines = new ArrayList<>();
    String mode = every == 0 ? "at-end" : "interleaved:" + every;
    lines.add("report to " + client.url() + " as " + options.device() + " (" + mode + ")");
    lines.add(
        String.format(
            Locale.ROOT,
            "  parts                    %d (%d stored, %d already"
                + " held, %d spooled, %d refused)%s",
            parts,
            stored,
            held,
            spooled,
            refused,
            fullBuffer > 0 ? ", " + fullBuffer + " sent early by a full buffer" : ""));
    lines.add(
        String.format(
            Locale.ROOT,
            "  bytes                    %,d compressed (%,d before" + " compression)",
            bytes,
            rawBytes));
    lines.add(
        String.format(
            Locale.ROOT,
            "  transmission (modelled)  %.3f ms, %.3f mJ (%s," + " first paper Fig. 14)",
            1e3 * model.seconds(bytes),
            1e3 * model.joules(bytes),
            model.describe()));
    if (options.feedback() && tracker != null) {
      lines.add(
          feedbackProblem != null
              ? "  phase feedback           none: " + feedbackProblem
              : String.format(
                  Locale.ROOT,
                  "  phase feedback           %d phase(s) held enough by"
                      + " the center, %d interval(s) not sampled for it",
                  seeded,
                  skippedIntervals));
    }
    if (centerProblem != null && spooled > 0) {
      err.printf(
          "acf: %s: %d part(s) of this run's profile spooled in %s; `acf upload"
              + " --report-to %s --token T` sends them (the next run with --report-to does too)%n",
          centerProblem, spooled, spool.dir(), client.url());
    }
    String json =
        String.format(
            Locale.ROOT,
            ", \"transmission\": {\"center\": \"%s\","
                + " \"device\": \"%s\", \"upload_id\": \"%s\", \"send\": \"%s\", \"parts\": %d,"
                + " \"stored\": %d, \"held\": %d, \"spooled\": %d, \"refused\": %d, \"bytes\": %d,"
                + " \"raw_bytes\": %d, \"seconds\": %.9f, \"joules\": %.9f, \"feedback_phases\": %d,"
                + " \"skipped_intervals\": %d}",
            client.url(),
            options.device(),
            uploadId,
            mode,
            parts,
            stored,
            held,
            spooled,
            refused,
            bytes,
            rawBytes,
            model.seconds(bytes),
            model.joules(bytes),
            seeded,
            skippedIntervals);
    return new Summary(lines, json, failure);
  }

  /** Why this run's report failed for good (a part or the token refused), or null. */
  public String failure() {
    return failure;
  }

  public String uploadId() {
    return uploadId;
  }

  public long bytesSent() {
    return bytes;
  }

  public int spooledParts() {
    return spooled;
  }

  public String programSha256() {
    return programSha256;
  }

  /** The SHA-256 of a file, in lower-case hex. */
  public static String sha256(Path file) throws IOException {
    try (InputStream in =
        new DigestInputStream(Files.newInputStream(file), MessageDigest.getInstance("SHA-256"))) {
      in.transferTo(java.io.OutputStream.nullOutputStream());
      return HexFormat.of().formatHex(((DigestInputStream) in).getMessageDigest().digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The hash of a configuration: the SHA-256 of its files' bytes, in order. */
  public static String configHash(List<Path> files) throws IOException {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      for (Path f : files) {
        md.update(Files.readAllBytes(f));
        md.update((byte) 0);
      }
      return HexFormat.of().formatHex(md.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
