package org.dise.repl;

import org.dise.repl.common.RunTiming;
import org.dise.runtime.timing.TimingConfig;

/**
 * {@code --timing MODEL} and {@code --timing-config FILE} (spec/timing.md): the cycle-level timing
 * model a run is measured under, or {@code analytic} (the default: the cost report's one cycle per
 * event, spec/cost-model.md): the picocli mixin of {@code acf run} and {@code acf sweep}, whose
 * values are {@link RunTiming}.
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

  /** --timing-config FILE. */
  @picocli.CommandLine.Mixin TimingFileOption file = new TimingFileOption();

  @picocli.CommandLine.Option(
      names = "--timing-sample",
      paramLabel = "PERIOD[:UNIT[:WARMUP]]",
      description =
          "Sampled timing (SMARTS): one detailed unit of UNIT application instructions (1000)"
              + " every PERIOD, after WARMUP (2000) detailed and unmeasured; caches and predictors"
              + " warmed in between; cycles are estimated (spec/timing.md). K, M suffixes.")
  String sample;

  /** The values given, checked when a run uses them ({@link RunTiming#config}). */
  RunTiming values() {
    return new RunTiming(model, file.configFile, sample);
  }

  /** These options as a command line gives them again (a worker's arguments; paths absolute). */
  java.util.List<String> arguments() {
    java.util.List<String> a = new java.util.ArrayList<>(java.util.List.of("--timing", model));
    a.addAll(file.arguments());
    if (sample != null) {
      a.addAll(java.util.List.of("--timing-sample", sample));
    }
    return a;
  }

  /** The configuration asked for, or null for analytic; a bad model or file is a usage error. */
  TimingConfig config() {
    return values().config();
  }
}
