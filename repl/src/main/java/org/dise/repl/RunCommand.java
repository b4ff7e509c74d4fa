package org.dise.repl;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.dise.runtime.Machine;
import org.dise.runtime.cpu.StopReason;
import org.dise.runtime.dise.DiseEngine;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.dise.ProfilingEngine;
import org.dise.runtime.elf.ElfException;
import org.dise.runtime.dise.TriggerBinding;
import org.dise.runtime.linux.Sandbox;
import org.dise.runtime.trigger.SamplingRun;
import org.dise.runtime.trigger.TriggerDriver;
import org.dise.runtime.trigger.TriggerSpec;
import org.dise.runtime.trigger.Triggers;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code acf run}: runs a RISC-V program on the emulator. */
@Command(
    name = "run",
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
      "  ./acf run --config pairs.dcfg --engine generated examples/programs/bin/jpeg",
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
    },
    mixinStandardHelpOptions = true)
public final class RunCommand implements Callable<Integer> {
  @Option(names = "--max-insns", paramLabel = "N", converter = CountConverter.class,
      description = "Stop the guest after N instructions (default: no limit; K, M, G"
          + " suffixes); under a sampling trigger, N application instructions (inserted ones"
          + " not counted).")
  long maxInsns = -1;

  @Option(names = "--stats",
      description = "Print 'stats: instructions=<n> seconds=<s> mips=<m> cpu_seconds=<c>' on"
          + " stderr at the end (cpu: the guest thread's CPU time).")
  boolean stats;

  @Option(names = "--allow-read", paramLabel = "DIR",
      description = "Also let the guest read files under DIR (repeatable).")
  List<Path> allowRead = new ArrayList<>();

  @Option(names = "--allow-write", paramLabel = "DIR",
      description = "Also let the guest read and write files under DIR (repeatable).")
  List<Path> allowWrite = new ArrayList<>();

  @Option(names = "--env", paramLabel = "NAME=VALUE",
      description = "Set a variable in the guest's environment (repeatable).")
  List<String> env = new ArrayList<>();

  @Option(names = "--clear-env", description = "Start the guest with an empty environment.")
  boolean clearEnv;

  @Option(names = "--seed", paramLabel = "N",
      description = "Seed of AT_RANDOM and getrandom (default: ${DEFAULT-VALUE}).")
  long seed = 0x5eed;

  @Option(names = "--translate-threshold", paramLabel = "N",
      description = "Translate a code block to JVM bytecode after it ran N times; 0 interprets"
          + " everything (default: ${DEFAULT-VALUE}).")
  int translateThreshold = Machine.Options.DEFAULT_TRANSLATE_THRESHOLD;

  @Option(names = "--acf", paramLabel = "FILE",
      description = "Run the program under the productions of this ACF (see spec/engine.md);"
          + " repeat to compose several, in the order given.")
  List<Path> acfs = new ArrayList<>();

  @Option(names = "--config", paramLabel = "FILE",
      description = "Run the program under a deployable configuration from acf compile; the"
          + " compiler is not used.")
  Path config;

  /** Which engine runs the productions. */
  enum EngineKind { interpreted, generated }

  @Option(names = "--engine", paramLabel = "KIND",
      description = "interpreted (the tables, no start-up cost) or generated (Java generated for"
          + " this production set and compiled in process); default: ${DEFAULT-VALUE}.")
  EngineKind engineKind = EngineKind.interpreted;

  @Option(names = "--out", paramLabel = "DIR",
      description = "With --acf or --config: write each sink's profile as DIR/<sink>.csv and"
          + " .json (also .folded for call pairs and methods, .bb for basic block vectors, the"
          + " tree as .tree.json and .tree.txt for RAP) and DIR/summary.json; with sampling also"
          + " DIR/<sink>.estimate.csv (the scaled whole-program estimate) and DIR/phases.csv."
          + " `acf report DIR` prints them again.")
  Path out;

