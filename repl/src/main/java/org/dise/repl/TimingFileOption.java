package org.dise.repl;

import java.nio.file.Path;

/**
 * {@code --timing-config FILE}: the timing model's parameters, one picocli mixin for every command
 * that takes a model ({@link TimingOptions}: {@code acf run} and {@code acf sweep}; {@code acf
 * experiment}, whose {@code --timing} has another default), checked with the model by {@link
 * org.dise.repl.common.RunTiming#config}.
 */
final class TimingFileOption {
  @picocli.CommandLine.Option(
      names = "--timing-config",
      paramLabel = "FILE",
      description = "Timing model parameters, `name = value` lines (spec/timing.md).")
  Path configFile;

  /** The file given as a worker's command line gives it again (absolute), or nothing. */
  java.util.List<String> arguments() {
    return configFile == null
        ? java.util.List.of()
        : java.util.List.of("--timing-config", configFile.toAbsolutePath().toString());
  }
}
