package org.dise.experiments;

import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.dise.compiler.Frontend;
import org.dise.compiler.diag.DiagnosticRenderer;
import org.dise.compiler.diag.Diagnostics;
import org.dise.compiler.diag.SourceFile;
import org.dise.compiler.lower.Lowering;
import org.dise.runtime.Machine;
import org.dise.runtime.dise.CostReport;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.dise.ProfilingEngine;
import org.dise.runtime.profiles.sampling.SamplingRun;
import org.dise.runtime.session.ProfilingSession;
import org.dise.runtime.session.SessionError;
import org.dise.runtime.session.SessionOptions;
import org.dise.runtime.sink.ProfileTable;
import org.dise.runtime.sink.Sink;

/**
 * What an experiment runs with: its programs, quick or full, where progress goes, and the plumbing
 * a user would otherwise type as {@code acf run}: compiling ACF text with the standard library and
 * running a program under it with its output discarded.
 */
public final class Lab {
  private final List<Workload> workloads;
  private final boolean quick;
  private final PrintStream progress;
  private final Machine.Options options;
  private final long started = System.nanoTime();
  private final double loadAtStart = loadAverage();
  private int planned;
  private int done;

  public Lab(List<Workload> workloads, boolean quick, PrintStream progress) {
    this.workloads = List.copyOf(workloads);
    this.quick = quick;
    this.progress = progress;
    this.options =
        Machine.Options.defaults().withNotices(new PrintStream(OutputStream.nullOutputStream()));
  }

  /** The timing model the cycle figures come from (null: the analytic model). */
  private org.dise.runtime.timing.TimingConfig timing;

  /** Measures cycles with {@code config}'s timing model (null: analytic); returns this lab. */
  public Lab timing(org.dise.runtime.timing.TimingConfig config) {
    this.timing = config;
    return this;
  }

  /** The timing model's configuration, or null for the analytic model (spec/cost-model.md). */
  public org.dise.runtime.timing.TimingConfig timing() {
    return timing;
  }

  /** The setting that names a run's cycle model; its parameters follow as {@code timing.NAME}. */
  static final String TIMING = "timing";

  /**
   * The settings that put this lab's cycle model into a run's specification: the model's name
   * ({@code analytic} without one) and every parameter's value, defaults included, so that a result
   * measured under another model or configuration is another run.
   */
  public Map<String, String> timingSettings() {
    return timingSettings(timing);
  }

  /** {@link #timingSettings()} for {@code timing} (null: analytic). */
  public static Map<String, String> timingSettings(org.dise.runtime.timing.TimingConfig timing) {
    Map<String, String> s = new java.util.TreeMap<>();
    s.put(TIMING, timing == null ? "analytic" : timing.model());
    if (timing != null) {
      timing.values().forEach((k, v) -> s.put(TIMING + "." + k, v));
    }
    return s;
  }

  /**
   * The timing model {@code spec} names (null: analytic, or a run without one), rebuilt from its
   * settings alone: a worker measures what the plan says, whatever its own options.
   */
  public static org.dise.runtime.timing.TimingConfig timingConfig(RunSpec spec) {
    String model = spec.settings().getOrDefault(TIMING, "analytic");
    if (model.equals("analytic")) {
      return null;
    }
    try {
      org.dise.runtime.timing.TimingConfig c = org.dise.runtime.timing.TimingConfig.defaults(model);
      spec.settings()
          .forEach(
              (k, v) -> {
                if (k.startsWith(TIMING + ".")) {
                  c.set(k.substring(TIMING.length() + 1), v);
                }
              });
      return c;
    } catch (IllegalArgumentException e) {
      throw new ExperimentException("run " + spec.kind() + ": " + e.getMessage());
    }
  }

  /** The {@code --set NAME=VALUE} settings given (the experiment checks the names). */
  private Map<String, String> given = Map.of();

  /** Sets the {@code --set} values; returns this lab. */
  public Lab set(Map<String, String> values) {
    this.given = Map.copyOf(values);
    return this;
  }

  /** The value of {@code o}: as given with {@code --set}, or its default for this grid. */
  public String option(Experiment.Option o) {
    return given.getOrDefault(o.name(), quick ? o.quickDefault() : o.fullDefault());
  }

  /**
   * {@code o} as comma-separated counts ({@code 1M}, {@code 500K}, {@code 62500}).
   *
   * @throws ExperimentException naming the option and the bad item
   */
  public List<Long> counts(Experiment.Option o) {
    List<Long> out = new java.util.ArrayList<>();
    for (String item : option(o).split(",")) {
      try {
        long v = org.dise.runtime.trigger.Triggers.parseCount(o.name(), item);
        if (v < 1) {
          throw new IllegalArgumentException(o.name() + " must be at least 1, not " + v);
        }
        out.add(v);
      } catch (IllegalArgumentException e) {
        throw new ExperimentException("--set " + o.name() + ": " + e.getMessage());
      }
    }
    return out;
  }