  @Option(names = "--sampling", paramLabel = "STRATEGY",
      description = "Sample with an external trigger: exhaustive, periodic:N (every Nth"
          + " interval), random:P[:SEED] (each interval with probability 1/P) or"
          + " phase[:POLICY] (phase-aware; POLICY first, third (default), or the oracles"
          + " centroid and random). Overrides a trigger the ACF declares.")
  String sampling;

  @Option(names = "--interval", paramLabel = "N",
      description = "Sampling interval in application instructions (default 10M; K, M, G"
          + " suffixes).")
  String interval;

  @Option(names = "--threshold", paramLabel = "T",
      description = "Phase tracker similarity threshold, percent of an interval's instructions"
          + " (default 25).")
  String threshold;

  @Option(names = "--predictor", paramLabel = "KIND",
      description = "Phase predictor: last (default), markov (run-length Markov) or oracle"
          + " (a first pass: the papers' perfect prediction).")
  String predictor;

  @Option(names = "--shadow-exhaustive",
      description = "Also compute the exact profile (a first, exhaustive pass whose cost is not"
          + " charged) and report sampled_fraction, count_error and hot_error.")
  boolean shadowExhaustive;

  @Option(names = "--progress", negatable = true, defaultValue = "true", fallbackValue = "true",
      description = "Show instructions, MIPS and time on stderr while a long run goes on, when"
          + " stderr is a terminal (default: on; --no-progress turns it off).")
  boolean progress = true;

  @Parameters(index = "0", paramLabel = "PROGRAM", description = "The RISC-V ELF program.")
  Path program;

  @Parameters(index = "1..*", paramLabel = "ARGS", description = "Arguments for the program.")
  List<String> args = new ArrayList<>();

  @Override
  public Integer call() {
    if (config != null && !acfs.isEmpty()) {
      throw new UserError("--config and --acf exclude each other", Main.EXIT_USAGE);
    }
    if (out != null && acfs.isEmpty() && config == null) {
      throw new UserError("--out needs --acf or --config", Main.EXIT_USAGE);
    }
    ProductionSet productions = null;
    Path origin = null;
    if (config != null) {
      productions = InspectCommand.load(config).productions();
      origin = config;
    } else if (!acfs.isEmpty()) {
      productions = AcfLoader.load(acfs);
      origin = acfs.get(0);
    }
    TriggerSpec trigger = triggerSpec(productions, origin);
    if (trigger != null) {
      return sampled(productions, origin, trigger);
    }
    Machine machine = GuestLauncher.load(program, rawArgs(args), options());
    ProfilingEngine engine = null;
    if (productions != null) {
      engine = engine(productions, origin);
      engine.install(machine.cpu());
    }
    Clock clock = new Clock();
    Machine.Outcome out;
    try (Progress p = Progress.start(progress && Tty.isTerminal(2), System.err,
        machine.cpu()::instret, null)) {
      out = machine.run(maxInsns);
    }
    clock.stop();
    System.out.flush();
    if (out.report() != null) {
      System.err.println("acf: " + out.report());
    }
    if (engine != null) {
      ProfileReport.summary(engine, machine.symbols(), System.err);
      if (this.out != null) {
        ProfileReport.write(engine, machine.symbols(), this.out, out.exitStatus());
      }
    }
    if (stats) {
      clock.printStats(out.instructions());
    }
    return out.exitStatus();
  }

  /** The engine --engine names for {@code productions}; a refusal names {@code origin}. */
  private ProfilingEngine engine(ProductionSet productions, Path origin) {
    try {
      return engineKind == EngineKind.generated ? Engines.generated(productions)
          : new DiseEngine(productions);
    } catch (IllegalArgumentException e) {
      throw new UserError(origin + ": " + e.getMessage());
    }
  }

  /** Wall and guest-thread CPU time of a run, for --stats. */
  private static final class Clock {
    private final java.lang.management.ThreadMXBean threads =
        java.lang.management.ManagementFactory.getThreadMXBean();
    private final long wall0 = System.nanoTime();
    private final long cpu0 = threads.getCurrentThreadCpuTime();
    private double seconds;
    private double cpuSeconds;

