package org.dise.repl.shell;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.CopyOnWriteArrayList;
import org.dise.repl.common.GuestSettings;
import org.dise.repl.common.RunService;
import org.dise.runtime.Machine;
import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.cpu.StopReason;
import org.dise.runtime.dise.DiseEngine;
import org.dise.runtime.dise.Production;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.dise.TriggerDriver;
import org.dise.runtime.elf.Symbol;
import org.dise.runtime.session.ProfilingSession;
import org.dise.runtime.session.SessionOptions;
import org.dise.runtime.trigger.TriggerSpec;
import org.dise.runtime.trigger.Triggers;

/**
 * The REPL's program and its run: the guest machine (loaded through {@link RunService} with the
 * session's {@link GuestSettings}), the engine running the session's productions, the trigger
 * driving it, breakpoints and conditions in the decode stage ({@link BreakpointStage}), and the hot
 * reload of a changed production set (spec/engine.md). The command groups reach the program through
 * it; it prints into the session's output of the current line.
 */
final class Debuggee implements InspectionCommands.ProgramView {
  /** Instructions between two looks at Ctrl-C (a few milliseconds of emulation). */
  private static final long SLICE = 20_000_000;

  private final Path base;
  private final Workspace workspace;
  private final StringBuilder out;
  final GuestSettings guest = new GuestSettings();

  private String programShown;
  private Path programPath;
  private List<String> programArgs = List.of();

  /** The guest's stdin file as typed, or null: an empty stdin. */
  String stdinShown;

  /** Set by :trigger; null: the ACF's own trigger, if any. */
  TriggerSpec triggerSet;

  /** :trigger none: no trigger, even one the ACF declares. */
  boolean triggerOff;

  private Machine machine;

  /** The program's run through the profiling session: its engine, trigger and inserted counts. */
  private ProfilingSession.Run run;

  private BreakpointStage stage;
  private int engineVersion;

  /** The timing model :timing set (null: off), and the measurement of the current machine. */
  private org.dise.runtime.timing.TimingConfig timingConfig;

  private org.dise.runtime.timing.TimingRun timed;

  /** The session's ACF text when the current program got its productions, for :diff. */
  private String runSource;

  private final ByteArrayOutputStream guestOut = new ByteArrayOutputStream();
  final Set<Long> breakpoints = new ConcurrentSkipListSet<>();

  /** :break when: the conditions as typed, and as parsed against the running set. */
  final List<String> conditionTexts = new ArrayList<>();

  private final List<BreakCondition> conditions = new CopyOnWriteArrayList<>();
  private final ShadowStack shadow = new ShadowStack();
  private volatile Cpu running;
  private volatile boolean interruptRequested;

  /** Shows where the program stopped, as the inspection commands show instructions. */
  private final InspectionCommands shown;

  Debuggee(Path base, Workspace workspace, StringBuilder out) {
    this.base = base;
    this.workspace = workspace;
    this.out = out;
    this.shown = new InspectionCommands(this, out);
  }

  // ------------------------------------------------------------------ state

  @Override
  public Machine machine() {
    return machine;
  }

  @Override
  public DiseEngine engine() {
    return run == null ? null : run.engine();
  }

  TriggerDriver driver() {
    return run == null ? null : run.driver();
  }

  @Override
  public ShadowStack shadow() {
    return shadow;
  }

  String programShown() {
    return programShown;
  }

  /** The session's ACF text the program started with (or :apply installed), or null. */
  String runSource() {
    return runSource;
  }

  /** True when the program runs under productions older than the session's. */
  boolean behind() {
    return engineVersion != workspace.version();
  }

  @Override
  public Machine requireProgram() {
    if (machine == null) {
      throw new ReplError("no program (:program PATH ARGS...)");
    }
    return machine;
  }

  @Override
  public ProductionSet requireSet() {
    ProductionSet s = workspace.set();
    if (s == null) {
      throw new ReplError("no productions yet (type one, or :load FILE)");
    }
    return s;
  }

