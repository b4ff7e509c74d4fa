package org.dise.repl;

import java.io.IOException;
import java.nio.file.Path;
import org.dise.repl.common.ExitStatus;
import org.dise.repl.common.UserError;
import org.dise.runtime.timing.TimingConfig;
import org.dise.runtime.timing.TimingRun;

/**
 * {@code --timing MODEL} and {@code --timing-config FILE} (spec/timing.md): the cycle-level timing
 * model a run is measured under, or {@code analytic} (the default: the cost report's one cycle per
 * event, spec/cost-model.md).
 */
final class TimingOptions {
  @picocli.CommandLine.Option(
      names = "--timing",
      paramLabel = "MODEL",
      description =
          "Measure cycles with a timing model: inorder (StrongARM SA-1110-like) or ooo (the first"
              + " paper's 4-wide out-of-order core); analytic (the default) keeps the cost"
              + " report's one cycle per event. `acf timing list` names the parameters.")
  String model = "analytic";

  @picocli.CommandLine.Option(
      names = "--timing-config",
      paramLabel = "FILE",
      description = "Timing model parameters, `name = value` lines (spec/timing.md).")
  Path configFile;

  @picocli.CommandLine.Option(
      names = "--timing-sample",
      paramLabel = "PERIOD[:UNIT[:WARMUP]]",
      description =
          "Sampled timing (SMARTS): one detailed unit of UNIT application instructions (1000)"
              + " every PERIOD, after WARMUP (2000) detailed and unmeasured; caches and predictors"
              + " warmed in between; cycles are estimated (spec/timing.md). K, M suffixes.")
  String sample;

  boolean active() {
    return !model.equals("analytic");
  }

  /** The configuration asked for, or null for analytic; a bad model or file is a usage error. */
  TimingConfig config() {
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
  static TimingConfig read(String model, Path file) {
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

  /** A new measurement, or null for analytic ({@code profiling}: the run has productions). */
  TimingRun start(boolean profiling) {
    TimingConfig c = config();
    return c == null ? null : new TimingRun(c, profiling);
  }
}
