package org.dise.repl;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.dise.repl.common.ExitStatus;
import org.dise.repl.common.GuestFileOptions;
import org.dise.repl.common.RunGuest;
import org.dise.repl.common.RunOptions;
import org.dise.repl.common.RunService;
import org.dise.repl.common.RunTiming;
import org.dise.repl.common.Verbosity;
import org.dise.runtime.Machine;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.session.Engines;
import org.dise.runtime.session.ProfilingSession;
import org.dise.runtime.session.SessionOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code acf run}: runs a RISC-V program on the emulator. */
@Command(
    name = "run",
    // `[OPTIONS] PROGRAM [ARGS...]`: the full list is too long for a usage error's few lines.
    abbreviateSynopsis = true,
    description = "Run a statically linked RISC-V Linux program on the emulator.",
    footer = {
      "",
      "The guest's stdin, stdout and stderr are passed through and acf exits with the",
      "guest's exit status (128+signal when it faults, 1 when --max-insns stops it).",
      "On a terminal, a run longer than two seconds shows its progress on stderr.",
      "",
      "Examples:",
      "  ./acf run examples/programs/bin/hello a b c",
      "  ./acf run --stats examples/programs/bin/jpeg 2",
      "  ./acf run --max-insns 1M --allow-read /data prog /data/in.txt",
      "  ./acf run --acf examples/acf/hot_call_pairs.acf --out prof \\",
      "      examples/programs/bin/jpeg",
      "  ./acf run --config pairs.dcfg examples/programs/bin/jpeg",
      "",
      "Sampling (spec/sampling.md); the ACF needs the productions of equations",
      "(1) and (2), e.g. `import sampling; use external_trigger;`:",
      "  ./acf run --acf examples/acf/sampled_regions.acf --sampling periodic:10 \\",
      "      --interval 1M --shadow-exhaustive examples/programs/bin/phases 4",
      "  ./acf run --acf examples/acf/sampled_regions.acf --sampling phase:third \\",
      "      --threshold 25 --out prof examples/programs/bin/phases",
      "  ./acf run --acf examples/acf/sampled_regions.acf --sampling random:20:7 prog",
      "",
      "Range and value profiles:",
      "  ./acf run --acf examples/acf/rap_ranges.acf --out rap \\",
      "      examples/programs/bin/mcf",
      "  ./acf run --acf examples/acf/coproc_vs_sampling.acf examples/programs/bin/jpeg",
      "",
      "Program symbols (symbol(NAME), resolved when the program is loaded; in a",
      "pattern, a function of a library the program dlopens binds when it loads):",
      "  ./acf run --acf examples/acf/array_loads.acf examples/programs/bin/arrays",
      "Reporting to an optimization center (acf center serve; spec/remote.md):",
      "  ./acf run --config pairs.dcfg --report-to http://127.0.0.1:8470 --device d1 \\",
      "      --token acf_... examples/programs/bin/jpeg",
      "SimPoint (spec/profiles.md): vectors, then only the chosen intervals profiled:",
      "  ./acf run --acf examples/acf/basic_block_vectors.acf --out bbv prog",
      "  simpoint -loadFVFile bbv/BasicBlockVectors.bb -maxK 10 \\",
      "      -saveSimpoints pts -saveSimpointWeights wts",
      "  ./acf run --acf X.acf --simpoints pts --weights wts --out prof prog",
      "  ./acf run --acf X.acf --fast-forward 100M --max-insns 150M prog",
    },
    mixinStandardHelpOptions = true)
public final class RunCommand implements Callable<Integer> {
  @Option(
      names = "--max-insns",
      paramLabel = "N",
      converter = CountConverter.class,
      description =
          "Stop the guest after N instructions, counted over its whole process tree (forked"
              + " children included; default: no limit; K, M, G suffixes); under a sampling"
              + " trigger, N application instructions (inserted ones not counted).")
  long maxInsns = -1;

  @Option(
      names = "--stats",
      description =
          "Print 'stats: instructions=<n> seconds=<s> mips=<m> cpu_seconds=<c>"
              + " frame_fallbacks=<f>' on stderr at the end (cpu: the guest thread's CPU time;"
              + " f: units written again with ASM's stack map frames, acf.unitFrames).")
  boolean stats;