  boolean pausedMidRun() {
    return machine != null
        && machine.cpu().instret() > 0
        && !machine.cpu().halted()
        && machine.cpu().fault() == null;
  }

  /** Asks a running guest to stop (Ctrl-C, from another thread). */
  void interrupt() {
    interruptRequested = true;
    Cpu c = running;
    if (c != null) {
      c.requestInterrupt();
    }
  }

  /** A Ctrl-C typed at the prompt belongs to the prompt. */
  void clearInterrupt() {
    interruptRequested = false;
  }

  boolean busy() {
    return running != null;
  }

  // ------------------------------------------------------------------ loading

  /** Loads a program with its arguments, under the current productions. */
  void load(String shown, List<String> args) {
    Path path = base.resolve(shown);
    Machine m = loadMachine(shown, path, args);
    install(m);
    programShown = shown;
    programPath = path;
    programArgs = List.copyOf(args);
  }

  private Machine loadMachine(String shown, Path path, List<String> args) {
    // argv[0] is the path as typed, as a shell would pass it.
    return session(path(shown), args).load();
  }

  /**
   * The profiling session of {@code program}: the session's guest settings, the guest's stdio in
   * the REPL's buffers (stdin from :stdin's file), and the workspace's productions.
   */
  private ProfilingSession session(Path program, List<String> args) {
    PrintStream notices = new PrintStream(guestOut, true, StandardCharsets.UTF_8);
    return ProfilingSession.of(
            SessionOptions.plain(program, args), guest.options(base, notices), productionSet())
        .named(PRODUCTIONS)
        .preparing(
            m -> {
              m.kernel()
                  .setStdio(
                      0,
                      RunService.openStdin(
                          stdinShown == null ? null : path(stdinShown), stdinShown),
                      null);
              m.kernel().setStdio(1, null, guestOut);
              m.kernel().setStdio(2, null, guestOut);
            });
  }

  /**
   * A path as typed, relative to the session's folder: kept as typed when that is the working
   * folder, so that messages (and argv[0]) show what the user wrote.
   */
  Path path(String shown) {
    return base.equals(Path.of("").toAbsolutePath()) ? Path.of(shown) : base.resolve(shown);
  }

  /** The workspace's productions, or null when there are none (a plain run). */
  private ProductionSet productionSet() {
    ProductionSet s = workspace.set();
    return s == null || s.productions().isEmpty() ? null : s;
  }

  /** How errors about the workspace's productions name them. */
  private static final String PRODUCTIONS = "the session's productions";

  /** The workspace's productions as a session over a machine already loaded (it loads none). */
  private ProfilingSession productions() {
    return ProfilingSession.of(SessionOptions.plain(null, List.of()), null, productionSet())
        .named(PRODUCTIONS);
  }

  /**
   * The session with its productions bound against {@code m}'s symbols; each one not found is shown
   * as a diagnostic before the error, as {@code acf run} shows them.
   */
  private ProfilingSession bound(ProfilingSession session, Machine m, String consequence) {
    ByteArrayOutputStream problems = new ByteArrayOutputStream();
    try {
      return session.boundTo(
          m, new PrintStream(problems, true, StandardCharsets.UTF_8), consequence);
    } finally {
      out.append(problems.toString(StandardCharsets.UTF_8));
    }
  }

  /** Makes {@code m} the current machine, with the current productions and breakpoints. */
  void install(Machine m) {
    // symbol(NAME) resolves against the program just loaded.
    ProfilingSession.Run r = bound(productions(), m, "the program is not loaded").start(m);
    DiseEngine e = r.engine();
    machine = m;
    run = r;
    if (timingConfig != null) {
      timed = new org.dise.runtime.timing.TimingRun(timingConfig).attach(m.cpu());
    } else {
      timed = null;
      if (m.cpu().retireObserver() instanceof org.dise.runtime.timing.TimingRun) {
        m.cpu().setRetireObserver(null); // :timing off before the program started
      }
    }
    shadow.clear();
    engineVersion = workspace.version();
    runSource = workspace.source();
    stage = null;
    refreshStage();
    m.cpu().setBlockObserver(null);
    TriggerSpec spec = effectiveTrigger();
    if (spec != null && e != null) {
      try {
        r.drive(Triggers.create(spec, null));
      } catch (IllegalArgumentException x) {
        throw new ReplError("trigger " + spec.describe() + ": " + x.getMessage());
      }
    }
  }

