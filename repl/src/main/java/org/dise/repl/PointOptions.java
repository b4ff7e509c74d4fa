package org.dise.repl;

import java.nio.file.Path;
import org.dise.repl.common.RunPoints;
import picocli.CommandLine.Option;

/**
 * {@code acf run}'s point runs ({@code --fast-forward}, {@code --simpoints} with {@code
 * --weights}): a picocli mixin whose values are {@link RunPoints}, checked with the run's other
 * options.
 */
final class PointOptions {
  @Option(
      names = "--fast-forward",
      paramLabel = "N",
      converter = CountConverter.class,
      description =
          "Run the first N application instructions at full speed, then turn the"
              + " productions on (K, M, G suffixes).")
  Long fastForward;

  @Option(
      names = "--simpoints",
      paramLabel = "FILE",
      description =
          "SimPoint's simulation points (`interval cluster` per line, intervals of"
              + " --interval instructions from 0): run the program at full speed with the"
              + " productions on only in these intervals; needs --weights.")
  Path simpoints;

  @Option(
      names = "--weights",
      paramLabel = "FILE",
      description =
          "SimPoint's weights (`weight cluster` per line) for --simpoints: --out DIR"
              + " gets DIR/point-<interval>/ per point and DIR/<sink>.estimate.csv, the weighted"
              + " whole-program estimate.")
  Path weights;

  /** The values given. */
  RunPoints values() {
    return new RunPoints(fastForward, simpoints, weights);
  }
}
