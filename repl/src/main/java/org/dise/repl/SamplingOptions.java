package org.dise.repl;

import org.dise.repl.common.RunSampling;
import picocli.CommandLine.Option;

/**
 * {@code acf run}'s sampling options ({@code --sampling} and what tunes it, spec/sampling.md): a
 * picocli mixin whose values are {@link RunSampling}, checked with the run's other options.
 */
final class SamplingOptions {
  @Option(
      names = "--sampling",
      paramLabel = "STRATEGY",
      description =
          "Sample with an external trigger: exhaustive, periodic:N (every Nth"
              + " interval), random:P[:SEED] (each interval with probability 1/P) or"
              + " phase[:POLICY] (phase-aware; POLICY first, third (default), or the oracles"
              + " centroid and random). Overrides a trigger the ACF declares.")
  String sampling;

  @Option(
      names = "--interval",
      paramLabel = "N",
      description =
          "Sampling interval in application instructions (default 10M; K, M, G" + " suffixes).")
  String interval;

  @Option(
      names = "--threshold",
      paramLabel = "T",
      description =
          "Phase tracker similarity threshold, percent of an interval's instructions"
              + " (default 25).")
  String threshold;

  @Option(
      names = "--predictor",
      paramLabel = "KIND",
      description =
          "Phase predictor: last (default), markov (run-length Markov) or oracle"
              + " (a first pass: the papers' perfect prediction).")
  String predictor;

  @Option(
      names = "--scaling",
      paramLabel = "HOW",
      description =
          "What a phase-aware sample stands for in the estimate: nearest (default: every"
              + " interval goes to the sampled interval nearest it by footprint, within its"
              + " phase when it has one) or phase (the phase's instructions; phases never"
              + " sampled are missing). spec/sampling.md.")
  String scaling;

  @Option(
      names = "--shadow-exhaustive",
      description =
          "Also compute the exact profile (a first, exhaustive pass whose cost is not"
              + " charged) and report sampled_fraction, count_error and hot_error.")
  boolean shadowExhaustive;

  /** The values given. */
  RunSampling values() {
    return new RunSampling(sampling, interval, threshold, predictor, scaling, shadowExhaustive);
  }
}
