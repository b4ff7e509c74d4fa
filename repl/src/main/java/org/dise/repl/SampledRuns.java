package org.dise.repl;

import java.nio.file.Path;
import org.dise.repl.common.ExitStatus;
import org.dise.repl.common.ProfileReport;
import org.dise.repl.common.RunService;
import org.dise.repl.common.Tty;
import org.dise.repl.common.UserError;
import org.dise.runtime.Machine;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.dise.ProfilingEngine;
import org.dise.runtime.dise.TriggerDriver;
import org.dise.runtime.profiles.sampling.SamplingRun;
import org.dise.runtime.session.ProfilingSession;
import org.dise.runtime.trigger.TriggerSpec;

/**
 * {@code acf run} under a trigger ({@code --sampling}, or one the ACF declares): the sampled pass
 * (after a first pass when the strategy or {@code --shadow-exhaustive} needs one), its progress
 * line, and the summary, the sampling figures, {@code --out} and {@code --stats}. {@link
 * RunCommand} holds the options.
 */
final class SampledRuns {
  private final RunCommand command;

  SampledRuns(RunCommand command) {
    this.command = command;
  }

  /** Runs under a trigger: the sampled pass (after a first pass when one is needed). */
  int run(ProductionSet productions, Path origin, TriggerSpec trigger) {
    // The pass under way and its driver, for the progress line.
    java.util.concurrent.atomic.AtomicReference<String> pass =
        new java.util.concurrent.atomic.AtomicReference<>("");
    java.util.concurrent.atomic.AtomicReference<TriggerDriver> current =
        new java.util.concurrent.atomic.AtomicReference<>();
    org.dise.center.DeviceReporter reporter = command.reporter();
    SamplingRun.Setup setup =
        command.session.sampling(
            new ProfilingSession.Hooks() {
              @Override
              public void started(
                  String name, TriggerDriver driver, Machine machine, ProfilingEngine engine) {
                pass.set(name);
                current.set(driver);
                if (reporter != null && name.equals("sampled run")) {
                  reporter.attach(driver, engine.sinks(), machine.symbols());
                }
              }

              @Override
              public TriggerDriver.Listener listener(
                  org.dise.runtime.profiles.sampling.ProfileEstimator e) {
                return reporter == null ? e : reporter.listener(e);
              }
            });
    RunClock clock = new RunClock(command.options.stats());
    SamplingRun.Result r;
    try (Progress p =
        Progress.start(
            command.options.progress() && Tty.isTerminal(2),
            System.err,
            () -> current.get() == null ? 0 : current.get().applicationInstructions(),
            command.options.session().maxInsns() > 0 ? command.options.session().maxInsns() : -1,
            () -> current.get() == null ? null : pass.get() + ", " + current.get().progress())) {
      r =
          SamplingRun.run(
              setup,
              trigger,
              command.options.sampling().shadowExhaustive(),
              null,
              command.options.session().maxInsns());
    } catch (IllegalArgumentException e) {
      throw new UserError("sampling: " + e.getMessage(), ExitStatus.USAGE);
    }
    clock.stop();
    System.out.flush();
    Machine.Outcome outcome = r.outcome();
    if (outcome.report() != null) {
      System.err.println("acf: " + outcome.report());
    }
    if (r.driver().codewordUnmatched() != null) {
      System.err.println(
          "acf: warning: the trigger's "
              + r.driver().codewordUnmatched()
              + " matched no production, so it could not set the sampling flag; add the"
              + " productions of equations (1) and (2) (import sampling; use external_trigger;)");
    }
    org.dise.center.DeviceReporter.Summary sent =
        reporter == null
            ? null
            : reporter.finish(r.engine().cost().applicationInstructions(), outcome.exitStatus());
    ProfileReport.summary(r.engine(), r.machine().symbols(), System.err);
    RunSummary.print(r.engine(), r.machine(), System.err);
    ProfileReport.sampling(r, trigger, System.err);
    if (sent != null) {
      sent.lines().forEach(System.err::println);
    }
    if (command.options.session().out() != null) {
      GuestReach.checkUnchanged(command.options.session().out(), command.outKey);
      RunService.writeOut(
          r.engine(),
          r.machine().symbols(),
          command.options.session().out(),
          outcome.exitStatus(),
          "--out",
          ProfileReport.samplingJson(r, trigger)
              + RunSummary.members(command.request(), r.engine(), r.machine())
              + (sent == null ? "" : sent.json()));
      ProfileReport.writePhases(r, command.options.session().out());
      ProfileReport.writeEstimates(r, command.options.session().out());
    }
    if (command.options.stats()) {
      clock.printStats(outcome.instructions());
    }
    return command.reported(outcome.exitStatus(), reporter);
  }
}
