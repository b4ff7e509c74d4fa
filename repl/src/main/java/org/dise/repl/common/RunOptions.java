package org.dise.repl.common;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import org.dise.runtime.Machine;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.session.SessionOptions;
import org.dise.runtime.timing.TimingConfig;
import org.dise.runtime.trigger.TriggerSpec;

/**
 * Everything one run of a program is asked to do, as one immutable record of its option families:
 * the session's part ({@link SessionOptions}: program, arguments, productions, {@code --out}, how
 * far), the guest's ({@link RunGuest}), sampling ({@link RunSampling}), point runs ({@link
 * RunPoints}), the timing model ({@link RunTiming}), the report to a center ({@link RunReport}),
 * and the front end's own switches. Each front end only turns its syntax into these records ({@code
 * acf run}'s picocli mixins, its fast {@code RunLine}, the REPL's command line); how the options go
 * together is checked once, here, when the record is made ({@link #validate}), with the messages
 * and the usage status (2) of {@code acf run}.
 *
 * <p>What depends on the productions' text (a trigger the ACF declares) can only be judged once
 * they are read: {@link #against} finishes the same checks then.
 *
 * @param stats {@code --stats}: the run's figures on stderr at the end
 * @param progress {@code --progress}: the progress line on a terminal
 * @param noCache {@code --no-cache}: compile the ACFs even when the cache holds them
 * @param engine {@code --engine}: the engine kind
 */
public record RunOptions(
    SessionOptions session,
    RunGuest guest,
    RunSampling sampling,
    RunPoints points,
    RunTiming timing,
    RunReport report,
    boolean stats,
    boolean progress,
    boolean noCache,
    String engine) {
  /**
   * @throws UserError (usage) when the options do not go together
   */
  public RunOptions {
    validate(session, guest, sampling, points, timing, report);
  }

  /**
   * The one check of how a run's options go together, in a fixed order: the session's (its record's
   * own), the guest's, then either the point runs' or sampling's, the center's and the timing
   * model's.
   */
  private static void validate(
      SessionOptions session,
      RunGuest guest,
      RunSampling sampling,
      RunPoints points,
      RunTiming timing,
      RunReport report) {
    guest.validate();
    if (points.any()) {
      if (timing.active()) {
        throw new UserError(
            "--timing does not combine with --simpoints or --fast-forward yet; --timing-sample"
                + " PERIOD times a run in sampled units (spec/timing.md, \"Sampled timing\")",
            ExitStatus.USAGE);
      }
      points.validate(session.profiled(), sampling);
      report.validatePoints();
      timing.config(); // analytic: --timing-sample and --timing-config are refused as in any run
      return;
    }
    sampling.validate(session.profiled());
    report.validate(session.profiled());
    timing.config(); // a bad model, file or sample fails here
  }

  /**
   * The run's checks that need its productions (null: a plain run): the trigger they declare, or
   * {@code --sampling}'s, against the options; returns that trigger (null: none) and the timing
   * model (null: analytic).
   *
   * @throws UserError (usage) when they do not go together
   */
  public Checked against(ProductionSet productions, Path origin) {
    if (points.any()) {
      points.validateTriggers(productions);
      return new Checked(null, null);
    }
    TriggerSpec trigger = sampling.trigger(productions, origin);
    report.validateSend(trigger != null);
    TimingConfig timed = timing.config();
    if (trigger != null && timed != null) {
      throw new UserError(
          "--timing does not combine with sampling yet: time the sampled intervals' production"
              + " set without a trigger",
          ExitStatus.USAGE);
    }
    return new Checked(trigger, timed);
  }

  /**
   * What the checks against the productions found.
   *
   * @param trigger the sampling trigger (null: none)
   * @param timing the timing model's configuration (null: the analytic cost model)
   */
  public record Checked(TriggerSpec trigger, TimingConfig timing) {}

  /**
   * The emulator's options for this run in {@code cwd}: the guest's settings, with acf's own output
   * and spool kept out of the guest's reach (the rest of acf's state is protected for every guest,
   * {@link AcfState#paths()}).
   */
  public Machine.Options machine(Path cwd, PrintStream notices) {
    GuestSettings settings = guest.applyTo(new GuestSettings(), d -> d);
    if (session.out() != null) {
      settings.protect(session.out());
    }
    if (report.center().spool() != null) {
      settings.protect(report.center().spool());
    }
    return settings.options(cwd, notices);
  }

  /** The files the productions came from, as the center's configuration hash takes them. */
  public List<Path> configFiles() {
    return session.config() != null ? List.of(session.config()) : session.acfs();
  }
}
