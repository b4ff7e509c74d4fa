package org.dise.repl.common;

import java.io.IOException;
import java.nio.file.Path;
import org.dise.runtime.timing.TimingConfig;
import org.dise.runtime.timing.TimingRun;

/**
 * The cycle-level timing model a run is measured under (spec/timing.md), one family of {@link
 * RunOptions} ({@code --timing MODEL}, {@code --timing-config FILE}, {@code --timing-sample
 * PERIOD[:UNIT[:WARMUP]]}), or {@code analytic} (the default: the cost report's one cycle per
 * event, spec/cost-model.md).
 *
 * @param model inorder, ooo or analytic
 * @param configFile the model's parameters, {@code name = value} lines (null: none)
 * @param sample sampled timing's PERIOD[:UNIT[:WARMUP]] (null: every instruction timed)
 */
public record RunTiming(String model, Path configFile, String sample) {
  /** Whether a timing model measures the run. */
  public boolean active() {
    return !model.equals("analytic");
  }

  /** The configuration asked for, or null for analytic; a bad model or file is a usage error. */
  public TimingConfig config() {
    if (!active()) {
      if (sample != null) {
        throw new UserError("--timing-sample needs --timing inorder or ooo", ExitStatus.USAGE);
      }
      if (configFile != null) {
        throw new UserError("--timing-config needs --timing inorder or ooo", ExitStatus.USAGE);
      }
      return null;
    }
    TimingConfig c = read(model, configFile);
    if (sample != null) {
      String[] parts = sample.split(":");
      String[] names = {"sample.period", "sample.unit", "sample.warmup"};
      if (parts.length > 3) {
        throw new UserError(
            "--timing-sample takes PERIOD[:UNIT[:WARMUP]], not `" + sample + "`", ExitStatus.USAGE);
      }
      try {
        for (int i = 0; i < parts.length; i++) {
          c.set(
              names[i],
              Long.toString(
                  org.dise.runtime.trigger.Triggers.parseCount("--timing-sample", parts[i])));
        }
        org.dise.runtime.timing.Core.of(c);
      } catch (IllegalArgumentException e) {
        throw new UserError("--timing-sample: " + e.getMessage(), ExitStatus.USAGE);
      }
    }
    return c;
  }

  /** The configuration of {@code model} with {@code file}'s parameters (file may be null). */
  public static TimingConfig read(String model, Path file) {
    TimingConfig c;
    try {
      c = TimingConfig.defaults(model);
    } catch (IllegalArgumentException e) {
      throw new UserError(
          "--timing: " + e.getMessage().replace(")", ", or analytic)"), ExitStatus.USAGE);
    }
    if (file != null) {
      try {
        c.read(file);
      } catch (IOException e) {
        throw new UserError(file + ": cannot read: " + UserError.why(e), ExitStatus.USAGE);
      } catch (IllegalArgumentException e) {
        throw new UserError(e.getMessage(), ExitStatus.USAGE);
      }
    }
    try {
      org.dise.runtime.timing.Core.of(c); // sizes that cannot make a cache fail here
    } catch (IllegalArgumentException e) {
      throw new UserError(
          (file != null ? file + ": " : "") + "timing model: " + e.getMessage(), ExitStatus.USAGE);
    }
    return c;
  }

  /** A new measurement of {@code c} (null: analytic, none); {@code profiling}: with productions. */
  public static TimingRun start(TimingConfig c, boolean profiling) {
    return c == null ? null : new TimingRun(c, profiling);
  }
}
