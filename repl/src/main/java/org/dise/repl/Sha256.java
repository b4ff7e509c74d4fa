package org.dise.repl;

import java.io.IOException;
import java.nio.file.Path;
import org.dise.center.DeviceReporter;
import org.dise.repl.common.UserError;

/** SHA-256 of files, as lower-case hex: how runs and configurations name what they used. */
final class Sha256 {
  private Sha256() {}

  /** The digest the center keys programs by ({@link DeviceReporter#sha256}), or a user error. */
  static String of(Path file) {
    try {
      return DeviceReporter.sha256(file);
    } catch (IOException e) {
      throw new UserError(file + ": cannot read: " + UserError.why(e));
    }
  }
}
