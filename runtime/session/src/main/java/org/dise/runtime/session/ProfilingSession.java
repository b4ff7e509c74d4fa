package org.dise.runtime.session;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dise.runtime.Machine;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.dise.ProfilingEngine;
import org.dise.runtime.dise.config.DeployableConfig;
import org.dise.runtime.trigger.SamplingRun;

/**
 * One profiling session: the productions (a configuration read, or ACF text compiled by the front
 * end's {@link Productions.Source}), bound to the program's symbols; then, for each run, the
 * program loaded ({@link Programs}), an engine built ({@link Engines}) and installed, on every
 * process the guest forks too, and the run. What a front end does with the outcome (print, write
 * {@code --out}, send to a center) is its own; the profiles, the summary and the costs are the
 * run's engine's ({@link Run}).
 *
 * <p>{@code acf run}, its point runs and sampled runs, {@code acf-runtime}, {@code acf bench},
 * {@code acf sweep}, the REPL and the experiments all come here, so that loading, binding and
 * building mean the same everywhere (docs/architecture.md).
 */
public record ProfilingSession(
    SessionOptions options,
    Machine.Options machineOptions,
    DeployableConfig config,
    ProductionSet productions) {
  /**
   * Opens a session: reads the configuration or has {@code compiler} compile the ACFs, then binds
   * their program symbols against the program run with {@code machine}; problems (a symbol not
   * found, with the diagnostics on {@code problems}) end with {@code nothing was run}.
   */
  public static ProfilingSession open(
      SessionOptions options,
      Machine.Options machine,
      Productions.Source compiler,
      PrintStream problems) {
    DeployableConfig config = null;
    ProductionSet set = null;
    if (options.config() != null) {
      config = Productions.config(options.config());
      set = config.productions();
    } else if (!options.acfs().isEmpty()) {
      set = compiler.compile(options.acfs());
    }
    set = Productions.bind(set, options.program(), machine, problems, "nothing was run");
    return new ProfilingSession(options, machine, config, set);
  }

  /** A session over productions a front end already has (the REPL's workspace, a bench's ACF). */
  public static ProfilingSession of(
      SessionOptions options, Machine.Options machine, ProductionSet productions) {
    return new ProfilingSession(options, machine, null, productions);
  }

  /** What errors about the productions name (the configuration or the first ACF). */
  public Path origin() {
    return options.origin();
  }

  /** The program loaded afresh, nothing run. */
  public Machine load() {
    return Programs.load(options.program(), options.args(), machineOptions);
  }

  /** A fresh engine for the productions (each run and each process has its own). */
  public ProfilingEngine engine() {
    return Engines.profiling(productions, String.valueOf(origin()));
  }

  /**
   * A run ready to go: the program loaded, the engine installed (when there are productions), and
   * an engine of its own for each process the guest forks.
   */
  public Run start() {
    Machine m = load();
    m.setFollowExec(options.followExec());
    ProfilingEngine engine = null;
    Map<Machine, ProfilingEngine> children = new LinkedHashMap<>();
    if (productions != null) {
      engine = engine();
      engine.install(m.cpu());
      m.setForkListener(
          child -> {
            ProfilingEngine e = engine();
            e.install(child.cpu());
            children.put(child, e);
          });
    }
    return new Run(m, engine, children);
  }

  /**
   * The passes of a sampled run ({@link SamplingRun}) through this session: each pass gets a fresh
   * machine and engine from here; {@code hooks} hears of them.
   */
  public SamplingRun.Setup sampling(Hooks hooks) {
    return new SamplingRun.Setup() {
      private Machine m;
      private ProfilingEngine e;

      @Override
      public Machine machine() {
        return m = load();
      }

      @Override
      public ProfilingEngine engine() {
        return e = ProfilingSession.this.engine();
      }

      @Override
      public void started(String pass, org.dise.runtime.trigger.TriggerDriver driver) {
        hooks.started(pass, driver, m, e);
      }

      @Override
      public org.dise.runtime.trigger.TriggerDriver.Listener listener(
          org.dise.runtime.trigger.ProfileEstimator estimator) {
        return hooks.listener(estimator);
      }

      @Override
      public java.io.InputStream firstPassInput() {
        return hooks.firstPassInput();
      }
    };
  }

  /** What a front end hears of a sampled run's passes (progress, a device's reporter). */
  public interface Hooks {
    default void started(
        String pass,
        org.dise.runtime.trigger.TriggerDriver driver,
        Machine machine,
        ProfilingEngine engine) {}

    default org.dise.runtime.trigger.TriggerDriver.Listener listener(
        org.dise.runtime.trigger.ProfileEstimator estimator) {
      return estimator;
    }

    default java.io.InputStream firstPassInput() {
      return java.io.InputStream.nullInputStream();
    }
  }

  /**
   * One run of the session: the machine, its engine (null: a plain run) and every process the guest
   * forked, in the order they started, with its own engine.
   */
  public record Run(
      Machine machine, ProfilingEngine engine, Map<Machine, ProfilingEngine> children) {
    /** Runs the program for at most {@code maxInsns} instructions (-1: to the end). */
    public Machine.Outcome run(long maxInsns) {
      return machine.run(maxInsns);
    }

    /**
     * After the run: a warning for each {@code symbol(NAME)} a pattern named that no library of the
     * process (or of a process it forked) ever defined, so its productions matched nothing.
     */
    public List<String> neverBound() {
      java.util.LinkedHashSet<String> out = new java.util.LinkedHashSet<>();
      if (engine != null) {
        out.addAll(Productions.neverBound(engine));
      }
      children.values().forEach(e -> out.addAll(Productions.neverBound(e)));
      return List.copyOf(out);
    }
  }
}
