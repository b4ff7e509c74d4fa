package org.dise.runtime.linux;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.NotLinkException;
import java.util.Locale;

/**
 * Maps a host I/O failure back to the errno the host's kernel gave, so the guest sees the same
 * error a native run would (Java keeps only the message, strerror's text, for most of them).
 */
final class HostErrors {
  private HostErrors() {}

  static int errno(IOException e) {
    if (e instanceof NoSuchFileException) {
      return Errno.ENOENT;
    }
    if (e instanceof FileAlreadyExistsException) {
      return Errno.EEXIST;
    }
    if (e instanceof AccessDeniedException) {
      return Errno.EACCES;
    }
    if (e instanceof DirectoryNotEmptyException) {
      return Errno.ENOTEMPTY;
    }
    if (e instanceof NotDirectoryException) {
      return Errno.ENOTDIR;
    }
    if (e instanceof NotLinkException) {
      return Errno.EINVAL;
    }
    String m = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
    if (m.contains("symbolic link")) {
      return Errno.ELOOP;
    }
    if (m.contains("broken pipe")) {
      return Errno.EPIPE;
    }
    if (m.contains("no space left")) {
      return Errno.ENOSPC;
    }
    if (m.contains("file too large")) {
      return Errno.EFBIG;
    }
    if (m.contains("not empty")) {
      return Errno.ENOTEMPTY;
    }
    if (m.contains("not a directory")) {
      return Errno.ENOTDIR;
    }
    if (m.contains("is a directory")) {
      return Errno.EISDIR;
    }
    if (m.contains("cross-device")) {
      return Errno.EXDEV;
    }
    if (m.contains("name too long")) {
      return Errno.ENAMETOOLONG;
    }
    if (m.contains("operation not permitted")) {
      return Errno.EPERM;
    }
    if (m.contains("permission denied") || m.contains("read-only")) {
      return Errno.EACCES;
    }
    if (m.contains("too many open files")) {
      return Errno.ENFILE;
    }
    return Errno.EIO;
  }
}