  public List<Workload> workloads() {
    return workloads;
  }

  /** The {@code --set} values given (not the defaults). */
  public Map<String, String> given() {
    return given;
  }

  private final Map<Path, String> sha256s = new java.util.HashMap<>();

  private String sha256(Workload w) {
    return sha256s.computeIfAbsent(w.program(), p -> w.sha256());
  }

  /**
   * A run of {@code w}: the specification holds the program's hash, so a rebuilt program is another
   * run.
   */
  public RunSpec spec(String kind, Workload w, Map<String, String> settings, String label) {
    return new RunSpec(kind, w.invocation(), sha256(w), settings, label);
  }

  /**
   * A run of several workloads (one program's inputs): the specification lists their invocations
   * and hashes in order.
   */
  public RunSpec spec(String kind, List<Workload> ws, Map<String, String> settings, String label) {
    return new RunSpec(
        kind,
        String.join(",", ws.stream().map(Workload::invocation).toList()),
        String.join(",", ws.stream().map(this::sha256).toList()),
        settings,
        label);
  }

  /** The workloads a run specification of {@link #spec(String, List, Map, String)} names. */
  public List<Workload> workloads(RunSpec spec) {
    List<Workload> out = new java.util.ArrayList<>();
    for (String invocation : spec.program().split(",")) {
      out.add(workload(spec, invocation));
    }
    return out;
  }

  /** The whole of {@code e} as one run: every program, quick or not, and the {@code --set}s. */
  public RunSpec wholeSpec(Experiment e) {
    Map<String, String> s = new java.util.TreeMap<>();
    given.forEach((k, v) -> s.put("set." + k, v));
    s.put("quick", String.valueOf(quick));
    return new RunSpec(
        e.name() + ".whole",
        String.join(",", workloads.stream().map(Workload::invocation).toList()),
        String.join(",", workloads.stream().map(this::sha256).toList()),
        s,
        e.name() + " (the whole experiment, one run)");
  }

  /** The workload a run specification names, among this lab's. */
  public Workload workload(RunSpec spec) {
    return workload(spec, spec.program());
  }

  private Workload workload(RunSpec spec, String invocation) {
    return workloads.stream()
        .filter(w -> w.invocation().equals(invocation))
        .findFirst()
        .orElseThrow(
            () ->
                new ExperimentException(
                    "run " + spec.kind() + ": program " + invocation + " is not in --programs"));
  }

  public boolean quick() {
    return quick;
  }

  /** A progress line on stderr, with the time since the experiment started. */
  public void progress(String format, Object... args) {
    if (progress != null) {
      progress.printf(
          Locale.ROOT,
          "[%6.1fs] %s%n",
          (System.nanoTime() - started) / 1e9,
          String.format(Locale.ROOT, format, args));
      progress.flush();
    }
  }

  /**
   * Adds {@code runs} to the runs this experiment will make, so that {@link #step} can say "run n
   * of N" and estimate what is left: a full run takes an hour or more.
   */
  public void plan(int runs) {
    planned += runs;
  }

  /**
   * A progress line for one finished run: "run n of N", the elapsed time (as every line) and, once
   * a run has finished, the time left at the mean pace so far (runs differ in length: an estimate).
   */
  public void step(String format, Object... args) {
    done++;
    String left = "";
    if (planned > done) {
      double each = elapsed() / done;
      left = String.format(Locale.ROOT, ", ~%s left", duration(each * (planned - done)));
    }
    progress(
        "run %d of %d%s: %s",
        done, Math.max(planned, done), left, String.format(Locale.ROOT, format, args));
  }

  /** Seconds as "45 s", "12 min" or "1 h 05 min". */
  static String duration(double seconds) {
    long s = Math.round(seconds);
    if (s < 100) {
      return s + " s";
    }
    long m = Math.round(seconds / 60);
    return m < 60 ? m + " min" : String.format(Locale.ROOT, "%d h %02d min", m / 60, m % 60);
  }

  /** Checks and lowers ACF text; an error in it is ours, not the user's. */
  public ProductionSet compile(String name, String text) {
    return compiled.computeIfAbsent(name + "\0" + text, k -> compileAgain(name, text));
  }

  /** Sets compiled so far: a plan's runs share a few ACF texts. */
  private final Map<String, ProductionSet> compiled = new java.util.HashMap<>();

