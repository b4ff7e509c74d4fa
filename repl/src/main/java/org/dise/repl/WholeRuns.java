package org.dise.repl;

import java.nio.file.Path;
import java.util.Map;
import org.dise.repl.common.ExitStatus;
import org.dise.repl.common.ProfileReport;
import org.dise.repl.common.RunService;
import org.dise.repl.common.Tty;
import org.dise.repl.common.UserError;
import org.dise.repl.common.Verbosity;
import org.dise.runtime.Machine;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.dise.ProfilingEngine;
import org.dise.runtime.session.ProfilingSession;

/**
 * {@code acf run} of the whole program under the productions (or of none: a plain run): the
 * session's run, with a timing model and a center's reporter when asked and the progress line; then
 * the summary, {@code --out} (a folder for each process the guest forked) and {@code --stats}.
 * {@link RunCommand} holds the options.
 */
final class WholeRuns {
  private final RunCommand command;

  WholeRuns(RunCommand command) {
    this.command = command;
  }

  /** Runs the program; {@code timed} is the timing model (null: the analytic cost model). */
  int run(ProductionSet productions, Path origin, org.dise.runtime.timing.TimingRun timed) {
    // Every process the guest forks gets an engine of its own (its own counters and profile).
    ProfilingSession.Run run = command.session.start();
    if (run.dormant() != null) {
      Verbosity.debug(
          System.err,
          run.dormant() + "; the engine is not installed: a plain run, reports of zero");
    }
    Machine machine = run.machine();
    ProfilingEngine engine = run.engine();
    Map<Machine, ProfilingEngine> children = run.children();
    if (timed != null) {
      if (productions != null) {
        // Each sink's handler runs as RISC-V code where it has one (spec/timing.md).
        try {
          timed.handlers(
              productions.sinks().stream()
                  .map(
                      b ->
                          new org.dise.runtime.timing.SinkHandler(
                              b.name(), b.component(), b.params()))
                  .toList());
        } catch (IllegalArgumentException e) {
          throw new UserError(origin + ": " + e.getMessage(), ExitStatus.USAGE);
        }
      }
      timed.attach(machine.cpu());
    }
    org.dise.center.DeviceReporter reporter = command.reporter();
    if (reporter != null) {
      reporter.attach(engine.sinks(), machine.symbols());
    }
    RunClock clock = new RunClock(command.options.stats() || Verbosity.verbose());
    Machine.Outcome out;
    try (Progress p =
        Progress.start(
            command.options.progress() && Tty.isTerminal(2),
            System.err,
            machine.cpu()::instret,
            command.options.session().maxInsns() > 0 ? command.options.session().maxInsns() : -1,
            null)) {
      out = run.run(command.options.session().maxInsns());
    }
    clock.stop();
    System.out.flush();
    Verbosity.debug(
        System.err,
        "ran %,d instructions in %.3f s (%.3f s of CPU on the guest's thread, %.1f MIPS)",
        out.instructions(),
        clock.seconds,
        clock.cpuSeconds,
        out.instructions() / Math.max(clock.seconds, 1e-9) / 1e6);
    if (out.report() != null) {
      System.err.println("acf: " + out.report());
    }
    for (String line : run.neverBound()) { // a loop: no call site to link in a plain run's exit
      System.err.println(line);
    }
    if (engine != null) {
      org.dise.center.DeviceReporter.Summary sent =
          reporter == null
              ? null
              : reporter.finish(engine.cost().applicationInstructions(), out.exitStatus());
      ProfileReport.summary(engine, machine.symbols(), System.err);
      if (timed == null) {
        System.err.println(
            "  (analytic: one cycle per event, spec/cost-model.md; --timing ooo or inorder"
                + " measures cycles)");
      }
      RunSummary.print(engine, machine, System.err);
      if (sent != null) {
        sent.lines().forEach(System.err::println);
      }
      if (timed != null) {
        printTiming(timed);
      }
      if (command.options.session().out() != null) {
        GuestReach.checkUnchanged(command.options.session().out(), command.outKey);
        RunService.writeOut(
            engine,
            machine.symbols(),
            command.options.session().out(),
            out.exitStatus(),
            "--out",
            RunSummary.members(command.request(), engine, machine)
                + RunSummary.process(machine)
                + (sent == null ? "" : sent.json())
                + ", \"cost_model\": \""
                + (timed == null ? "analytic" : timed.config().model())
                + "\""
                + (timed == null ? "" : ", \"timing\": " + timed.toJson()));
        // The other processes of the tree: one folder each, pid-N, beside the first one's.
        for (Map.Entry<Machine, ProfilingEngine> c : children.entrySet()) {
          Machine child = c.getKey();
          Path dir = command.options.session().out().resolve("pid-" + child.pid());
          RunService.writeOut(
              c.getValue(),
              child.symbols(),
              dir,
              child.shellStatus(),
              "--out",
              RunSummary.members(command.request(), c.getValue(), child)
                  + RunSummary.process(child));
        }
      }
      if (!children.isEmpty()) {
        System.err.printf(
            "acf: %d more process%s profiled%s%n",
            children.size(),
            children.size() == 1 ? "" : "es",
            command.options.session().out() != null
                ? " (in " + command.options.session().out() + "/pid-N)"
                : " (--out DIR writes their profiles)");
      }
    } else if (timed != null) {
      printTiming(timed);
    }
    if (command.options.stats()) {
      clock.printStats(out.instructions());
    }
    return command.reported(out.exitStatus(), reporter);
  }

  private static void printTiming(org.dise.runtime.timing.TimingRun timed) {
    System.err.println("timing");
    for (String line : timed.describe().split("\n")) {
      System.err.println("  " + line);
    }
  }
}