  /**
   * --sysroot, --allow-read, --allow-write: the guest's files, as acf sweep and acf repl take them.
   */
  @picocli.CommandLine.Mixin GuestFileOptions files = new GuestFileOptions();

  @Option(
      names = "--limit",
      paramLabel = "NAME=VALUE",
      description =
          "Set a guest resource limit (repeatable): nofile=N open descriptors"
              + " (default 1024), as=SIZE bytes of address space, K/M/G allowed (default 2G or half"
              + " the JVM heap, whichever is smaller). The guest gets EMFILE/ENOMEM at the limit.")
  List<String> limits = new ArrayList<>();

  @Option(
      names = "--env",
      paramLabel = "NAME=VALUE",
      description =
          "Set a variable in the guest's environment (repeatable). The guest's"
              + " environment is otherwise empty, the same on every host, unless --env-from-host"
              + " (spec/emulator.md).")
  List<String> env = new ArrayList<>();

  @Option(
      names = "--clear-env",
      description =
          "Start the guest with an empty environment (the"
              + " default; kept so that scripts can say so).")
  boolean clearEnv;

  @Option(
      names = "--env-from-host",
      description =
          "Start the guest with the host's environment"
              + " instead of an empty one, as qemu-user does (runs then depend on the host).")
  boolean envFromHost;

  @Option(
      names = "--seed",
      paramLabel = "N",
      description = "Seed of AT_RANDOM and getrandom (default: ${DEFAULT-VALUE}).")
  long seed = 0x5eed;

  @Option(
      names = "--translate-threshold",
      paramLabel = "N",
      description =
          "Translate a code block to JVM bytecode after it ran N times; 0 interprets"
              + " everything (default: ${DEFAULT-VALUE}).")
  int translateThreshold = Machine.Options.DEFAULT_TRANSLATE_THRESHOLD;

  @Option(
      names = "--translate-warmup",
      paramLabel = "N",
      converter = CountConverter.class,
      description =
          "Until the process has retired N instructions (K, M suffixes) translate only blocks"
              + " that ran 20 times the threshold: the translator's first use costs a fresh JVM"
              + " more than a short program's whole run; 0 translates at the threshold from the"
              + " start (default: 1M, spec/emulator.md).")
  long translateWarmup = -1;

  @Option(
      names = "--quantum",
      paramLabel = "N",
      converter = CountConverter.class,
      description =
          "Guest threads share one emulated core: each runs N instructions (K, M suffixes)"
              + " before the next runnable one, and gives the core up at once when it blocks;"
              + " the schedule, and so every profile, is the same on every run and host"
              + " (default: ${DEFAULT-VALUE}).")
  long quantum = Machine.Options.DEFAULT_QUANTUM;

  @Option(
      names = "--on-unsupported",
      paramLabel = "fail|enosys|warn",
      description =
          "What a system call acf does not implement does: fail stops the run with a report"
              + " naming the call and its arguments (status 159, SIGSYS); enosys returns ENOSYS"
              + " to the guest, reported once per call; warn returns ENOSYS and reports every"
              + " call (default: ${DEFAULT-VALUE}).")
  String onUnsupported = "fail";

  @Option(
      names = "--acf",
      paramLabel = "FILE",
      description =
          "Run the program under the productions of this ACF (see spec/engine.md);"
              + " repeat to compose several, in the order given.")
  List<Path> acfs = new ArrayList<>();