  /**
   * Sets the timing model (null: off). A program that has not started is measured from its start; a
   * paused one from here on (the figures count what runs after this), and without a model it runs
   * on unmeasured.
   */
  String timing(org.dise.runtime.timing.TimingConfig config) {
    timingConfig = config;
    if (machine == null) {
      return "";
    }
    if (machine.cpu().instret() == 0) {
      install(machine);
      return " (now: the program has not started)";
    }
    if (machine.cpu().halted() || machine.cpu().fault() != null) {
      return " (from the next :run)";
    }
    if (config == null) {
      machine.cpu().setRetireObserver(null);
      timed = null;
      return " (the paused program runs on unmeasured)";
    }
    timed = new org.dise.runtime.timing.TimingRun(config).attach(machine.cpu());
    return " (the paused program is measured from here on)";
  }

  /** The timing model set, or null. */
  org.dise.runtime.timing.TimingConfig timingConfig() {
    return timingConfig;
  }

  /** The current machine's timing measurement, or null. */
  org.dise.runtime.timing.TimingRun timed() {
    return timed;
  }

  /** The trigger the next run uses: :trigger's, else the one the ACF declares, else none. */
  TriggerSpec effectiveTrigger() {
    if (triggerOff) {
      return null;
    }
    if (triggerSet != null) {
      return triggerSet;
    }
    return RunService.declared(workspace.set(), "the session's productions");
  }

  /** Re-installs the program when it has not started, so a new setting applies at once. */
  String applyBeforeStart() {
    if (machine != null && machine.cpu().instret() == 0) {
      install(machine);
      return " (now: the program has not started)";
    }
    return machine == null ? "" : " (from the next :run)";
  }

  // ------------------------------------------------------------------ running

  /** Starts the program again from its entry point, under the current productions. */
  void restart() {
    requireProgram();
    install(loadMachine(programShown, programPath, programArgs));
  }

  /** Runs at most {@code steps} instructions, or until {@code until} (-1: none) is reached. */
  void resume(long steps, long until) {
    Machine m = requireProgram();
    Cpu cpu = m.cpu();
    if (cpu.halted() || cpu.fault() != null) {
      throw new ReplError(
          "the program has " + (cpu.halted() ? "exited" : "faulted") + "; :run starts it again");
    }
    if (cpu.instret() == 0 && behind()) {
      install(m); // not started yet: it runs under the productions as they are now
    }
    boolean temporary = until >= 0 && breakpoints.add(until);
    if (temporary) {
      refreshStage();
    }
    if (stage != null) {
      stage.resumeAt(cpu.pc);
    }
    long before = applicationInstructions();
    StopReason r;
    long hit;
    BreakCondition fired;
    running = cpu;
    try {
      r = runSliced(steps);
      hit = stage != null && stage.hit() == cpu.pc ? stage.hit() : -1;
      fired = stage == null ? null : stage.fired();
    } finally {
      running = null;
      // A Ctrl-C that landed between two slices stopped this run through interruptRequested and
      // is still pending in the Cpu; it must not stop the next command's run.
      cpu.clearInterrupt();
      if (temporary) {
        breakpoints.remove(until);
        refreshStage();
      }
    }
    flushGuest();
    long ran = applicationInstructions() - before;
    switch (r) {
      case EXITED ->
          out.append(
              String.format(
                  "program exited with status %d after %s%n", cpu.exitCode(), instructionCount()));
      case FAULT -> out.append(m.faultReport(cpu.fault())).append('\n');
      case DEADLOCK -> out.append(m.kernel().threads().deadlockReport()).append('\n');
      case STEP_LIMIT -> {
        out.append(
            String.format("stopped after %,d instructions (%s in all)%n", ran, instructionCount()));
        out.append(shown.pcLine(m)).append('\n');
      }
      case BREAKPOINT, INTERRUPTED -> {
        if (fired != null) {
          out.append(
              String.format(
                  "stopped: %s%s, after %s%n",
                  fired.text,
                  hit >= 0 ? " (before it runs)" : " (after the instruction that made it so)",
                  instructionCount()));
        } else if (hit >= 0 && hit == until) {
          out.append(
              String.format(
                  "reached %s after %s%n", m.symbols().describe(hit), instructionCount()));
        } else if (hit >= 0) {
          out.append(
              String.format(
                  "breakpoint at %s after %s%n", m.symbols().describe(hit), instructionCount()));
        } else {
          out.append(String.format("interrupted after %s%n", instructionCount()));
        }
        out.append(shown.pcLine(m)).append('\n');
      }
    }
    if (timed != null) {
      out.append("timing ").append(timed.summary()).append('\n');
    }
  }

