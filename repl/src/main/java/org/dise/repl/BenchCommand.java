package org.dise.repl;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.dise.experiments.Workload;
import org.dise.repl.common.ExitStatus;
import org.dise.repl.common.GuestSettings;
import org.dise.repl.common.RunGuest;
import org.dise.repl.common.UserError;
import org.dise.runtime.Machine;
import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.cpu.StopReason;
import org.dise.runtime.dise.CostReport;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.dise.ProfilingEngine;
import org.dise.runtime.linux.HostNames;
import org.dise.runtime.session.Engines;
import org.dise.runtime.session.ProfilingSession;
import org.dise.runtime.session.SessionOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code acf bench}: runs the example workloads on our emulator and on qemu-riscv64 in one run and
 * prints instructions, MIPS and the time ratio, so speed claims are measured, not asserted.
 */
@Command(
    name = "bench",
    description =
        "Measure emulator speed on the example workloads (and qemu-riscv64's, if present),"
            + " or run a named micro-benchmark (acf bench --list).",
    footer = {
      "",
      "MIPS is million guest instructions per wall-clock second; cpu-MIPS uses the",
      "emulating thread's CPU time, which a busy machine disturbs less. Record results",
      "with the date and machine in docs/benchmarks.md.",
      "",
      "Examples:",
      "  ./acf bench                      # all workloads at their default sizes",
      "  ./acf bench --arg 1 jpeg mcf     # two workloads with argument 1",
      "  ./acf bench --no-qemu --repeat 3",
      "  ./acf bench --acf examples/acf/hot_call_pairs.acf motion mcf",
      "  ./acf bench --rap --max-insns 5M jpeg mcf   # RAP updates/s and node counts",
      "  ./acf bench --cold --repeat 3   # fresh ./acf run processes beside qemu",
      "  ./acf bench --cold --set long   # long runs (interpreter, FP, SQLite)",
      "  ./acf bench --cold --acf examples/acf/hot_call_pairs.acf mcf",
      "  ./acf bench --list              # the micro-benchmarks and the workloads",
      "  ./acf bench stream-finder       # one micro-benchmark (fpu, frontend, ...)",
      "",
      "With --acf, each workload runs once to warm up, then without productions and",
      "under them in turn, --repeat times; the best",
      "of each is shown. 'slowdown' is the ratio of the guest thread's CPU time to the",
      "run without productions, 'model' the cost model's total cycles over",
      "application instructions.",
      "",
      "With --cold, every workload (hello included) runs as a fresh process, as a user",
      "types it ('./acf run PROGRAM', through the launcher), beside qemu-riscv64; wall",
      "and CPU seconds (user+system of all the process's threads) and their ratios to",
      "qemu are the median of --repeat runs, with the geometric mean of the ratios",
      "(with --repeat: acf and qemu take turns, a ratio is the median of each round's,",
      "and 'wall/q range' the lowest and highest round's wall ratio);",
      "with --acf, two further columns give the run under the productions over the",
      "plain run, in wall time (X/plain) and in CPU time (X-cpu/plain, steadier on a",
      "busy machine).",
    },
    mixinStandardHelpOptions = true)
public final class BenchCommand implements Callable<Integer> {
  @Option(
      names = "--dir",
      paramLabel = "DIR",
      description = "Workload binaries (default: ${DEFAULT-VALUE}).")
  Path dir = Path.of("examples/programs/bin");

  @Option(
      names = "--arg",
      paramLabel = "ARG",
      description = "Argument passed to every workload (e.g. a size).")
  List<String> args = new ArrayList<>();

  @Option(
      names = "--sysroot",
      paramLabel = "DIR",
      description =
          "As for acf run: where dynamically linked workloads (--dir"
              + " examples/programs/bin-dynamic) find their libraries; qemu-riscv64 gets it as -L.")
  Path sysroot;

  /** The sysroot's directory for qemu-riscv64 -L, or null when there is none. */
  private String qemuSysroot() {
    org.dise.runtime.linux.Sysroot s = GuestSettings.chooseSysroot(sysroot);
    return s == null ? null : s.root().toString();
  }

  @Option(names = "--no-qemu", description = "Do not run qemu-riscv64 for comparison.")
  boolean noQemu;

  @Option(
      names = "--repeat",
      paramLabel = "N",
      description = "Runs per workload; the best is reported (default: ${DEFAULT-VALUE}).")
  int repeat = 1;

