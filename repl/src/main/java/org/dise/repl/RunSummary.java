package org.dise.repl;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dise.repl.common.SummaryJson;
import org.dise.repl.common.Version;
import org.dise.runtime.Machine;
import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.dise.HpsCounters;
import org.dise.runtime.dise.ProfilingEngine;
import org.dise.runtime.dise.config.DeployableConfig;

/**
 * What makes a run reproducible and self-describing: the command, the tool's version, the program
 * and every ACF or configuration with their SHA-256, the seed, the environment, the sampling
 * options, and the final HPS and DISE register state. Written into summary.json (as members after
 * the cost figures) and, for the register state, printed under the cost report.
 */
final class RunSummary {
  private RunSummary() {}

  /** How the guest's environment was chosen (spec/emulator.md, "Environment"). */
  enum EnvSource {
    DEFAULT,
    CLEARED,
    HOST
  }

  /** What a run was asked to do, as the command line gave it. */
  record Request(
      List<String> command,
      Path program,
      List<String> programArgs,
      List<Path> acfs,
      Path config,
      DeployableConfig loadedConfig,
      String engine,
      long seed,
      long maxInsns,
      EnvSource envSource,
      List<String> env,
      Map<String, Object> samplingOptions) {}

  /** summary.json members for {@code r} and the final state (each member after a comma). */
  static String members(Request r, ProfilingEngine engine, Machine machine) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("command", r.command());
    m.put("tool_version", "acf " + Version.VERSION);
    m.put("program", r.program().toString());
    m.put("program_sha256", Sha256.of(r.program()));
    m.put("program_args", r.programArgs());
    List<Map<String, Object>> acfs = new ArrayList<>();
    for (Path a : r.acfs()) {
      acfs.add(file(a));
    }
    m.put("acfs", acfs);
    if (r.config() != null) {
      Map<String, Object> c = file(r.config());
      DeployableConfig.Provenance p = r.loadedConfig().provenance();
      c.put("compiled_from", r.loadedConfig().source());
      c.put("compiler_version", p.compilerVersion().isEmpty() ? null : p.compilerVersion());
      List<Map<String, Object>> sources = new ArrayList<>();
      for (DeployableConfig.SourceHash h : p.sources()) {
        sources.add(new LinkedHashMap<>(Map.of("path", h.path(), "sha256", h.sha256())));
      }
      c.put("sources", sources);
      m.put("config", c);
    } else {
      m.put("config", null);
    }
    m.put("engine", r.engine());
    m.put("seed", r.seed());
    m.put("max_insns", r.maxInsns() < 0 ? null : r.maxInsns());
    m.put("environment", r.envSource().name().toLowerCase(java.util.Locale.ROOT));
    // The host's variables are not copied into a file that may be shared (they hold tokens).
    m.put("env", r.envSource() == EnvSource.HOST ? null : r.env());
    m.put("sampling_options", r.samplingOptions());
    m.putAll(state(engine, machine));
    String json = SummaryJson.write(m);
    return ", " + json.substring(1, json.length() - 1);
  }

  /**
   * The process a profile describes, for a process tree: its pid, its parent's, and the command
   * line it ran (argv, after any exec).
   */
  static String process(Machine machine) {
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("pid", machine.pid());
    p.put("argv", machine.argv());
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("process", p);
    String json = SummaryJson.write(m);
    return ", " + json.substring(1, json.length() - 1);
  }

  private static Map<String, Object> file(Path p) {
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("path", p.toString());
    f.put("sha256", Sha256.of(p));
    return f;
  }

  /** hps_counters, hps_registers and dise_registers after the run. */
  static Map<String, Object> state(ProfilingEngine engine, Machine machine) {
    HpsCounters h = engine.hps();
    List<Map<String, Object>> counters = new ArrayList<>();
    for (int i = 0; i < h.counters(); i++) {
      Map<String, Object> c = new LinkedHashMap<>();
      c.put("index", i);
      c.put("value", h.value(i));
      c.put("zero", h.zero(i));
      c.put("overflow", h.overflow(i));
      counters.add(c);
    }
    List<Long> registers = new ArrayList<>();
    for (int i = 0; i < h.registers(); i++) {
      registers.add(h.register(i));
    }
    List<Long> dise = new ArrayList<>();
    for (int i = 0; i < Cpu.DISE_REGS; i++) {
      dise.add(machine.cpu().x[Cpu.DISE_REG_BASE + i]);
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("hps_counters", counters);
    m.put("hps_registers", registers);
    m.put("dise_registers", dise);
    return m;
  }

  /** The final register state, under the cost report: counters with their flags, registers. */
  static void print(ProfilingEngine engine, Machine machine, PrintStream out) {
    HpsCounters h = engine.hps();
    List<String> counters = new ArrayList<>();
    for (int i = 0; i < h.counters(); i++) {
      counters.add(i + "=" + h.value(i) + (h.overflow(i) ? " (overflow)" : ""));
    }
    List<String> registers = new ArrayList<>();
    for (int i = 0; i < h.registers(); i++) {
      registers.add("R" + i + "=" + h.register(i));
    }
    List<String> dise = new ArrayList<>();
    for (int i = 0; i < Cpu.DISE_REGS; i++) {
      long v = machine.cpu().x[Cpu.DISE_REG_BASE + i];
      dise.add(
          "$dr"
              + i
              + "="
              + (v >= 0 && v < 1_000_000 ? Long.toString(v) : String.format("0x%x", v)));
    }
    out.println("final state");
    out.println("  HPS counters   " + (counters.isEmpty() ? "none" : String.join(" ", counters)));
    out.println("  HPS registers  " + String.join(" ", registers));
    out.println("  DISE registers " + String.join(" ", dise));
  }
}
