package org.dise.runtime.session;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.dise.runtime.Machine;
import org.dise.runtime.cpu.StopReason;
import org.dise.runtime.dise.DiseEngine;
import org.dise.runtime.dise.Dormancy;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.dise.ProfilingEngine;
import org.dise.runtime.dise.TriggerDriver;
import org.dise.runtime.dise.config.DeployableConfig;
import org.dise.runtime.profiles.sampling.SamplingRun;
import org.dise.runtime.profiles.sampling.SimulationPoints;
import org.dise.runtime.trigger.Trigger;

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
    ProductionSet productions,
    String name,
    Consumer<Machine> prepare) {
  /**
   * @param name what errors about the productions name (null: {@link SessionOptions#origin()})
   * @param prepare what a front end does to each machine as it is loaded, before an engine is
   *     installed (its stdio: the REPL's buffers, a bench's discarded output)
   */
  public ProfilingSession {
    prepare = prepare == null ? m -> {} : prepare;
  }

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
    return new ProfilingSession(options, machine, config, set, null, null)
        .bound(problems, "nothing was run");
  }

  /**
   * This session with its productions' program symbols bound against the program it runs, at the
   * addresses a run of it gets; problems as for {@link #open}, ending with {@code consequence}.
   */
  public ProfilingSession bound(PrintStream problems, String consequence) {
    ProductionSet set =
        Productions.bind(productions, options.program(), machineOptions, problems, consequence);
    return new ProfilingSession(options, machineOptions, config, set, name, prepare);
  }

  /**
   * A session over productions a front end already has (the REPL's workspace, a bench's or an
   * experiment's ACF), bound already; null: plain runs.
   */
  public static ProfilingSession of(
      SessionOptions options, Machine.Options machine, ProductionSet productions) {
    return new ProfilingSession(options, machine, null, productions, null, null);
  }

  /** This session with its engines' errors naming {@code name} (a workload, the REPL's set). */
  public ProfilingSession named(String name) {
    return new ProfilingSession(options, machineOptions, config, productions, name, prepare);
  }

  /** This session with {@code prepare} done to each machine it loads (stdio, before the engine). */
  public ProfilingSession preparing(Consumer<Machine> prepare) {
    return new ProfilingSession(options, machineOptions, config, productions, name, prepare);
  }

  /**
   * This session for a benchmark: the emulator's notices and the guest's stdout thrown away, so
   * that what is timed is the run, not the terminal.
   */
  public ProfilingSession quiet() {
    return new ProfilingSession(
            options,
            machineOptions.withNotices(new PrintStream(OutputStream.nullOutputStream())),
            config,
            productions,
            name,
            prepare)
        .preparing(
            prepare.andThen(m -> m.kernel().setStdio(1, null, OutputStream.nullOutputStream())));
  }

  /**
   * This session with its productions bound against the symbols of {@code m}, a machine already
   * loaded (the REPL binds against the program it shows: the libraries mapped at start-up before it
   * starts, its own symbols after); problems as for {@link #open}, ending with {@code consequence}.
   */
  public ProfilingSession boundTo(Machine m, PrintStream problems, String consequence) {
    if (productions == null) {
      return this;
    }
    ProductionSet bound =
        Productions.bind(
            productions,
            m.cpu().instret() == 0 ? m.startupSymbols() : m.programSymbols(),
            null,
            m.elf().path() == null ? "the program" : m.elf().path().toString(),
            problems,
            consequence);
    return new ProfilingSession(options, machineOptions, config, bound, name, prepare);
  }

  /** What errors about the productions name (the configuration or the first ACF). */
  public Path origin() {
    return options.origin();
  }

  /** The program loaded afresh (and prepared), nothing run. */
  public Machine load() {
    Machine m = Programs.load(options.program(), options.args(), machineOptions);
    prepare.accept(m);
    return m;
  }

  /** A fresh engine for the productions (each run and each process has its own). */
  public DiseEngine engine() {
    return Engines.build(productions, name != null ? name : String.valueOf(origin()));
  }

  /**
   * A run ready to go: the program loaded, the engine installed (when there are productions), and
   * an engine of its own for each process the guest forks. Productions that can never act ({@link
   * Dormancy}: every one guarded by a flag nothing sets) are not installed: the run is a plain one,
   * and the engines, tied to it for their reports, say zero ({@link Run#dormant}).
   */
  public Run start() {
    String dormant = productions == null ? null : Dormancy.of(productions).orElse(null);
    return start(load(), dormant);
  }

  /**
   * A run of {@code m}, a machine this session loaded (the REPL restarts one it has prepared): the
   * engine installed when there are productions, one for each process the guest forks. Always
   * installed, dormant or not: a debugger may set a counter's flags by hand.
   */
  public Run start(Machine m) {
    return start(m, null);
  }

  private Run start(Machine m, String dormant) {
    m.setFollowExec(options.followExec());
    DiseEngine engine = null;
    Map<Machine, ProfilingEngine> children = new LinkedHashMap<>();
    if (productions != null) {
      engine = engine();
      enter(engine, m, dormant);
      m.setForkListener(
          child -> {
            DiseEngine e = engine();
            enter(e, child, dormant);
            children.put(child, e);
          });
    }
    return new Run(this, m, engine, children, dormant);
  }

  /** Installs {@code e} in {@code m}'s decode stage, or only ties it to the run when dormant. */
  private static void enter(DiseEngine e, Machine m, String dormant) {
    if (dormant == null) {
      e.install(m.cpu());
    } else {
      e.watch(m.cpu());
    }
  }

  /**
   * A run of the program loaded afresh with the productions off at first ({@code acf run
   * --fast-forward N}): it runs at full speed until {@link Run#profileFromHere} turns them on.
   */
  public Run startOff() {
    Machine m = load();
    m.setFollowExec(options.followExec());
    return new Run(this, m, null, new LinkedHashMap<>(), null);
  }

  /**
   * The simulation points of a run of {@code machine}, which this session loaded ({@code acf run
   * --simpoints}): it runs at full speed, with a fresh engine of this session's on for {@code
   * interval} application instructions at each point ({@link SimulationPoints}).
   */
  public SimulationPoints.Result simulationPoints(
      Machine machine, List<SimulationPoints.Point> points, long interval, long maxInsns) {
    return SimulationPoints.run(machine, this::engine, points, interval, maxInsns);
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
      public void started(String pass, org.dise.runtime.dise.TriggerDriver driver) {
        hooks.started(pass, driver, m, e);
      }

      @Override
      public org.dise.runtime.dise.TriggerDriver.Listener listener(
          org.dise.runtime.profiles.sampling.ProfileEstimator estimator) {
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
        org.dise.runtime.dise.TriggerDriver driver,
        Machine machine,
        ProfilingEngine engine) {}

    default org.dise.runtime.dise.TriggerDriver.Listener listener(
        org.dise.runtime.profiles.sampling.ProfileEstimator estimator) {
      return estimator;
    }

    default java.io.InputStream firstPassInput() {
      return java.io.InputStream.nullInputStream();
    }
  }

  /**
   * One run of the session: the machine, its engine (null: a plain run) and every process the guest
   * forked, in the order they started, with its own engine; a trigger driving it, when a front end
   * sets one; and what a debugger needs to step it, stop it and change its productions mid-run.
   */
  public static final class Run {
    private final ProfilingSession session;
    private final Machine machine;
    private final Map<Machine, ProfilingEngine> children;
    private DiseEngine engine;
    private TriggerDriver driver;

    /** Instructions inserted under engines that {@link #replace} removed (not the program's). */
    private long insertedBefore;

    private final String dormant;

    Run(
        ProfilingSession session,
        Machine machine,
        DiseEngine engine,
        Map<Machine, ProfilingEngine> children,
        String dormant) {
      this.session = session;
      this.machine = machine;
      this.engine = engine;
      this.children = children;
      this.dormant = dormant;
    }

    /**
     * Why the productions were left out of the decode stage (none of them can ever act; {@link
     * Dormancy}), or null when they were installed or there are none.
     */
    public String dormant() {
      return dormant;
    }

    public Machine machine() {
      return machine;
    }

    /** The engine running the productions now (null: none). */
    public DiseEngine engine() {
      return engine;
    }

    /** Every process the guest forked, in the order they started, with its engine. */
    public Map<Machine, ProfilingEngine> children() {
      return children;
    }

    /** The trigger driving the run, or null. */
    public TriggerDriver driver() {
      return driver;
    }

    /**
     * Turns the session's productions on from here, in a run {@link ProfilingSession#startOff
     * started} with them off: a fresh engine installed, and its sinks told that profiling starts
     * here, as a trigger's resume tells them (a calling context unwinds the guest's stack now).
     *
     * @throws IllegalStateException when the run has an engine already or the session no
     *     productions
     */
    public DiseEngine profileFromHere() {
      if (engine != null || session.productions() == null) {
        throw new IllegalStateException("the run is profiled already, or has no productions");
      }
      engine = session.engine();
      engine.install(machine.cpu());
      long app = engine.cost().applicationInstructions();
      engine.sinks().forEach(s -> s.resume(machine.cpu(), app));
      return engine;
    }

    /** Runs the program for at most {@code maxInsns} instructions (-1: to the end). */
    public Machine.Outcome run(long maxInsns) {
      return machine.run(maxInsns);
    }

    /**
     * Has {@code trigger} drive the run (through the engine, which turns its codewords into the
     * sampling flag).
     *
     * @throws IllegalStateException when the run has no productions
     */
    public TriggerDriver drive(Trigger trigger) {
      if (engine == null) {
        throw new IllegalStateException("a trigger needs productions");
      }
      driver = new TriggerDriver(machine, engine, trigger, null);
      return driver;
    }

    /**
     * One step of at most {@code max} retired instructions, through the trigger when one drives the
     * run; when the program ends, so does the trigger's last interval.
     */
    public StopReason step(long max) {
      StopReason r = driver != null ? driver.advance(max) : machine.cpu().run(max);
      if (driver != null && (r == StopReason.EXITED || r == StopReason.FAULT)) {
        driver.finish();
      }
      return r;
    }

    /**
     * Runs at most {@code steps} application instructions in slices of at most {@code slice}
     * retired ones, asking {@code stop} before each slice (a debugger's Ctrl-C that lands between
     * slices): {@link StopReason#INTERRUPTED} when it says so, {@link StopReason#STEP_LIMIT} when
     * the steps are done, else why the program stopped (a breakpoint, an exit, a fault).
     */
    public StopReason runFor(long steps, long slice, BooleanSupplier stop) {
      long start = applicationInstructions();
      while (true) {
        if (stop.getAsBoolean()) {
          return StopReason.INTERRUPTED;
        }
        // A step limit counts application instructions: inserted ones retire too, so a slice
        // of `left` retired instructions can never pass the limit, and may fall short of it.
        long left = steps - (applicationInstructions() - start);
        StopReason r = step(Math.min(left, slice));
        if (r != StopReason.STEP_LIMIT || applicationInstructions() - start >= steps) {
          return r;
        }
      }
    }

    /** Instructions the productions inserted so far, under this engine and those it replaced. */
    public long insertedInstructions() {
      return engine == null ? insertedBefore : engine.cost().insertedInstructions();
    }

    /**
     * The program's own instructions: what the cost report counts, without the ones replacement
     * sequences inserted (spec/engine.md).
     */
    public long applicationInstructions() {
      return machine.cpu().instret() - insertedInstructions();
    }

    /**
     * Hot reload: {@code next} (null: no productions) runs the paused program from here on, taking
     * over the engine's accounts, and the trigger (if any) goes on with it (spec/engine.md,
     * "Changing the productions of a paused program"). Says what did not carry over.
     *
     * @throws IllegalStateException when a trigger drives the run and {@code next} is null
     */
    public List<String> replace(DiseEngine next) {
      if (driver != null && next == null) {
        throw new IllegalStateException("a trigger drives this run and needs productions");
      }
      List<String> reset = new ArrayList<>();
      if (next != null && engine != null) {
        reset.addAll(next.carryOver(engine));
      } else if (engine != null) {
        insertedBefore = engine.cost().insertedInstructions();
        reset.add("no productions: every counter and sink is gone");
      }
      if (next != null) {
        next.install(machine.cpu());
      }
      engine = next;
      if (driver != null) {
        driver.rebind(next);
      }
      return reset;
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