  /**
   * The program's application instructions: what the cost report counts, without the instructions
   * that replacement sequences inserted (spec/engine.md).
   */
  private long applicationInstructions() {
    return run.applicationInstructions();
  }

  /**
   * {@code 40,277 instructions}, with {@code (+49,414 inserted)} when productions inserted some.
   */
  @Override
  public String instructionCount() {
    long inserted = run.insertedInstructions();
    return String.format("%,d instructions", applicationInstructions())
        + (inserted > 0 ? String.format(" (+%,d inserted)", inserted) : "");
  }

  /**
   * Runs in slices and checks for Ctrl-C between them, so that a request that lands while no slice
   * runs stops the run before the next slice starts.
   */
  private StopReason runSliced(long steps) {
    return run.runFor(steps, SLICE, () -> interruptRequested);
  }

  /** Moves what the guest wrote (and the emulator's notices) into the session's output. */
  void flushGuest() {
    if (guestOut.size() > 0) {
      String s = guestOut.toString(StandardCharsets.UTF_8);
      guestOut.reset();
      out.append(s);
      if (!s.endsWith("\n")) {
        out.append('\n');
      }
    }
  }

  // ------------------------------------------------------------------ hot reload

  /** Hot reload: the current production set into the paused program (spec/engine.md). */
  void apply() {
    Machine m = requireProgram();
    Cpu cpu = m.cpu();
    if (cpu.halted() || cpu.fault() != null) {
      throw new ReplError(
          "the program has "
              + (cpu.halted() ? "exited" : "faulted")
              + "; :run starts it again under these productions");
    }
    if (cpu.instret() == 0) {
      install(m);
      out.append("the program has not started: it starts under these productions\n");
      return;
    }
    if (!behind()) {
      out.append("the program already runs under these productions\n");
      return;
    }
    ProductionSet s = workspace.set();
    if (driver() != null && (s == null || s.productions().isEmpty())) {
      throw new ReplError(
          "a trigger drives this run and needs productions to turn its"
              + " codewords into the sampling flag; :trigger none and :run run without them");
    }
    ProfilingSession next = bound(productions(), m, "nothing was applied");
    // The trigger keeps its intervals and decisions; the interval's codeword goes in again
    // before the next instruction, so the new set's productions set the sampling flag.
    List<String> reset = run.replace(next.productions() == null ? null : next.engine());
    DiseEngine e = run.engine();
    TriggerDriver driver = run.driver();
    engineVersion = workspace.version();
    runSource = workspace.source();
    refreshStage(); // a new decode stage: every instruction is decoded and folded again
    out.append("applied at ")
        .append(m.symbols().describe(cpu.pc))
        .append(": ")
        .append(s == null ? "no productions" : Workspace.describe(s))
        .append('\n');
    if (driver != null) {
      out.append(
          String.format(
              "  the trigger goes on in interval %,d (%s); its codeword is"
                  + " injected again before the next instruction%n",
              driver.intervals(), driver.sampling() ? "sampled" : "not sampled"));
    }
    if (reset.isEmpty() && e != null) {
      out.append("kept every counter and sink profile; :continue goes on under them\n");
    } else {
      reset.forEach(r -> out.append("  ").append(r).append('\n'));
      out.append(":continue goes on under them\n");
    }
  }

