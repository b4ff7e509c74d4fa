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
import org.dise.runtime.linux.Sandbox;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code acf run}: runs a RISC-V program on the emulator. */
@Command(
    name = "run",
    description = "Run a statically linked RISC-V Linux program on the emulator.",
    footer = {
      "",
      "The guest's stdin, stdout and stderr are passed through and acf exits with the guest's",
      "exit status (128+signal when it faults, 1 when --max-insns stops it).",
      "",
      "Examples:",
      "  ./acf run examples/programs/bin/hello a b c",
      "  ./acf run --stats examples/programs/bin/jpeg 2",
      "  ./acf run --max-insns 1000000 --allow-read /data prog /data/in.txt",
      "  ./acf run --acf examples/acf/hot_call_pairs.acf --out prof examples/programs/bin/jpeg",
      "  ./acf run --config pairs.dcfg --engine generated examples/programs/bin/jpeg",
      "  ./acf run --acf ranges.acf --out rap examples/programs/bin/mcf   (ranges.acf:",
      "      `import rap; use hot_code_ranges;`: writes rap/code_ranges.{csv,json,txt})",
      "  ./acf run --acf values.acf examples/programs/bin/jpeg   (values.acf:",
      "      `import coproc; use load_value_profile;`: the co-processor's value profile)",
    },
    mixinStandardHelpOptions = true)
public final class RunCommand implements Callable<Integer> {
  @Option(names = "--max-insns", paramLabel = "N",
      description = "Stop the guest after N instructions (default: no limit).")
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
      description = "Translate a code block to Java after it ran N times; 0 interprets"
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
      description = "With --acf or --config: write one CSV per sink (DIR/<sink>.csv), a RAP"
          + " tree also as DIR/<sink>.json and .txt, and DIR/summary.json.")
  Path out;

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
    Machine machine = GuestLauncher.load(program, rawArgs(args), options());
    ProfilingEngine engine = null;
    if (productions != null) {
      try {
        engine = engineKind == EngineKind.generated ? Engines.generated(productions)
            : new DiseEngine(productions);
      } catch (IllegalArgumentException e) {
        throw new UserError(origin + ": " + e.getMessage());
      }
      engine.install(machine.cpu());
    }
    java.lang.management.ThreadMXBean threads =
        java.lang.management.ManagementFactory.getThreadMXBean();
    long t0 = System.nanoTime();
    long c0 = threads.getCurrentThreadCpuTime();
    Machine.Outcome out = machine.run(maxInsns);
    // The guest thread's own CPU time: less sensitive to other load than wall time.
    double cpuSeconds = (threads.getCurrentThreadCpuTime() - c0) / 1e9;
    double seconds = (System.nanoTime() - t0) / 1e9;
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
      System.err.printf("stats: instructions=%d seconds=%.3f mips=%.1f cpu_seconds=%.3f%n",
          out.instructions(), seconds, out.instructions() / seconds / 1e6, cpuSeconds);
    }
    return out.exitStatus();
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
    List<String> environment = clearEnv ? new ArrayList<>() : Machine.hostEnv();
    environment.addAll(env);
    if (translateThreshold < 0) {
      throw new UserError("--translate-threshold must be 0 or more", Main.EXIT_USAGE);
    }
    return new Machine.Options(sandbox, environment, seed, System.err, translateThreshold);
  }
}
