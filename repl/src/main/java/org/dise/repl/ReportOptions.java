package org.dise.repl;

import java.nio.file.Path;
import java.time.Duration;
import org.dise.repl.common.RunReport;
import picocli.CommandLine.Option;

/**
 * The options of {@code acf run} that send the run's profile to an optimization center
 * (spec/remote.md), a picocli mixin whose values are {@link RunReport}.
 */
final class ReportOptions {
  @Option(
      names = "--report-to",
      paramLabel = "URL",
      description =
          "Send the profile to the optimization center at URL (acf center serve),"
              + " tagged with the program's name and SHA-256, the configuration's hash, the device"
              + " and each interval's phase; sends what the spool holds first. Needs --acf or"
              + " --config, and --device.")
  String url;

  @Option(
      names = "--device",
      paramLabel = "ID",
      description = "With --report-to: this device's name (the one its token was made for).")
  String device;

  @Option(
      names = "--token",
      paramLabel = "T",
      description =
          "With --report-to: the device's token (acf center token add ID); not"
              + " needed by a center started with --no-auth.")
  String token;

  @Option(
      names = "--spool",
      paramLabel = "DIR",
      description =
          "With --report-to: where parts wait when the center is down or slow"
              + " (default $XDG_STATE_HOME/acf/spool, else ~/.local/state/acf/spool); acf upload"
              + " sends them.")
  Path spool;

  @Option(
      names = "--send",
      paramLabel = "WHEN",
      description =
          "With --report-to: at-end (default: the profile buffer is sent once, when"
              + " the run ends) or interleaved[:N] (a part every N sampling intervals, default 1;"
              + " needs a sampling trigger). A full buffer is sent early either way.")
  String send;

  @Option(
      names = "--feedback",
      negatable = true,
      defaultValue = "true",
      fallbackValue = "true",
      description =
          "With --report-to and phase-aware sampling: ask the center which phases it"
              + " already holds enough of and do not sample them (default: on).")
  boolean feedback = true;

  @Option(
      names = "--buffer-size",
      paramLabel = "BYTES",
      converter = CountConverter.class,
      description =
          "With --report-to: the profile buffer's bound; when its contents reach it,"
              + " it is sent before the run ends (default 256K; K, M suffixes).")
  long bufferBytes = 256 * 1024;

  /** The values given, checked with the run's other options ({@link RunReport}). */
  RunReport values() {
    return new RunReport(
        new org.dise.center.DeviceReporter.Options(
            url, device, token, spool, send, feedback, bufferBytes, Duration.ofSeconds(10)));
  }
}
