package org.dise.runtime.linux;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Confines the guest's file access: by default it may read and write only under the working
 * directory, plus read a few harmless system files; more directories can be allowed. The guest's
 * paths are resolved first, as the kernel will ({@link PathWalk}); the sandbox then judges the
 * object actually touched, whose directory part holds no symbolic link (see spec/emulator.md, "File
 * sandbox").
 */
public final class Sandbox {
  private final Path cwd;
  private final List<Path> readable = new ArrayList<>();
  private final List<Path> writable = new ArrayList<>();
  // acf's own state (caches, spool, its jar and class-data archive, --out): never the guest's to
  // change, also where it lies inside a writable directory.
  private final List<Path> protectedPaths = new ArrayList<>();
  // Protected paths not yet resolved (acf's state, read from its config file): resolved on the
  // first check that needs them, so that a run whose guest changes no file never reads the file.
  private final List<Supplier<List<Path>>> protectLater = new ArrayList<>();
  private GuestLimits limits = GuestLimits.defaults();
  // The default sysroot is probed on first use (a static program never needs it).
  private Sysroot sysroot;
  private boolean sysrootChosen;

  /** System files glibc may look at; readable everywhere. */
  private static final List<Path> SYSTEM_READ =
      List.of(
          Path.of("/dev/null"),
          Path.of("/dev/zero"),
          Path.of("/dev/urandom"),
          Path.of("/dev/random"),
          Path.of("/etc/localtime"),
          Path.of("/usr/share/zoneinfo"));

  public Sandbox(Path cwd) {
    this.cwd = real(cwd.toAbsolutePath().normalize());
    readable.add(this.cwd);
    writable.add(this.cwd);
    for (Path p : SYSTEM_READ) {
      readable.add(p);
      readable.add(real(p));
    }
    writable.add(Path.of("/dev/null"));
  }

  /** A sandbox that allows everything (for trusted programs). */
  public static Sandbox unrestricted(Path cwd) {
    Sandbox s = new Sandbox(cwd);
    s.allowWrite(Path.of("/"));
    return s;
  }

  public void allowRead(Path dir) {
    readable.add(real(dir.toAbsolutePath().normalize()));
  }

  public void allowWrite(Path dir) {
    Path p = real(dir.toAbsolutePath().normalize());
    readable.add(p);
    writable.add(p);
  }

  /** The guest's resource limits (descriptors, address space). */
  public GuestLimits limits() {
    return limits;
  }

  public void setLimits(GuestLimits limits) {
    this.limits = limits;
  }

  /**
   * The guest's own system files (dynamic linker, libraries), readable and never writable; null for
   * none. By default {@code $ACF_SYSROOT} or {@link Sysroot#DEFAULT} when it exists.
   */
  public synchronized Sysroot sysroot() {
    if (!sysrootChosen) {
      sysroot = standardSysroot();
      sysrootChosen = true;
    }
    return sysroot;
  }

  public synchronized void setSysroot(Sysroot sysroot) {
    this.sysroot = sysroot;
    this.sysrootChosen = true;
  }

  /** The default sysroot, or none when the environment names no usable one. */
  private static Sysroot standardSysroot() {
    try {
      return Sysroot.choose(null);
    } catch (IllegalArgumentException e) {
      return null; // the command line reports a bad ACF_SYSROOT (Sysroot.choose)
    }
  }

  /** True when the whole file system is writable (no confinement to keep). */
  boolean unrestricted() {
    return writable.contains(Path.of("/"));
  }

  /** The initial working directory, as a real path. */
  public Path cwd() {
    return cwd;
  }

  /**
   * Resolves a guest path against the working directory, following links like the kernel (a path
   * that cannot be walked resolves lexically, for messages only).
   */
  public Path resolve(String guestPath) {
    PathWalk.Result r = PathWalk.walk(cwd, guestPath, true);
    if (r.ok()) {
      return r.path();
    }
    try {
      return cwd.resolve(HostNames.path(guestPath)).normalize();
    } catch (java.nio.charset.CharacterCodingException e) {
      return cwd;
    }
  }

  /** Whether the guest may read {@code p}, a path resolved by {@link PathWalk}. */
  public boolean mayRead(Path p) {
    Sysroot root = sysroot();
    return within(p, readable) || (root != null && root.contains(p));
  }

  /**
   * Keeps {@code p} (a file or a folder and all below it) out of the guest's reach for changes even
   * inside a writable directory: acf's own state. It stays readable where the rest is.
   */
  public void protect(Path p) {
    Path abs = p.toAbsolutePath().normalize();
    protectedPaths.add(abs);
    Path r = realPrefix(abs);
    if (!r.equals(abs)) {
      protectedPaths.add(r);
    }
  }

  /**
   * As {@link #protect} for each path {@code paths} gives, computed when a check first needs them
   * (they may cost a file read that most runs never need).
   */
  public void protectLater(Supplier<List<Path>> paths) {
    protectLater.add(paths);
  }

  /** The protected paths, with those given to {@link #protectLater} resolved. */
  private synchronized List<Path> protectedPaths() {
    while (!protectLater.isEmpty()) {
      List<Path> later = protectLater.remove(0).get();
      for (Path p : later) {
        protect(p);
      }
    }
    return protectedPaths;
  }

  /** Whether the guest may change {@code p}, a path resolved by {@link PathWalk}. */
  public boolean mayWrite(Path p) {
    return within(p, writable) && !within(p, protectedPaths());
  }

  /**
   * Whether the guest may create, delete or rename the directory entry {@code p}: its directory
   * must be writable, and {@code p} must be neither protected nor a folder above a protected path
   * (renaming or deleting that would move acf's state aside for a planted one).
   */
  public boolean mayChangeEntry(Path p) {
    Path dir = p.getParent();
    if (dir == null || !mayWrite(dir)) {
      return false;
    }
    Path n = p.toAbsolutePath().normalize();
    for (Path q : protectedPaths()) {
      if (q.startsWith(n)) {
        return false;
      }
    }
    return !within(n, protectedPaths());
  }

  /**
   * Whether a refusal of {@code p} is the protection's: {@code p} lies in a writable directory and
   * is acf's protected state, inside it, or a folder above it.
   */
  public boolean guards(Path p) {
    Path n = p.toAbsolutePath().normalize();
    if (!within(n, writable) && (n.getParent() == null || !within(n.getParent(), writable))) {
      return false;
    }
    for (Path q : protectedPaths()) {
      if (q.startsWith(n) || n.startsWith(q)) {
        return true;
      }
    }
    return false;
  }

  /** {@code abs} with its longest existing prefix resolved to a real path. */
  private static Path realPrefix(Path abs) {
    Path existing = abs;
    Path rest = null;
    while (existing != null && !java.nio.file.Files.exists(existing)) {
      Path name = existing.getFileName();
      rest = rest == null ? name : name.resolve(rest);
      existing = existing.getParent();
    }
    if (existing == null) {
      return abs;
    }
    Path real = real(existing);
    return rest == null ? real : real.resolve(rest);
  }

  private static boolean within(Path p, List<Path> roots) {
    Path n = p.toAbsolutePath().normalize();
    for (Path r : roots) {
      if (n.startsWith(r)) {
        return true;
      }
    }
    return false;
  }

  /** The real path of an allowed directory (itself as given when it does not exist). */
  private static Path real(Path p) {
    try {
      return p.toRealPath();
    } catch (IOException | SecurityException e) {
      return p;
    }
  }
}
