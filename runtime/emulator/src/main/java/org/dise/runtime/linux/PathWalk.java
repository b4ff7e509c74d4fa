package org.dise.runtime.linux;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Resolves a guest path on the host the way the Linux kernel's path walk does: component by
 * component from the root or a starting directory, following every symbolic link it meets (the last
 * component only when asked), with {@code ..} taken from the real directory reached so far. The
 * result names the object the kernel would touch, with no symbolic link left in its directory part,
 * so the sandbox can judge it and the caller can open it without following links.
 */
final class PathWalk {
  /** Linux's PATH_MAX (including the terminating NUL) and NAME_MAX. */
  static final int PATH_MAX = 4096;

  static final int NAME_MAX = 255;

  /** Linux's MAXSYMLINKS: more links than this in one walk is ELOOP. */
  static final int MAX_LINKS = 40;

  private PathWalk() {}

  /**
   * Where a walk ended: {@code path} is absolute, its parent has no symbolic link in it; {@code
   * exists} says whether the final object exists (as seen without following it), and {@code dir}
   * whether it is a directory. {@code errno} is nonzero when the walk failed.
   */
  record Result(Path path, boolean exists, boolean dir, boolean link, int errno) {
    /** A failed walk; {@code at} is where it stopped, so the sandbox can hide what lies there. */
    static Result error(int errno, Path at) {
      return new Result(at, false, false, false, errno);
    }

    boolean ok() {
      return errno == 0;
    }
  }

  /**
   * Walks {@code guestPath} (the guest's bytes, as {@link SurrogateEscape} holds them) from {@code
   * start} (an absolute real directory) or from the root for an absolute path. {@code followLast}
   * follows a symbolic link in the final component.
   */
  static Result walk(Path start, String guestPath, boolean followLast) {
    return walk(start, guestPath, followLast, start.getRoot());
  }

  /**
   * As {@link #walk(Path, String, boolean)}, with {@code root} (a real directory) standing for "/":
   * absolute paths and absolute link targets start there and {@code ..} never climbs above it, so
   * the walk cannot leave it (a chroot, as the sysroot is to the guest).
   */
  static Result walk(Path start, String guestPath, boolean followLast, Path root) {
    if (guestPath.isEmpty()) {
      return Result.error(Errno.ENOENT, start);
    }
    if (SurrogateEscape.length(guestPath) >= PATH_MAX) {
      return Result.error(Errno.ENAMETOOLONG, start);
    }
    Deque<String> todo = new ArrayDeque<>();
    boolean mustBeDir = push(todo, guestPath);
    Path cur = guestPath.startsWith("/") ? root : start;
    int links = 0;
    while (!todo.isEmpty()) {
      String c = todo.pollFirst();
      boolean last = todo.isEmpty();
      byte[] cb = SurrogateEscape.encode(c);
      if (cb.length > NAME_MAX) {
        return Result.error(Errno.ENAMETOOLONG, cur);
      }
      if (c.equals(".") || c.equals("..")) {
        if (c.equals("..") && cur.getParent() != null && !cur.equals(root)) {
          cur = cur.getParent();
        }
        if (last) {
          return new Result(cur, true, true, false, 0);
        }
        continue;
      }
      Path next;
      try {
        next = cur.resolve(HostNames.path(cb));
      } catch (CharacterCodingException e) {
        // Only where the JDK's paths are closed to us and the locale cannot hold the name.
        return Result.error(Errno.EILSEQ, cur);
      }
      BasicFileAttributes a = lstat(next);
      if (a == null) {
        if (!last) {
          return Result.error(Errno.ENOENT, next);
        }
        return new Result(next, false, false, false, 0);
      }
      if (a.isSymbolicLink() && (!last || followLast || mustBeDir)) {
        if (++links > MAX_LINKS) {
          return Result.error(Errno.ELOOP, next);
        }
        String target;
        try {
          target = HostNames.guestString(Files.readSymbolicLink(next));
        } catch (IOException | UnsupportedOperationException e) {
          return Result.error(Errno.ENOENT, next);
        }
        if (target.isEmpty()) {
          return Result.error(Errno.ENOENT, next);
        }
        if (push(todo, target)) {
          mustBeDir = mustBeDir || last;
        }
        if (target.startsWith("/")) {
          cur = root;
        }
        if (todo.isEmpty()) { // a link to "/"
          return new Result(cur, true, true, false, 0);
        }
        continue;
      }
      if (!last && !a.isDirectory()) {
        return Result.error(Errno.ENOTDIR, next);
      }
      if (last) {
        if (mustBeDir && !a.isDirectory()) {
          return Result.error(Errno.ENOTDIR, next);
        }
        return new Result(next, true, a.isDirectory(), a.isSymbolicLink(), 0);
      }
      cur = next;
    }
    return new Result(cur, true, true, false, 0);
  }

  /** Pushes the components of {@code path} to the front; true if it ends in a slash. */
  private static boolean push(Deque<String> todo, String path) {
    String[] parts = path.split("/", -1);
    boolean trailing = false;
    for (int i = parts.length - 1; i >= 0; i--) {
      if (parts[i].isEmpty()) {
        if (i == parts.length - 1 && parts.length > 1) {
          trailing = true;
        }
        continue;
      }
      todo.addFirst(parts[i]);
    }
    return trailing && !todo.isEmpty();
  }

  private static BasicFileAttributes lstat(Path p) {
    try {
      return Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException | SecurityException e) {
      return null;
    }
  }
}
