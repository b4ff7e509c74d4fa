package org.dise.repl.common;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.dise.center.DeviceReporter;

/**
 * Sending the run's profile to an optimization center (spec/remote.md), one family of {@link
 * RunOptions} ({@code --report-to URL} and the options that go with it): the reporter's own
 * options, with their checks against each other and the run.
 *
 * @param center the center, device, token, spool, when to send, feedback and buffer (a null URL: no
 *     report; null for each other option not given)
 */
public record RunReport(DeviceReporter.Options center) {
  /** Whether the run reports to a center. */
  public boolean active() {
    return center.url() != null;
  }

  /** The options against each other and the run's productions (or none). */
  void validate(boolean profiled) {
    String device = center.device();
    if (center.url() == null) {
      if (device != null
          || center.token() != null
          || center.spool() != null
          || center.send() != null) {
        throw new UserError(
            "--device, --token, --spool and --send need --report-to URL", ExitStatus.USAGE);
      }
      return;
    }
    if (!profiled) {
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
    sendEvery();
    if (center.bufferBytes() < 1024) {
      throw new UserError("--buffer-size must be at least 1K", ExitStatus.USAGE);
    }
  }

  /**
   * The options against a point run ({@code --fast-forward}, {@code --simpoints}), which has
   * productions: none reports to a center, since a center merges the profiles of whole runs and of
   * sampled intervals with their phases (spec/remote.md), and a point run's profile is of a part of
   * the program (or a weighted estimate) that would count as a whole run there; the options that
   * need --report-to are refused without it, as in every run.
   */
  void validatePoints() {
    if (active()) {
      throw new UserError(
          "--report-to does not combine with --simpoints or --fast-forward: a center merges the"
              + " profiles of whole runs and sampled intervals (spec/remote.md), and a point run's"
              + " is of a part of the program",
          ExitStatus.USAGE);
    }
    validate(true);
  }

  /** {@code --send}'s interval count (0: at the end). */
  private int sendEvery() {
    try {
      return DeviceReporter.parseSend(center.send());
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage(), ExitStatus.USAGE);
    }
  }

  /** {@code --send interleaved} against the run's trigger (known once the ACF is read). */
  void validateSend(boolean triggered) {
    if (active() && sendEvery() > 0 && !triggered) {
      throw new UserError(
          "--send "
              + center.send()
              + " needs a sampling trigger (--sampling, or one"
              + " declared in the ACF): parts are sent at interval boundaries",
          ExitStatus.USAGE);
    }
  }

  /** Sends the spool, asks for feedback, and returns the reporter of this run. */
  public DeviceReporter open(Path program, List<Path> configFiles) {
    try {
      return DeviceReporter.open(
          center, program, DeviceReporter.configHash(configFiles), System.err);
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage(), ExitStatus.USAGE);
    } catch (IOException e) {
      throw new UserError(
          (center.spool() != null ? center.spool() : "the spool") + ": " + UserError.why(e));
    }
  }
}
