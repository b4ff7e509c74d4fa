package org.dise.runtime.io;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Writes that replace a user's file whole or not at all: the bytes go to a temporary file in the
 * same directory, are forced to disk, and the temporary file is renamed over the target. A full
 * disk or a crash leaves the old content intact (and no temporary file behind on failure).
 */
public final class AtomicFiles {
  private AtomicFiles() {}

  public static void write(Path target, byte[] bytes) throws IOException {
    Path abs = target.toAbsolutePath();
    Path dir = abs.getParent();
    if (Files.isDirectory(abs)) {
      throw new IOException(target + " is a directory");
    }
    Path tmp = Files.createTempFile(dir, "." + abs.getFileName() + ".", ".tmp");
    try {
      try (var ch =
          java.nio.channels.FileChannel.open(tmp, java.nio.file.StandardOpenOption.WRITE)) {
        var buf = java.nio.ByteBuffer.wrap(bytes);
        while (buf.hasRemaining()) {
          ch.write(buf);
        }
        ch.force(true);
      }
      keepPermissions(abs, tmp);
      try {
        Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  public static void writeString(Path target, String text) throws IOException {
    write(target, text.getBytes(StandardCharsets.UTF_8));
  }

  /** The replacement keeps the old file's permissions, or gets the usual 0644 for a new file. */
  private static void keepPermissions(Path old, Path tmp) {
    try {
      if (Files.exists(old, LinkOption.NOFOLLOW_LINKS)) {
        Files.setPosixFilePermissions(tmp, Files.getPosixFilePermissions(old));
      } else {
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-r--r--"));
      }
    } catch (IOException | UnsupportedOperationException e) {
      // not a POSIX file system: the default permissions stand
    }
  }
}