  @Option(
      names = "--no-cache",
      description =
          "Compile the ACFs even if this build compiled the same texts before. Sets"
              + " compiled with no warning are kept in the folder ACF_CACHE names"
              + " (default: acf/compiled in the user's cache folder; ACF_CACHE=off: no"
              + " cache) and read back without the compiler (spec/acf-cache.md).")
  boolean noCache;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description =
          "Run the program under a deployable configuration from acf compile; the"
              + " compiler is not used.")
  Path config;

  @Option(
      names = "--engine",
      paramLabel = "KIND",
      converter = EngineKindConverter.class,
      description =
          "interpreted, the one engine (the tables; replacements emitted into translated code);"
              + " generated was retired (docs/benchmarks.md); default: ${DEFAULT-VALUE}.")
  String engineKind = Engines.INTERPRETED;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description =
          "With --acf or --config: write each sink's profile as DIR/<sink>.csv and"
              + " .json (also .folded for call pairs and methods, .bb for basic block vectors, the"
              + " tree as .tree.json and .tree.txt for RAP) and DIR/summary.json; with sampling also"
              + " DIR/<sink>.estimate.csv (the scaled whole-program estimate) and DIR/phases.csv."
              + " `acf report DIR` prints them again.")
  Path out;

  /** --sampling and what tunes it. */
  @picocli.CommandLine.Mixin SamplingOptions sampling = new SamplingOptions();

  @Option(
      names = "--progress",
      negatable = true,
      defaultValue = "true",
      fallbackValue = "true",
      description =
          "Show instructions, MIPS and time on stderr while a long run goes on, when"
              + " stderr is a terminal (default: on; --no-progress turns it off).")
  boolean progress = true;

  @Option(
      names = "--follow-exec",
      negatable = true,
      defaultValue = "true",
      fallbackValue = "true",
      description =
          "When the guest execs a RISC-V program, keep its productions on the new program"
              + " (default: on; --no-follow-exec removes them at the exec). Any other file is"
              + " ENOEXEC: no host program ever runs.")
  boolean followExec = true;

  /** --report-to and its options: sending the profile to an optimization center. */
  @picocli.CommandLine.Mixin ReportOptions report = new ReportOptions();

  @picocli.CommandLine.Mixin TimingOptions timing = new TimingOptions();

  /** --fast-forward, --simpoints and --weights. */
  @picocli.CommandLine.Mixin PointOptions points = new PointOptions();

  @Parameters(index = "0", paramLabel = "PROGRAM", description = "The RISC-V ELF program.")
  Path program;

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  /** The whole command line as typed ({@code run} first), for summary.json; null: picocli's. */
  List<String> typed;

  /** The --out folder's identity when it was prepared: the guest may not swap it for a link. */
  Object outKey;

  /** The profiling session this command opened: the productions, and every run's machine. */
  ProfilingSession session;

  @Parameters(index = "1..*", paramLabel = "ARGS", description = "Arguments for the program.")
  List<String> args = new ArrayList<>();

  /** What this run was asked to do, checked once ({@link RunOptions}): set by {@link #call}. */
  RunOptions options;

  /**
   * The options as one record: made (and so checked) once, from the mixins and fields picocli or
   * {@link RunLine} filled.
   */
  RunOptions values() {
    return new RunOptions(
        new SessionOptions(program, rawArgs(args), acfs, config, out, maxInsns, followExec),
        guestValues(),
        sampling.values(),
        points.values(),
        timing.values(),
        report.values(),
        stats,
        progress,
        noCache,
        engineKind);
  }

  /** The guest's options given, with its files. */
  RunGuest guestValues() {
    return new RunGuest(
        seed,
        translateThreshold,
        translateWarmup,
        quantum,
        onUnsupported,
        limits,
        // The bytes typed, whatever the locale.
        new RunGuest.Environment(guestTexts(env), clearEnv, envFromHost),
        files.values());
  }

  @Override
  public Integer call() {
    options = values(); // the one validation of how the options go together
    if (out != null) {
      RunService.prepareOut(
          out, "--out", "nothing was run"); // before the run, so that no profile is lost after it
      outKey = GuestReach.identity(out);
    }
    // The productions (the configuration, or the ACFs through the cache), bound to the program's
    // symbols (symbol(NAME)) now that the program is known.
    long opened = System.nanoTime();
    session =
        ProfilingSession.open(
            options.session(),
            options.machine(org.dise.runtime.linux.HostNames.workingDirectory(), System.err),
            files -> AcfLoader.load(files, noCache ? null : AcfCache.standard()),
            System.err);
    ProductionSet productions = session.productions();
    Path origin = session.origin();
    debugSession(productions, opened);
    RunOptions.Checked checked = options.against(productions, origin);
    if (options.points().any()) {
      return new PointRuns(this).run(productions, origin);
    }
    if (checked.trigger() != null) {
      return new SampledRuns(this).run(productions, origin, checked.trigger());
    }
    return new WholeRuns(this)
        .run(productions, origin, RunTiming.start(checked.timing(), productions != null));
  }

  /**
   * --verbose: what the session loaded and how long it took, which engine and cost model run it.
   */
  private void debugSession(ProductionSet productions, long openedNanos) {
    if (!Verbosity.verbose()) {
      return;
    }
    PrintStream err = System.err;
    Verbosity.debug(
        err,
        "program "
            + program
            + (args.isEmpty() ? "" : " with " + args.size() + " argument(s)")
            + "; productions from "
            + (config != null
                ? "the configuration " + config
                : acfs.isEmpty() ? "nowhere (a plain run)" : "the ACF " + acfs));
    if (productions != null) {
      Verbosity.debug(
          err,
          "%d production(s), %d replacement sequence(s), %d sink(s), %d trigger(s);"
              + " read and bound in %.0f ms",
          productions.productions().size(),
          productions.replacements().size(),
          productions.sinks().size(),
          productions.triggers().size(),
          (System.nanoTime() - openedNanos) / 1e6);
    }
    Verbosity.debug(
        err,
        "engine "
            + (productions == null ? "none" : engineKind)
            + ", translation after "
            + translateThreshold
            + " executions of a block, cost model "
            + timing.model
            + (sampling.sampling != null ? ", sampling " + sampling.sampling : ""));
  }

  /** What this run was asked to do, for summary.json. */
  RunSummary.Request request() {
    List<String> command = new ArrayList<>();
    command.add("acf");
    command.addAll(typed != null ? typed : spec.commandLine().getParseResult().originalArgs());
    RunGuest g = options.guest();
    RunSummary.EnvSource source =
        g.env().clear()
            ? RunSummary.EnvSource.CLEARED
            : g.env().fromHost() ? RunSummary.EnvSource.HOST : RunSummary.EnvSource.DEFAULT;
    return new RunSummary.Request(
        command,
        program,
        args,
        acfs,
        config,
        session.config(),
        engineKind,
        g.seed(),
        maxInsns,
        source,
        options.machine(org.dise.runtime.linux.HostNames.workingDirectory(), System.err).env(),
        options.sampling().summary());
  }

  /**
   * The run's exit status with its report: a part the center refused for good or a refused token
   * fails a run the guest ended well (the profile was asked for and did not arrive).
   */
  int reported(int guest, org.dise.center.DeviceReporter reporter) {
    String failure = reporter == null ? null : reporter.failure();
    if (failure == null) {
      return guest;
    }
    System.err.println("acf: the profile was not delivered: " + failure);
    return guest != 0 ? guest : ExitStatus.FAILURE;
  }

  /** The center's reporter of this run, or null when it reports to none. */
  org.dise.center.DeviceReporter reporter() {
    return options.report().active() ? options.report().open(program, options.configFiles()) : null;
  }

  /**
   * The guest's arguments as the bytes the user typed: the JVM decodes argv with the locale's
   * charset, which mangles UTF-8 under the C locale, so take them from /proc/self/cmdline.
   */
  static List<String> rawArgs(List<String> decoded) {
    List<String> all = org.dise.runtime.linux.HostCommandLine.procStrings("/proc/self/cmdline");
    if (all == null || all.size() < decoded.size()) {
      return decoded;
    }
    List<String> tail = all.subList(all.size() - decoded.size(), all.size());
    for (int i = 0; i < tail.size(); i++) {
      if (tail.get(i).length() != decoded.get(i).length() && HostArgs.isAscii(decoded.get(i))) {
        return decoded; // not the same argument list; keep what picocli saw
      }
    }
    return new ArrayList<>(tail);
  }

  /**
   * Each of {@code values} as {@link HostArgs#guestText} gives it, unmodifiable. A loop rather than
   * a stream, as in {@link HostArgs#isAscii}: every plain run passes here.
   */
  private static List<String> guestTexts(List<String> values) {
    List<String> out = new ArrayList<>(values.size());
    for (String v : values) {
      out.add(HostArgs.guestText(v));
    }
    return java.util.Collections.unmodifiableList(out);
  }
}
