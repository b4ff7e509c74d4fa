package org.dise.runtime.linux;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The directory that holds the guest's own system files (its dynamic linker and libraries, as
 * qemu-riscv64's {@code -L}): an absolute guest path is looked up there first. The guest may read
 * it without {@code --allow-read} and never write it. spec/emulator.md, "Dynamically linked
 * programs".
 */
public final class Sysroot {
  /** Where Debian's libc6-riscv64-cross puts the RISC-V libraries. */
  public static final Path DEFAULT = Path.of("/usr/riscv64-linux-gnu");

  /** The environment variable that names a sysroot when no option does. */
  public static final String ENV = "ACF_SYSROOT";

  /**
   * Guest paths that only ever mean the guest's own files: the dynamic linker's configuration and
   * the library directories. Outside the sysroot they would name the host's (x86) libraries, so
   * they resolve in the sysroot or not at all.
   */
  private static final List<String> GUEST_ONLY =
      List.of(
          "/lib",
          "/lib32",
          "/lib64",
          "/usr/lib",
          "/usr/lib32",
          "/usr/lib64",
          "/etc/ld.so.cache",
          "/etc/ld.so.preload",
          "/etc/ld.so.conf",
          "/etc/ld.so.conf.d");

  private final Path root;

  private Sysroot(Path root) {
    this.root = root;
  }

  /**
   * The sysroot at {@code dir}.
   *
   * @throws IllegalArgumentException when {@code dir} is not a directory (the message says so)
   */
  public static Sysroot at(Path dir) {
    if (!Files.isDirectory(dir)) {
      throw new IllegalArgumentException(
          dir + ": " + (Files.exists(dir) ? "not a directory" : "no such directory"));
    }
    try {
      return new Sysroot(dir.toRealPath());
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException(dir + ": cannot read: " + e.getMessage());
    }
  }

  /**
   * The sysroot a run uses: {@code explicit} when given (--sysroot), else {@code $ACF_SYSROOT} when
   * set and not empty, else {@link #DEFAULT} when it exists, else none (null: dynamically linked
   * programs then cannot run, and say so).
   */
  public static Sysroot choose(Path explicit) {
    if (explicit != null) {
      return at(explicit);
    }
    String env = System.getenv(ENV);
    if (env != null && !env.isEmpty()) {
      return at(Path.of(env));
    }
    return Files.isDirectory(DEFAULT) ? at(DEFAULT) : null;
  }

  /** The sysroot's real path on the host. */
  public Path root() {
    return root;
  }

  /** Whether the host path {@code p} (resolved, as {@link PathWalk} gives) lies in the sysroot. */
  public boolean contains(Path p) {
    return p.toAbsolutePath().normalize().startsWith(root);
  }

  /**
   * The object an absolute guest path names in the sysroot, walked as a chroot (links that lead out
   * are taken inside it), when it exists there: a file, or a directory of the guest-only namespace.
   * Null when the guest path is relative or the host's file is meant.
   */
  PathWalk.Result lookup(String guestPath, boolean followLast) {
    if (!guestPath.startsWith("/")) {
      return null;
    }
    PathWalk.Result r = PathWalk.walk(root, guestPath, followLast, root);
    boolean guestOnly = guestOnly(guestPath);
    if (r.ok() && r.exists() && (!r.dir() || guestOnly)) {
      return r;
    }
    if (guestOnly) {
      // Not there: as absent as on a RISC-V system without it (the host's copy is not the guest's).
      return r.ok() ? PathWalk.Result.error(Errno.ENOENT, r.path()) : r;
    }
    return null;
  }

  /** Whether {@code guestPath} lies in the namespace only the sysroot answers for. */
  static boolean guestOnly(String guestPath) {
    String p = guestPath.replaceAll("/+", "/");
    for (String g : GUEST_ONLY) {
      if (p.equals(g) || p.startsWith(g + "/")) {
        return true;
      }
    }
    return false;
  }

  /**
   * The host file of the dynamic linker {@code interpreter} (PT_INTERP) names.
   *
   * @throws java.nio.file.NoSuchFileException when the sysroot has no such file
   */
  public Path interpreter(String interpreter) throws java.nio.file.NoSuchFileException {
    PathWalk.Result r = PathWalk.walk(root, interpreter, true, root);
    if (!r.ok() || !r.exists() || r.dir()) {
      throw new java.nio.file.NoSuchFileException(root + interpreter);
    }
    return r.path();
  }

  @Override
  public String toString() {
    return root.toString();
  }
}
