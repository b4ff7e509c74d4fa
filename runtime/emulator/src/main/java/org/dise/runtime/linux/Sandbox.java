package org.dise.runtime.linux;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Confines the guest's file access: by default it may read and write only under the working
 * directory, plus read a few harmless system files; more directories can be allowed.
 */
public final class Sandbox {
  private final Path cwd;
  private final List<Path> readable = new ArrayList<>();
  private final List<Path> writable = new ArrayList<>();

  /** System files glibc may look at; readable everywhere. */
  private static final List<Path> SYSTEM_READ =
      List.of(Path.of("/dev/null"), Path.of("/dev/zero"), Path.of("/dev/urandom"),
          Path.of("/dev/random"), Path.of("/etc/localtime"), Path.of("/usr/share/zoneinfo"));

  public Sandbox(Path cwd) {
    this.cwd = cwd.toAbsolutePath().normalize();
    readable.add(this.cwd);
    writable.add(this.cwd);
    readable.addAll(SYSTEM_READ);
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

  public Path cwd() {
    return cwd;
  }

  /** Resolves a guest path against the working directory. */
  public Path resolve(String guestPath) {
    return cwd.resolve(guestPath).normalize();
  }

  public boolean mayRead(Path p) {
    return within(real(p), readable);
  }

  public boolean mayWrite(Path p) {
    return within(real(p), writable);
  }

  private static boolean within(Path p, List<Path> roots) {
    for (Path r : roots) {
      if (p.startsWith(r)) {
        return true;
      }
    }
    return false;
  }

  /** The real path of the nearest existing ancestor, so symlinks cannot lead out. */
  private static Path real(Path p) {
    Path rest = Path.of("");
    Path cur = p;
    while (cur != null) {
      if (Files.exists(cur)) {
        try {
          return cur.toRealPath().resolve(rest).normalize();
        } catch (IOException e) {
          return p;
        }
      }
      Path name = cur.getFileName();
      rest = name == null ? rest : name.resolve(rest);
      cur = cur.getParent();
    }
    return p;
  }
}
