package org.dise.runtime.linux;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.NotLinkException;
import java.util.List;
import java.util.Locale;

/**
 * Maps a host I/O failure back to the errno the host's kernel gave, so the guest sees the same
 * error a native run would (Java keeps only the message, strerror's text, for most of them).
 */
final class HostErrors {
  private HostErrors() {}

  /** An exception type Java raises for one errno. */
  private record ByType(Class<? extends IOException> type, int errno) {}

  /** A fragment of strerror's text, lower case, and its errno; the first that matches wins. */
  private record ByMessage(String fragment, int errno) {}

  private static final List<ByType> TYPES =
      List.of(
          new ByType(NoSuchFileException.class, Errno.ENOENT),
          new ByType(FileAlreadyExistsException.class, Errno.EEXIST),
          new ByType(AccessDeniedException.class, Errno.EACCES),
          new ByType(DirectoryNotEmptyException.class, Errno.ENOTEMPTY),
          new ByType(NotDirectoryException.class, Errno.ENOTDIR),
          new ByType(NotLinkException.class, Errno.EINVAL));

  private static final List<ByMessage> MESSAGES =
      List.of(
          new ByMessage("symbolic link", Errno.ELOOP),
          new ByMessage("broken pipe", Errno.EPIPE),
          new ByMessage("no space left", Errno.ENOSPC),
          new ByMessage("file too large", Errno.EFBIG),
          new ByMessage("not empty", Errno.ENOTEMPTY),
          new ByMessage("not a directory", Errno.ENOTDIR),
          new ByMessage("is a directory", Errno.EISDIR),
          new ByMessage("cross-device", Errno.EXDEV),
          new ByMessage("name too long", Errno.ENAMETOOLONG),
          new ByMessage("operation not permitted", Errno.EPERM),
          new ByMessage("permission denied", Errno.EACCES),
          new ByMessage("read-only", Errno.EACCES),
          new ByMessage("too many open files", Errno.ENFILE));

  static int errno(IOException e) {
    for (ByType t : TYPES) {
      if (t.type().isInstance(e)) {
        return t.errno();
      }
    }
    String m = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
    for (ByMessage b : MESSAGES) {
      if (m.contains(b.fragment())) {
        return b.errno();
      }
    }
    return Errno.EIO;
  }
}
