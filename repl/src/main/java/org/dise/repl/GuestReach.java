package org.dise.repl;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import org.dise.repl.common.ExitStatus;
import org.dise.repl.common.UserError;
import org.dise.runtime.linux.Sandbox;

/**
 * Whether a path of acf's own state (the spool, the ACF cache) lies where the guest may write: the
 * working directory or an {@code --allow-write} directory, judged on real paths as the sandbox
 * judges the guest's (spec/emulator.md, "File sandbox"). A guest that can write the spool can plant
 * a part the device then uploads with its own token (issue 31).
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

  /** Refuses (usage error) to keep the spool where the guest may write. */
  static void checkSpool(Sandbox sandbox, Path spool, boolean defaulted) {
    if (guestMayWrite(sandbox, spool)) {
      throw new UserError(
          (defaulted ? "the default spool " : "--spool ")
              + spool
              + " lies in a directory the guest may write (the working directory "
              + sandbox.cwd()
              + " or an --allow-write one): a guest could plant a part there that this device then"
              + " uploads with its token. Run from another directory or pass --spool DIR outside"
              + " them",
          ExitStatus.USAGE);
    }
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
