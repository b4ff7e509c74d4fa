package org.dise.repl;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.dise.center.DeviceReporter;
import org.dise.repl.common.ExitStatus;
import org.dise.repl.common.UserError;
import picocli.CommandLine.Option;

/**
 * The options of {@code acf run} that send the run's profile to an optimization center
 * (spec/remote.md): kept apart from RunCommand's own so that its changes stay small.
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

  /** Whether the run reports to a center. */
  boolean active() {
    return url != null;
  }

  /** Checks the options against the run: a usage error when they do not fit together. */
  void check(boolean productions, boolean triggered) {
    if (url == null) {
      if (device != null || token != null || spool != null || send != null) {
        throw new UserError(
            "--device, --token, --spool and --send need --report-to URL", ExitStatus.USAGE);
      }
      return;
    }
    if (!productions) {
      throw new UserError(
          "--report-to needs --acf or --config: a run without productions has"
              + " no profile to send",
          ExitStatus.USAGE);
    }
    if (device == null) {
      throw new UserError("--report-to needs --device ID", ExitStatus.USAGE);
    }
    if (!org.dise.center.Upload.DEVICE_NAME.matcher(device).matches()) {
      // The center's own rule, checked before the run: a part it would refuse is never made.
      throw new UserError(
          "--device "
              + device
              + ": a device name is 1 to 64 letters, digits, '.', '_' or '-' (the center's rule)",
          ExitStatus.USAGE);
    }
    int every;
    try {
      every = DeviceReporter.parseSend(send);
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage(), ExitStatus.USAGE);
    }
    if (every > 0 && !triggered) {
      throw new UserError(
          "--send "
              + send
              + " needs a sampling trigger (--sampling, or one"
              + " declared in the ACF): parts are sent at interval boundaries",
          ExitStatus.USAGE);
    }
    if (bufferBytes < 1024) {
      throw new UserError("--buffer-size must be at least 1K", ExitStatus.USAGE);
    }
  }

  /** Sends the spool, asks for feedback, and returns the reporter of this run. */
  DeviceReporter open(Path program, List<Path> configFiles) {
    try {
      return DeviceReporter.open(
          new DeviceReporter.Options(
              url, device, token, spool, send, feedback, bufferBytes, Duration.ofSeconds(10)),
          program,
          DeviceReporter.configHash(configFiles),
          System.err);
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage(), ExitStatus.USAGE);
    } catch (IOException e) {
      throw new UserError((spool != null ? spool : "the spool") + ": " + UserError.why(e));
    }
  }
}