  // ------------------------------------------------------------------ breakpoints

  /**
   * Puts the engine, breakpoints, conditions and the shadow stack in the decode stage (re-decoding
   * what was cached). Conditions are parsed again against the running set: a production's index may
   * differ in a changed set, and one whose label is gone is dropped.
   */
  void refreshStage() {
    if (machine == null) {
      return;
    }
    conditions.clear();
    for (Iterator<String> it = conditionTexts.iterator(); it.hasNext(); ) {
      String text = it.next();
      try {
        conditions.add(condition(text));
      } catch (ReplError e) {
        it.remove();
        out.append("(condition `")
            .append(text)
            .append("` dropped: ")
            .append(e.getMessage())
            .append(")\n");
      }
    }
    stage = new BreakpointStage(engine(), breakpoints, conditions, shadow);
    machine.cpu().setDecodeStage(stage);
  }

  /** A condition parsed against the running production set. */
  BreakCondition condition(String text) {
    DiseEngine engine = engine();
    if (engine == null) {
      throw new ReplError(
          "a condition on productions and counters needs a program running" + " under productions");
    }
    List<Production> ps = engine.productionSet().productions();
    return BreakCondition.parse(
        text,
        label -> {
          for (int i = 0; i < ps.size(); i++) {
            if (ps.get(i).name().equalsIgnoreCase(label)) {
              return i;
            }
          }
          return -1;
        },
        engine,
        machine.symbols());
  }

  /** Whether the condition stops when it becomes true (else: before each match). */
  boolean edgeTriggered(BreakCondition c) {
    return c.state(engine()) != null;
  }

  void addCondition(String text, BreakCondition c) {
    conditionTexts.add(text);
    conditions.add(c);
  }

  // ------------------------------------------------------------------ arguments

  /** An address: a number, a function name, {@code name+offset}, or {@code $reg[+offset]}. */
  @Override
  public long address(String s) {
    if (!s.isEmpty() && Character.isDigit(s.charAt(0))) {
      return Args.number(s);
    }
    Machine m = requireProgram();
    if (s.startsWith("$")) {
      // A register's value, as gdb writes it: $sp, $a0, $pc, $dr1 (with +offset).
      int plus = s.indexOf('+');
      String reg = (plus < 0 ? s : s.substring(0, plus)).substring(1);
      long off = plus < 0 ? 0 : Args.number(s.substring(plus + 1));
      if (reg.equalsIgnoreCase("pc")) {
        return m.cpu().pc + off;
      }
      if (reg.toLowerCase(Locale.ROOT).matches("dr[0-7]")) {
        return m.cpu().x[Cpu.DISE_REG_BASE + (reg.charAt(2) - '0')] + off;
      }
      return m.cpu().x[Args.register(reg, "write $sp, $a0, $pc, $dr0...")] + off;
    }
    String name = s;
    long offset = 0;
    int plus = s.lastIndexOf('+');
    if (plus > 0) {
      name = s.substring(0, plus);
      offset = Args.number(s.substring(plus + 1));
    }
    Optional<Symbol> sym = m.symbols().byName(name);
    if (sym.isEmpty()) {
      throw new ReplError("no function named " + name + " in " + programShown);
    }
    return sym.get().address() + offset;
  }

  @Override
  public long value(String s) {
    if (!s.isEmpty() && (Character.isDigit(s.charAt(0)) || s.charAt(0) == '-')) {
      return Args.number(s);
    }
    return address(s);
  }
}