  private ProductionSet compileAgain(String name, String text) {
    Frontend.Result r = Frontend.standard().check(new SourceFile(name, text), Path.of(name));
    Diagnostics diags = r.diagnostics();
    Optional<ProductionSet> set = r.program().flatMap(p -> Lowering.lower(p, diags));
    if (set.isEmpty()) {
      throw new IllegalStateException(
          name + ":\n" + DiagnosticRenderer.renderAll(diags.sorted()) + "\n" + text);
    }
    return set.get();
  }

  /** A fresh machine with {@code w} loaded, its input empty and its output discarded. */
  public Machine machine(Workload w) {
    return load(w, options);
  }

  /** {@code w} loaded under {@code options}, its input empty and its output discarded. */
  static Machine load(Workload w, Machine.Options options) {
    try {
      return session(w, options, null).load();
    } catch (SessionError e) {
      throw new ExperimentException(e.getMessage());
    }
  }

  /**
   * The profiling session of {@code w} under {@code set} (null: plain runs): its input empty, its
   * output discarded, an engine's refusal naming the workload.
   */
  static ProfilingSession session(Workload w, Machine.Options options, ProductionSet set) {
    return ProfilingSession.of(SessionOptions.plain(w.program(), w.args()), options, set)
        .named(w.label())
        .preparing(
            m -> {
              m.kernel().setStdio(0, InputStream.nullInputStream(), null);
              m.kernel().setStdio(1, null, OutputStream.nullOutputStream());
              m.kernel().setStdio(2, null, OutputStream.nullOutputStream());
            });
  }

  /** One finished run: its cost, its sinks' tables, the engine and the machine. */
  public record Run(
      Workload workload,
      CostReport cost,
      Map<String, ProfileTable> tables,
      ProfilingEngine engine,
      Machine machine,
      Machine.Outcome outcome) {
    public Map<String, Long> weights(String sink) {
      ProfileTable t = tables.get(sink);
      return t == null ? Map.of() : t.weights();
    }

    /** The distinct entries of every sink together (the profile's size). */
    public long entries() {
      return tables.values().stream().mapToLong(t -> t.rows().size()).sum();
    }
  }

  /** Runs {@code w} to its end under {@code set} (no external trigger). */
  public Run run(Workload w, ProductionSet set) {
    return run(w, set, null);
  }

  /** As {@link #run(Workload, ProductionSet)}, measured by {@code timed} (null: not timed). */
  public Run run(Workload w, ProductionSet set, org.dise.runtime.timing.TimingRun timed) {
    Machine m = machine(w);
    ProfilingEngine engine = session(w, options, set).start(m).engine();
    if (timed != null) {
      // Each sink's handler runs as RISC-V code where it has one (spec/timing.md).
      timed.handlers(
          set.sinks().stream()
              .map(
                  b -> new org.dise.runtime.timing.SinkHandler(b.name(), b.component(), b.params()))
              .toList());
      timed.attach(m.cpu());
    }
    Machine.Outcome out = m.run(-1);
    check(w, out);
    return new Run(w, engine.cost(), tables(engine, m), engine, m, out);
  }

  static Map<String, ProfileTable> tables(ProfilingEngine engine, Machine m) {
    Map<String, ProfileTable> tables = new LinkedHashMap<>();
    for (Sink s : engine.sinks()) {
      tables.put(s.name(), s.table(m.symbols()));
    }
    return tables;
  }

  /** A guest that faults or fails makes every figure of the run meaningless. */
  static void check(Workload w, Machine.Outcome out) {
    if (out.report() != null || out.exitStatus() != 0) {
      throw new ExperimentException(
          w.label()
              + ": the program failed (exit status "
              + out.exitStatus()
              + (out.report() == null ? "" : ": " + out.report())
              + ")");
    }
  }

  /** A setup for SamplingRun and Sweep: fresh machines of {@code w} under {@code set}. */
  public SamplingRun.Setup setup(Workload w, ProductionSet set) {
    return new SamplingRun.Setup() {
      @Override
      public Machine machine() {
        return Lab.this.machine(w);
      }

      @Override
      public ProfilingEngine engine() {
        return session(w, options, set).engine();
      }
    };
  }

  /**
   * The host's one-minute load average (NaN where the JVM cannot read it): run times on a shared
   * machine mean little without it, so the report gives it at the start and the end.
   */
  public static double loadAverage() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  public double loadAtStart() {
    return loadAtStart;
  }

  /** Seconds since the experiment started. */
  public double elapsed() {
    return (System.nanoTime() - started) / 1e9;
  }
}