    void stop() {
      // The guest thread's own CPU time: less sensitive to other load than wall time.
      cpuSeconds = (threads.getCurrentThreadCpuTime() - cpu0) / 1e9;
      seconds = (System.nanoTime() - wall0) / 1e9;
    }

    void printStats(long instructions) {
      System.err.printf("stats: instructions=%d seconds=%.3f mips=%.1f cpu_seconds=%.3f%n",
          instructions, seconds, instructions / seconds / 1e6, cpuSeconds);
    }
  }

  /** Runs under a trigger: the sampled pass (after a first pass when one is needed). */
  private int sampled(ProductionSet productions, Path origin, TriggerSpec trigger) {
    List<String> guestArgs = rawArgs(args);
    Machine.Options options = options();
    // The pass under way and its driver, for the progress line.
    java.util.concurrent.atomic.AtomicReference<String> pass =
        new java.util.concurrent.atomic.AtomicReference<>("");
    java.util.concurrent.atomic.AtomicReference<TriggerDriver> current =
        new java.util.concurrent.atomic.AtomicReference<>();
    SamplingRun.Setup setup = new SamplingRun.Setup() {
      @Override
      public Machine machine() {
        return GuestLauncher.load(program, guestArgs, options);
      }

      @Override
      public void started(String name, TriggerDriver driver) {
        pass.set(name);
        current.set(driver);
      }

      @Override
      public ProfilingEngine engine() {
        return RunCommand.this.engine(productions, origin);
      }
    };
    Clock clock = new Clock();
    SamplingRun.Result r;
    try (Progress p = Progress.start(progress && Tty.isTerminal(2), System.err,
        () -> current.get() == null ? 0 : current.get().applicationInstructions(),
        () -> current.get() == null ? null : pass.get() + ", " + current.get().progress())) {
      r = SamplingRun.run(setup, trigger, shadowExhaustive, null, maxInsns);
    } catch (IllegalArgumentException e) {
      throw new UserError("sampling: " + e.getMessage(), Main.EXIT_USAGE);
    }
    clock.stop();
    System.out.flush();
    Machine.Outcome outcome = r.outcome();
    if (outcome.report() != null) {
      System.err.println("acf: " + outcome.report());
    }
    if (r.driver().codewordUnmatched() != null) {
      System.err.println("acf: warning: the trigger's " + r.driver().codewordUnmatched()
          + " matched no production, so it could not set the sampling flag; add the"
          + " productions of equations (1) and (2) (import sampling; use external_trigger;)");
    }
    ProfileReport.summary(r.engine(), r.machine().symbols(), System.err);
    ProfileReport.sampling(r, trigger, System.err);
    if (this.out != null) {
      ProfileReport.write(r.engine(), r.machine().symbols(), this.out, outcome.exitStatus(),
          ProfileReport.samplingJson(r, trigger));
      ProfileReport.writePhases(r, this.out);
      ProfileReport.writeEstimates(r, this.out);
    }
    if (stats) {
      clock.printStats(outcome.instructions());
    }
    return outcome.exitStatus();
  }

  /** "--interval needs" or "--interval and --threshold need": the sampling options given. */
  private String given(boolean withSampling) {
    List<String> names = new ArrayList<>();
    if (withSampling && sampling != null) {
      names.add("--sampling");
    }
    if (interval != null) {
      names.add("--interval");
    }
    if (threshold != null) {
      names.add("--threshold");
    }
    if (predictor != null) {
      names.add("--predictor");
    }
    if (shadowExhaustive) {
      names.add("--shadow-exhaustive");
    }
    String last = names.remove(names.size() - 1);
    return names.isEmpty() ? last + " needs"
        : String.join(", ", names) + " and " + last + " need";
  }

