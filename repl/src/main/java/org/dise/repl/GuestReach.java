package org.dise.repl;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import org.dise.repl.common.AcfState;
import org.dise.repl.common.UserError;
import org.dise.runtime.linux.Sandbox;

/**
 * acf's own state and the guest: which paths every guest's sandbox protects (a guest that could
 * write the spool could plant a part the device then uploads with its own token; one that could
 * write the ACF cache or acf's jar, compiled productions or code a later run loads: issue 31), and
 * whether a path lies where the guest may write, judged on real paths as the sandbox judges the
 * guest's (spec/emulator.md, "File sandbox").
 */
final class GuestReach {
  private GuestReach() {}

  /** True when the guest confined by {@code sandbox} could create or change {@code p}. */
  static boolean guestMayWrite(Sandbox sandbox, Path p) {
    return sandbox.mayWrite(realish(p));
  }

  /** The real path of {@code p}: its longest existing prefix resolved, the rest appended. */
  static Path realish(Path p) {
    Path abs = p.toAbsolutePath().normalize();
    Path existing = abs;
    Path rest = null;
    while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
      Path name = existing.getFileName();
      rest = rest == null ? name : name.resolve(rest);
      existing = existing.getParent();
    }
    if (existing == null) {
      return abs;
    }
    try {
      Path real = existing.toRealPath();
      return rest == null ? real : real.resolve(rest);
    } catch (IOException e) {
      return abs;
    }
  }

  /** acf's own state that every guest's sandbox protects ({@link AcfState}). */
  static List<Path> acfState() {
    return AcfState.paths();
  }

  /** The identity (device and inode) of a folder, or null when the platform has none. */
  static Object identity(Path dir) {
    try {
      return Files.readAttributes(dir, java.nio.file.attribute.BasicFileAttributes.class).fileKey();
    } catch (IOException e) {
      return null;
    }
  }

  /**
   * Refuses to write {@code --out} when the folder is no longer the one prepared before the run: a
   * guest that may write its parent could have swapped it for a link to a folder of its choosing,
   * where acf would then write (files inside are replaced by rename, so links there are not
   * followed).
   */
  static void checkUnchanged(Path dir, Object key) {
    if (key != null && !key.equals(identity(dir))) {
      throw new UserError(
          "--out "
              + dir
              + ": the folder was replaced while the guest ran (by the guest?); nothing written");
    }
  }
}
