package org.dise.repl.common;

import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import org.dise.runtime.dise.CostReport;
import org.dise.runtime.dise.ProfilingEngine;
import org.dise.runtime.dise.TriggerDriver;
import org.dise.runtime.elf.SymbolTable;
import org.dise.runtime.format.SourceColumns;
import org.dise.runtime.profiles.sampling.SamplingRun;
import org.dise.runtime.sink.ProfileTable;
import org.dise.runtime.sink.Sink;
import org.dise.runtime.trigger.PhaseAwareTrigger;
import org.dise.runtime.trigger.PhaseTrace;
import org.dise.runtime.trigger.PhaseTracker;
import org.dise.runtime.trigger.TriggerSpec;

/**
 * What {@code acf run --acf} prints and writes: top profile entries with their shares, costs; per
 * sink NAME.csv, NAME.json, the stacked profiles' files ({@link StackFiles}) and the sink's own
 * files (NAME.bb), and summary.json. {@code acf report} prints a written run the same way.
 */
public final class ProfileReport {
  private ProfileReport() {}

  public static final int TOP = 10;

  public static void summary(ProfilingEngine engine, SymbolTable symbols, PrintStream out) {
    summary(engine.sinks(), engine.cost(), symbols, out);
  }

  /** As above for sinks whose cost is not their engine's whole account (a simulation point). */
  public static void summary(
      java.util.List<Sink> sinks, CostReport cost, SymbolTable symbols, PrintStream out) {
    for (Sink s : sinks) {
      ProfileTable t = SourceColumns.of(s.table(symbols), symbols);
      for (String line : ProfileFormats.terminal(s.name(), t, TOP)) {
        out.println(line);
      }
      for (String note : s.notes()) {
        out.println("  note: " + note);
      }
      for (String line : s.summary()) {
        out.println("  " + line);
      }
    }
    out.println("cost");
    for (String line : cost.describe().split("\n")) {
      out.println("  " + line);
    }
  }

  public static void write(ProfilingEngine engine, SymbolTable symbols, Path dir, int exitStatus) {
    write(engine, symbols, dir, exitStatus, "");
  }

  /** As above; {@code extra} is more JSON members (each starting with a comma), or "". */
  public static void write(
      ProfilingEngine engine, SymbolTable symbols, Path dir, int exitStatus, String extra) {
    write(engine.sinks(), engine.cost(), symbols, dir, exitStatus, extra);
  }

  /** As above for sinks whose cost is not their engine's whole account (a simulation point). */
  public static void write(
      java.util.List<Sink> sinks,
      CostReport c,
      SymbolTable symbols,
      Path dir,
      int exitStatus,
      String extra) {
    try {
      Files.createDirectories(dir);
      for (Sink s : sinks) {
        ProfileTable t = SourceColumns.of(s.table(symbols), symbols);
        StringWriter csv = new StringWriter();
        t.writeCsv(csv);
        write(dir.resolve(s.name() + ".csv"), csv.toString());
        write(dir.resolve(s.name() + ".json"), ProfileFormats.json(s.name(), t, s.notes()));
        StackFiles.write(s.name(), t, dir, symbols);
        for (Map.Entry<String, String> f : s.files(symbols).entrySet()) {
          write(dir.resolve(s.name() + "." + f.getKey()), f.getValue());
        }
      }
      String json = c.toJson();
      json =
          json.substring(0, json.length() - 1) + ", \"exit_status\": " + exitStatus + extra + "}\n";
      write(dir.resolve("summary.json"), json);
    } catch (IOException e) {
      throw new UserError("--out " + dir + ": cannot write: " + UserError.why(e));
    }
  }

  private static void write(Path file, String text) throws IOException {
    org.dise.runtime.io.AtomicFiles.writeString(file, text);
  }

  /** The sampling lines of the terminal summary. */
  public static void sampling(SamplingRun.Result r, TriggerSpec spec, PrintStream out) {
    TriggerDriver d = r.driver();
    out.printf("sampling %s, interval %,d%n", spec.describe(), spec.interval());
    out.printf(
        "  intervals                %,d (%,d sampled)%n", d.intervals(), d.sampledIntervals());
    // Fractions under the names summary.json uses, with the percentages that acf sweep and
    // acf compare print beside them.
    out.printf(
        Locale.ROOT,
        "  sampled_fraction         %.4f (%.2f%%)%n",
        r.sampledFraction(),
        100 * r.sampledFraction());
    if (r.trigger() instanceof PhaseAwareTrigger p) {
      PhaseTracker t = p.tracker();
      out.printf(
          Locale.ROOT,
          "  phases                   %d (%d never sampled)%n",
          t.phaseCount(),
          p.unsampledPhases());
      out.printf(
          Locale.ROOT,
          "  prediction accuracy      %.4f (%s)%n",
          p.predictionAccuracy(),
          p.oracle() ? "oracle" : spec.text("predictor", "last"));
    }
    if (r.accuracy() != null) {
      for (SamplingRun.SinkAccuracy a : r.accuracy().values()) {
        out.printf(
            Locale.ROOT,
            "  %-24s count_error %.4f (%.2f%%)  hot_error %.4f (%.2f%%)"
                + "  hot_weight_error %.4f (%.2f%%)%n",
            a.sink(),
            a.countError(),
            100 * a.countError(),
            a.hotError(),
            100 * a.hotError(),
            a.hotWeightError(),
            100 * a.hotWeightError());
      }
    }
  }