  /**
   * The sampling strategy: --sampling over the ACF's trigger declaration, with --interval,
   * --threshold and --predictor applied; null when there is none.
   */
  TriggerSpec triggerSpec(ProductionSet productions, Path origin) {
    boolean tuned = interval != null || threshold != null || predictor != null;
    if (productions == null) {
      if (sampling != null || tuned || shadowExhaustive) {
        throw new UserError(given(true) + " --acf or --config", Main.EXIT_USAGE);
      }
      return null;
    }
    TriggerSpec spec;
    String from = "sampling: ";
    try {
      if (sampling != null) {
        spec = TriggerSpec.parse(sampling);
        // The ACF's interval still applies (every trigger has one); its other parameters
        // belong to its own strategy.
        if (productions.triggers().size() == 1
            && productions.triggers().get(0).params().containsKey("interval")) {
          spec = spec.with("interval", productions.triggers().get(0).params().get("interval"));
        }
      } else if (productions.triggers().size() > 1) {
        throw new UserError(origin + ": " + productions.triggers().size() + " triggers are"
            + " declared (" + String.join(", ", productions.triggers().stream()
                .map(TriggerBinding::name).toList()) + "); one trigger runs at a time");
      } else if (productions.triggers().size() == 1) {
        spec = TriggerSpec.of(productions.triggers().get(0));
        from = origin + ": trigger " + productions.triggers().get(0).name() + ": ";
      } else if (tuned || shadowExhaustive) {
        throw new UserError(given(false) + " a sampling strategy (--sampling, or a trigger"
            + " declared in the ACF)", Main.EXIT_USAGE);
      } else {
        return null;
      }
      if (interval != null) {
        spec = spec.with("interval", Long.toString(Triggers.parseCount("--interval", interval)));
      }
      if (threshold != null) {
        spec = spec.with("threshold", threshold);
      }
      if (predictor != null) {
        spec = spec.with("predictor", predictor);
      }
      Triggers.check(spec); // every parameter, before the run
    } catch (IllegalArgumentException e) {
      throw new UserError(from + e.getMessage(), Main.EXIT_USAGE);
    }
    return spec;
  }

  /**
   * The guest's arguments as the bytes the user typed: the JVM decodes argv with the locale's
   * charset, which mangles UTF-8 under the C locale, so take them from /proc/self/cmdline.
   */
  static List<String> rawArgs(List<String> decoded) {
    List<String> all = Machine.procStrings("/proc/self/cmdline");
    if (all == null || all.size() < decoded.size()) {
      return decoded;
    }
    List<String> tail = all.subList(all.size() - decoded.size(), all.size());
    for (int i = 0; i < tail.size(); i++) {
      if (tail.get(i).length() != decoded.get(i).length() && isAscii(decoded.get(i))) {
        return decoded; // not the same argument list; keep what picocli saw
      }
    }
    return new ArrayList<>(tail);
  }

  private static boolean isAscii(String s) {
    return s.chars().allMatch(c -> c < 128);
  }

  Machine.Options options() {
    Sandbox sandbox = new Sandbox(Path.of("").toAbsolutePath());
    allowRead.forEach(sandbox::allowRead);
    allowWrite.forEach(sandbox::allowWrite);
    List<String> environment = clearEnv ? new ArrayList<>() : new ArrayList<>(Machine.hostEnv());
    for (String v : env) {
      if (v.indexOf('=') <= 0) {
        throw new UserError("--env " + v + ": expected NAME=VALUE", Main.EXIT_USAGE);
      }
      // Replace the host's value: getenv returns the first match, so an appended duplicate
      // would be ignored by the guest.
      String name = v.substring(0, v.indexOf('=') + 1);
      environment.removeIf(e -> e.startsWith(name));
      environment.add(v);
    }
    if (translateThreshold < 0) {
      throw new UserError("--translate-threshold must be 0 or more", Main.EXIT_USAGE);
    }
    return new Machine.Options(sandbox, environment, seed, System.err, translateThreshold);
  }
}