  @Option(
      names = "--translate-threshold",
      paramLabel = "N",
      description = "As for acf run: 0 measures the interpreter alone (default: ${DEFAULT-VALUE}).")
  int translateThreshold = Machine.Options.DEFAULT_TRANSLATE_THRESHOLD;

  @Option(
      names = "--acf",
      paramLabel = "FILE",
      description = "Also run every workload under these productions (repeat to compose).")
  List<Path> acfs = new ArrayList<>();

  /** {@code --engine}: {@code both} meant the interpreted and the retired generated engine. */
  static final class EngineChoice extends EngineKindConverter {
    @Override
    public String convert(String value) {
      return super.convert(value.equals("both") ? "generated" : value);
    }
  }

  @Option(
      names = "--engine",
      paramLabel = "KIND",
      converter = EngineChoice.class,
      description =
          "With --acf: interpreted, the one engine (generated was retired,"
              + " docs/benchmarks.md; default: ${DEFAULT-VALUE}).")
  String engine = Engines.INTERPRETED;

  @Option(
      names = "--rap",
      description =
          "Instead: RAP tree updates per second on each workload's"
              + " pc and load-value streams beside exact hash-map counters, and the tree's node counts"
              + " and hot-range error at epsilon 10%% and 1%% (the RAP paper's Figs. 7-8).")
  boolean rap;

  @Option(
      names = "--max-insns",
      paramLabel = "N",
      converter = CountConverter.class,
      description =
          "With --rap: the guest instructions whose events are captured per workload"
              + " (default: 20M; K, M, G suffixes).")
  long maxInsns = 20_000_000;

  @Option(
      names = "--cold",
      description =
          "Fresh processes as a user runs them, beside qemu-riscv64"
              + " (wall and all-thread CPU time, ratios, geometric mean).")
  boolean cold;

  @Option(
      names = "--launcher",
      paramLabel = "CMD",
      split = " ",
      description =
          "With --cold: the command that starts acf (default: the ./acf launcher of"
              + " this build, or java -jar its jar).")
  List<String> launcher = new ArrayList<>();

  @Option(
      names = "--set",
      paramLabel = "NAME",
      description =
          "With --cold: the named workload set of examples/programs/sets/NAME.txt, each at its"
              + " own size (long: runs of 0.5 s or more under qemu; short: 0.02-0.1 s).")
  String set;