  /** The sampling members of summary.json (each starting with a comma). */
  /**
   * The strategy's every setting, defaults included (numbers as JSON numbers), so that a sampled
   * result says which estimator produced it (scaling, reach, threshold, ...).
   */
  public static String settingsJson(java.util.Map<String, String> settings) {
    StringBuilder sb = new StringBuilder("{");
    String sep = "";
    for (var e : settings.entrySet()) {
      String v = e.getValue();
      sb.append(sep)
          .append(Json.quote(e.getKey()))
          .append(": ")
          .append(v.matches("-?\\d+(\\.\\d+)?") ? v : Json.quote(v));
      sep = ", ";
    }
    return sb.append("}").toString();
  }

  public static String samplingJson(SamplingRun.Result r, TriggerSpec spec) {
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            Locale.ROOT,
            ", \"sampling\": \"%s\", \"interval\": %d,"
                + " \"intervals\": %d, \"sampled_fraction\": %.6f",
            spec.describe(),
            spec.interval(),
            r.driver().intervals(),
            r.sampledFraction()));
    sb.append(", \"trigger_settings\": ").append(settingsJson(spec.settings()));
    if (r.trigger() instanceof PhaseAwareTrigger p) {
      sb.append(
          String.format(
              Locale.ROOT,
              ", \"phases\": %d, \"prediction_accuracy\": %.6f",
              p.tracker().phaseCount(),
              p.predictionAccuracy()));
    }
    SamplingRun.SinkAccuracy primary = r.primary();
    if (primary != null) {
      sb.append(
          String.format(
              Locale.ROOT,
              ", \"count_error\": %.6f, \"hot_error\": %.6f," + " \"hot_weight_error\": %.6f",
              primary.countError(),
              primary.hotError(),
              primary.hotWeightError()));
      sb.append(", \"accuracy\": {");
      String sep = "";
      for (SamplingRun.SinkAccuracy a : r.accuracy().values()) {
        sb.append(
            String.format(
                Locale.ROOT,
                "%s\"%s\": {\"count_error\": %.6f, \"hot_error\":"
                    + " %.6f, \"hot_weight_error\": %.6f}",
                sep,
                a.sink(),
                a.countError(),
                a.hotError(),
                a.hotWeightError()));
        sep = ", ";
      }
      sb.append("}");
    }
    return sb.toString();
  }

  /**
   * DIR/SINK.estimate.csv for every sink: the whole-program estimate (the sampled profile scaled,
   * spec/sampling.md), with the exact weight beside it after a first pass.
   */
  public static void writeEstimates(SamplingRun.Result r, Path dir) {
    for (var e : r.estimate().entrySet()) {
      java.util.Map<String, Long> exact =
          r.exact() == null ? null : r.exact().getOrDefault(e.getKey(), java.util.Map.of());
      java.util.Set<String> keys = new java.util.LinkedHashSet<>(e.getValue().keySet());
      if (exact != null) {
        keys.addAll(exact.keySet());
      }
      java.util.List<String> sorted = new java.util.ArrayList<>(keys);
      sorted.sort(
          (a, b) ->
              Double.compare(e.getValue().getOrDefault(b, 0.0), e.getValue().getOrDefault(a, 0.0)));
      StringBuilder sb =
          new StringBuilder(exact == null ? "key,estimate\n" : "key,estimate,exact\n");
      for (String k : sorted) {
        sb.append(k.contains(",") ? "\"" + k + "\"" : k)
            .append(',')
            .append(String.format(Locale.ROOT, "%.1f", e.getValue().getOrDefault(k, 0.0)));
        if (exact != null) {
          sb.append(',').append(exact.getOrDefault(k, 0L));
        }
        sb.append('\n');
      }
      try {
        Files.writeString(dir.resolve(e.getKey() + ".estimate.csv"), sb, StandardCharsets.UTF_8);
      } catch (IOException x) {
        throw new UserError("--out " + dir + ": cannot write: " + UserError.why(x));
      }
    }
  }

  /**
   * DIR/phases.csv: interval, phase ID, predicted ID, sampled; the phase columns are empty when the
   * trigger tracks no phases (periodic, random), so every sampled run has its intervals.
   */
  public static void writePhases(SamplingRun.Result r, Path dir) {
    PhaseTrace t = r.trigger().phases();
    long intervals = t != null ? t.intervals() : r.driver().intervals();
    StringBuilder sb = new StringBuilder("interval,phase,predicted,sampled\n");
    for (long i = 0; i < intervals; i++) {
      sb.append(i)
          .append(',')
          .append(t == null ? "" : t.phase(i))
          .append(',')
          .append(t == null ? "" : t.predicted(i))
          .append(',')
          .append(r.driver().sampled(i) ? 1 : 0)
          .append('\n');
    }
    try {
      Files.writeString(dir.resolve("phases.csv"), sb, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UserError("--out " + dir + ": cannot write: " + UserError.why(e));
    }
  }
}