  @Option(
      names = "--timing",
      paramLabel = "MODEL",
      description =
          "With --cold: also run every workload under these timing models (inorder, ooo or"
              + " both: inorder,ooo; spec/timing.md), each a column of time over the plain"
              + " run's beside it (with --acf: under the productions too).")
  String timing;

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      description =
          "text (default) or json: the in-process workload table as one document with the same"
              + " figures (also with --cold, --rap and --acf; not for micro-benchmarks).")
  OutputFormat format = OutputFormat.text;

  @Option(names = "--list", description = "List the micro-benchmarks and the workloads, then stop.")
  boolean list;

  @Parameters(
      paramLabel = "WORKLOAD",
      description =
          "Workload names (default: all but hello),"
              + " or micro-benchmark names (acf bench --list).")
  List<String> names = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    if (format == OutputFormat.json
        && !names.isEmpty()
        && names.stream().allMatch(n -> Benchmarks.find(n).isPresent())) {
      throw new UserError(
          "--format json covers the workload tables (in-process, --cold, --rap, --acf), not"
              + " micro-benchmarks, which print their own text",
          ExitStatus.USAGE);
    }
    boolean json = format == OutputFormat.json;
    // JSON: the tables' figures collected, the text going nowhere.
    PrintStream out = json ? new PrintStream(java.io.OutputStream.nullOutputStream()) : System.out;
    if (list) {
      return list(System.out);
    }
    if (!names.isEmpty() && names.stream().allMatch(n -> Benchmarks.find(n).isPresent())) {
      names.forEach(n -> Benchmarks.run(Benchmarks.find(n).orElseThrow(), System.out));
      machine(System.out);
      return 0;
    }
    guest().validate(); // a wrong --sysroot or --translate-threshold: acf run's refusal, first
    if (cold) {
      return cold();
    }
    if (timing != null) {
      throw new UserError("--timing needs --cold (fresh processes)", ExitStatus.USAGE);
    }
    List<Path> programs = workloads();
    if (rap) {
      List<Object> rows = new ArrayList<>();
      RapBench.run(
          programs,
          args,
          guest().machine(HostNames.workingDirectory(), System.err),
          maxInsns,
          repeat,
          out,
          rows);
      machine(out);
      printJson(json, rows, null);
      return 0;
    }
    if (!acfs.isEmpty()) {
      return withProductions(programs, AcfLoader.load(acfs), out, json);
    }
    boolean qemu = !noQemu && onPath("qemu-riscv64");
    List<Object> rows = new ArrayList<>();
    out.printf(
        "%-10s %14s %9s %9s %9s %6s %9s %8s%n",
        "workload", "instructions", "seconds", "MIPS", "cpu-MIPS", "trans", "qemu-s", "ratio");
    double totalInsns = 0;
    double totalSeconds = 0;
    for (Path p : programs) {
      Result best = null;
      for (int i = 0; i < repeat; i++) {
        Result r = runOurs(p, null);
        if (best == null || r.seconds < best.seconds) {
          best = r;
        }
      }
      double q = qemu ? runQemu(p) : Double.NaN;
      totalInsns += best.instructions;
      totalSeconds += best.seconds;
      out.printf(
          "%-10s %,14d %9.2f %9.1f %9.1f %5.0f%% %9s %8s%n",
          p.getFileName(),
          best.instructions,
          best.seconds,
          best.instructions / best.seconds / 1e6,
          best.instructions / best.cpuSeconds / 1e6,
          100.0 * best.translated / Math.max(1, best.instructions),
          qemu ? String.format("%.2f", q) : "-",
          qemu ? String.format("%.1fx", best.seconds / q) : "-");
      if (org.dise.repl.common.Verbosity.verbose()) {
        out.printf(
            "  translated blocks %d, entries into translated code %,d (%.1f instructions"
                + " each), %,d of them chained from the previous unit%n",
            best.translatedBlocks,
            best.entries,
            (double) best.translated / Math.max(1, best.entries),
            best.chained);
        if (best.counters.nestedCalls() > 0) { // with -Dacf.callDepth=N
          out.printf(
              "  guest calls run from their caller's unit %,d, returns back into it %,d%n",
              best.counters.nestedCalls(), best.counters.nestedReturns());
        }
        joinsAndExits(out, "", best.counters());
      }
      if (best.status != 0) {
        out.printf("  (%s exited with status %d)%n", p.getFileName(), best.status);
      }
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("workload", p.getFileName().toString());
      row.put("instructions", best.instructions);
      row.put("seconds", best.seconds);
      row.put("mips", finite(best.instructions / best.seconds / 1e6));
      row.put("cpu_mips", finite(best.instructions / best.cpuSeconds / 1e6));
      row.put("translated_percent", 100.0 * best.translated / Math.max(1, best.instructions));
      row.put("qemu_seconds", qemu ? finite(q) : null);
      row.put("ratio", qemu ? finite(best.seconds / q) : null);
      row.put("translated_blocks", best.translatedBlocks);
      row.put("entries", best.entries);
      row.put("chained", best.chained);
      row.put("nested_calls", best.counters.nestedCalls());
      row.put("nested_returns", best.counters.nestedReturns());
      row.put("exit_status", best.status);
      rows.add(row);
    }
    out.printf(
        "%-10s %,14d %9.2f %9.1f%n",
        "total", (long) totalInsns, totalSeconds, totalInsns / totalSeconds / 1e6);
    machine(out);
    Map<String, Object> total = new LinkedHashMap<>();
    total.put("instructions", (long) totalInsns);
    total.put("seconds", totalSeconds);
    total.put("mips", finite(totalInsns / totalSeconds / 1e6));
    printJson(json, rows, total);
    return 0;
  }

  /** --format json: the table's rows, its total (if any) and the machine, as one document. */
  private void printJson(boolean json, List<Object> rows, Map<String, Object> total) {
    if (json) {
      Map<String, Object> doc = new LinkedHashMap<>();
      doc.put("workloads", rows);
      if (total != null) {
        doc.put("total", total);
      }
      doc.put("machine", machineFigures());
      System.out.println(org.dise.repl.common.SummaryJson.write(doc));
    }
  }

  /** {@code --cold}: fresh processes, hello included unless workloads are named. */
  private int cold() throws IOException, InterruptedException {
    List<Workload> programs = new ArrayList<>();
    if (set != null) {
      if (!names.isEmpty() || !args.isEmpty()) {
        throw new UserError(
            "--set gives each workload its own arguments: name no workloads and no --arg",
            ExitStatus.USAGE);
      }
      programs.addAll(BenchSet.load(ColdBench.repository(), set, System.err));
    } else {
      workloads().forEach(p -> programs.add(Workload.of(p, args)));
      if (names.isEmpty() && Files.isRegularFile(dir.resolve("hello"))) {
        programs.add(0, Workload.of(dir.resolve("hello"), args));
      }
    }
    List<String> runOptions = new ArrayList<>();
    if (sysroot != null) {
      runOptions.addAll(List.of("--sysroot", sysroot.toString()));
    }
    if (translateThreshold != Machine.Options.DEFAULT_TRANSLATE_THRESHOLD) {
      runOptions.addAll(List.of("--translate-threshold", String.valueOf(translateThreshold)));
    }
    List<List<String>> acfOptions = new ArrayList<>();
    List<String> acfNames = new ArrayList<>();
    if (!acfs.isEmpty()) {
      AcfLoader.load(acfs); // a broken ACF is reported once, here, not as failed runs
      List<String> o = new ArrayList<>();
      for (Path a : acfs) {
        o.addAll(List.of("--acf", a.toString()));
      }
      o.addAll(List.of("--engine", engine));
      acfOptions.add(o);
      acfNames.add(engine.substring(0, 3));
    }
    if (timing != null) {
      // Each model a configuration beside the plain run (under the productions, if any).
      List<List<String>> base = acfOptions.isEmpty() ? List.of(List.of()) : List.copyOf(acfOptions);
      List<String> baseNames = acfNames.isEmpty() ? List.of("") : List.copyOf(acfNames);
      acfOptions.clear();
      acfNames.clear();
      for (String model : timing.split(",")) {
        org.dise.repl.common.RunTiming.read(model, null); // an unknown model is refused once, here
        for (int k = 0; k < base.size(); k++) {
          List<String> o = new ArrayList<>(List.of("--timing", model));
          o.addAll(base.get(k));
          acfOptions.add(o);
          acfNames.add(baseNames.get(k).isEmpty() ? model : model + "+" + baseNames.get(k));
        }
      }
    }
    List<String> cmd = launcher.isEmpty() ? ColdBench.defaultLauncher() : launcher;
    return new ColdBench(
            cmd,
            runOptions,
            acfOptions,
            acfNames,
            repeat,
            !noQemu && onPath("qemu-riscv64"),
            System.out,
            qemuSysroot(),
            format == OutputFormat.json)
        .run(programs);
  }

  /** JSON has no NaN or infinity: a rate over a zero time is null there ("-" in the text). */
  private static Double finite(double x) {
    return Double.isFinite(x) ? x : null;
  }

  /** The machine line's figures, for --format json. */
  private Map<String, Object> machineFigures() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("cores", Runtime.getRuntime().availableProcessors());
    m.put("arch", System.getProperty("os.arch"));
    m.put("java", System.getProperty("java.version"));
    m.put("translate_threshold", translateThreshold);
    m.put("load_average", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    return m;
  }

  private void machine(PrintStream out) {
    out.printf(
        "machine: %d cores, %s, Java %s, translate-threshold %d, load average %.2f%n",
        Runtime.getRuntime().availableProcessors(),
        System.getProperty("os.arch"),
        System.getProperty("java.version"),
        translateThreshold,
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
  }

  /**
   * Each workload without productions, then under {@code set} (the one engine, from the session).
   */
  private int withProductions(
      List<Path> programs, ProductionSet set, PrintStream out, boolean json) {
    List<Object> rows = new ArrayList<>();
    out.printf(
        "%-10s %-11s %14s %9s %9s %9s %9s %12s%n",
        "workload",
        "engine",
        "instructions",
        "seconds",
        "cpu-MIPS",
        "slowdown",
        "model",
        "replacements");
    for (Path p : programs) {
      // One discarded run warms the emulator up, then the configurations take turns, so that
      // JIT warm-up and changes in the machine's load fall on all of them alike.
      runOurs(p, null);
      Result plain = null;
      Result best = null;
      for (int i = 0; i < repeat; i++) {
        plain = better(plain, runOurs(p, null));
        best = better(best, runOurs(p, set));
      }
      out.printf(
          "%-10s %-11s %,14d %9.2f %9.1f %9s %9s %12s%n",
          p.getFileName(),
          "none",
          plain.instructions,
          plain.seconds,
          plain.instructions / plain.cpuSeconds / 1e6,
          "1.00",
          "1.00",
          "-");
      Result r = best;
      CostReport c = r.cost;
      out.printf(
          "%-10s %-11s %,14d %9.2f %9.1f %9.2f %9.2f %,12d%n",
          p.getFileName(),
          engine,
          r.instructions,
          r.seconds,
          r.instructions / r.cpuSeconds / 1e6,
          r.cpuSeconds / plain.cpuSeconds,
          c.overhead(),
          c.replacements());
      for (Result x : List.of(plain, r)) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("workload", p.getFileName().toString());
        row.put("engine", x == plain ? "none" : engine);
        row.put("instructions", x.instructions);
        row.put("seconds", x.seconds);
        row.put("cpu_mips", finite(x.instructions / x.cpuSeconds / 1e6));
        row.put("slowdown", x == plain ? 1.0 : finite(x.cpuSeconds / plain.cpuSeconds));
        row.put("model", x == plain ? 1.0 : finite(x.cost.overhead()));
        row.put("replacements", x == plain ? null : x.cost.replacements());
        row.put("exit_status", x.status);
        rows.add(row);
      }
      if (org.dise.repl.common.Verbosity.verbose()) {
        entries(out, "none", plain);
        entries(out, engine, best);
      }
    }
    machine(out);
    printJson(json, rows, null);
    return 0;
  }

  /**
   * --verbose (the common option): how often the run entered translated code (it leaves on every
   * exit).
   */
  private static void entries(PrintStream out, String engine, Result r) {
    out.printf(
        "  %-11s translated %.1f%% of instructions, %,d entries into translated code"
            + " (%.1f instructions each)%n",
        engine,
        100.0 * r.translated / Math.max(1, r.instructions),
        r.entries,
        (double) r.translated / Math.max(1, r.entries));
    if (r.prologueCalls + r.emittedPrologues > 0) {
      out.printf(
          "  %-11s prologues: %,d emitted inline, %,d calls into the engine%n",
          "", r.emittedPrologues, r.prologueCalls);
    }
    if (r.taggedCalls + r.emittedReplacements > 0) {
      out.printf(
          "  %-11s whole replacements: %,d emitted inline, %,d calls into the engine%n",
          "", r.emittedReplacements, r.taggedCalls);
    }
    joinsAndExits(out, String.format("%-11s ", engine), r.counters());
  }

  /**
   * The units joined, and with {@code -Dacf.exitStats=true} why translated code went back to the
   * dispatcher, each line after {@code " " + label}.
   */
  private static void joinsAndExits(PrintStream out, String label, Cpu.Counters c) {
    if (c.unitsJoined() > 0) { // -Dacf.joinUnits=N, default 100,000
      out.printf(
          "  %sunits joined at hot edges %,d, joins refused as over the limits %,d%n",
          label, c.unitsJoined(), c.joinsRefused());
    }
    c.exitKinds().forEach((k, v) -> out.printf("  %sunit exits, %s: %,d%n", label, k, v));
  }

  /** The faster of two runs by guest-thread CPU time ({@code a} may be null). */
  private static Result better(Result a, Result b) {
    return a == null || b.cpuSeconds < a.cpuSeconds ? b : a;
  }

  /** One run: counts, wall and thread-CPU seconds, and instructions run in translated code. */
  private record Result(
      long instructions,
      double seconds,
      double cpuSeconds,
      int status,
      long translated,
      long entries,
      long chained,
      int translatedBlocks,
      CostReport cost,
      long prologueCalls,
      long emittedPrologues,
      long taggedCalls,
      long emittedReplacements,
      Cpu.Counters counters) {}

  /** What {@code acf bench NAME} can run, for --list. */
  private int list(PrintStream out) throws IOException {
    out.println("micro-benchmarks (acf bench NAME; figures recorded in docs/benchmarks.md):");
    for (Benchmarks.Benchmark b : Benchmarks.ALL) {
      out.printf("  %-14s %s%n", b.name(), b.measures());
    }
    out.println(
        "workloads in "
            + dir
            + " (acf bench [WORKLOAD...], with --acf, --cold or --rap"
            + " for the other measures; acf bench --help):");
    if (Files.isDirectory(dir)) {
      try (Stream<Path> s = Files.list(dir)) {
        out.println(
            "  "
                + String.join(
                    " ",
                    s.filter(Files::isRegularFile)
                        .map(p -> p.getFileName().toString())
                        .sorted()
                        .toList()));
      }
    } else {
      out.println("  (none: " + dir + " is not a directory; use --dir)");
    }
    return 0;
  }

  private List<Path> workloads() throws IOException {
    if (!Files.isDirectory(dir)) {
      throw new UserError(dir + ": no such directory (use --dir)", ExitStatus.USAGE);
    }
    List<Path> all = new ArrayList<>();
    if (names.isEmpty()) {
      try (Stream<Path> s = Files.list(dir)) {
        s.filter(Files::isRegularFile)
            .filter(p -> !p.getFileName().toString().equals("hello"))
            .sorted()
            .forEach(all::add);
      }
    } else {
      for (String n : names) {
        Path p = dir.resolve(n);
        if (!Files.isRegularFile(p)) {
          throw new UserError(
              p
                  + ": no such workload"
                  + (n.contains("/")
                      ? ""
                      : " (and " + n + " is no micro-benchmark: " + Benchmarks.names() + ")"),
              ExitStatus.USAGE);
        }
        all.add(p);
      }
    }
    return all;
  }

  /** The workloads' guest: --sysroot and --translate-threshold, as acf run takes them. */
  private RunGuest guest() {
    return RunGuest.measured(new RunGuest.Files(sysroot, List.of(), List.of()), translateThreshold);
  }

  /** One quiet run of {@code program} through the profiling session, under {@code set} or none. */
  private Result runOurs(Path program, ProductionSet set) {
    ProfilingSession.Run run =
        ProfilingSession.of(
                new SessionOptions(
                    program, args, set == null ? List.of() : acfs, null, null, -1, true),
                guest().machine(HostNames.workingDirectory(), System.err),
                set)
            .quiet()
            .start();
    Machine m = run.machine();
    ProfilingEngine engine = run.engine();
    if (m.cpu().blockCompiler() != null && org.dise.repl.common.Verbosity.verbose()) {
      m.cpu().blockCompiler().countPlanRuns(true); // -v prints them (an increment per plan run)
    }
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long c0 = mx.getCurrentThreadCpuTime();
    long t0 = System.nanoTime();
    Machine.Outcome o = m.run(-1);
    double secs = (System.nanoTime() - t0) / 1e9;
    double cpu = (mx.getCurrentThreadCpuTime() - c0) / 1e9;
    int status = o.reason() == StopReason.EXITED ? o.exitStatus() : 128;
    var bc = m.cpu().blockCompiler();
    Cpu.Counters c = m.cpu().counters();
    return new Result(
        o.instructions(),
        secs,
        cpu,
        status,
        c.translatedInstructions(),
        c.unitEntries(),
        c.chainedEntries(),
        bc == null ? 0 : bc.compiledBlocks(),
        engine == null ? null : engine.cost(),
        c.prologueCalls(),
        c.emittedPrologueRuns(),
        c.taggedCalls(),
        c.emittedReplacementRuns(),
        c);
  }

  private double runQemu(Path program) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add("qemu-riscv64");
    if (qemuSysroot() != null) {
      cmd.add("-L");
      cmd.add(qemuSysroot());
    }
    cmd.add(program.toString());
    cmd.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
    pb.redirectError(ProcessBuilder.Redirect.DISCARD);
    long t0 = System.nanoTime();
    Process p = pb.start();
    if (!p.waitFor(30, TimeUnit.MINUTES)) {
      p.destroyForcibly();
    }
    return (System.nanoTime() - t0) / 1e9;
  }

  static boolean onPath(String exe) {
    String path = System.getenv("PATH");
    if (path == null) {
      return false;
    }
    for (String d : path.split(File.pathSeparator)) {
      if (Files.isExecutable(Path.of(d, exe))) {
        return true;
      }
    }
    return false;
  }
}
