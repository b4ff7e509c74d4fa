package org.dise.runtime.linux;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.List;

/** An open file description of the guest. */
public abstract class GuestFd {
  /**
   * The descriptor tables (processes) that hold this open file: a forked child shares its parent's
   * open files, and the host file is closed only when the last table lets it go.
   */
  int tables = 1;

  /** Lets this table's last reference go: closes the file when no other table holds it. */
  final void release() throws IOException {
    if (tables > 1) {
      tables--;
    } else {
      close();
    }
  }

  /** Reads up to len bytes; returns the count, 0 at end of file, or -errno. */
  abstract int read(byte[] buf, int len) throws IOException;

  /** Writes len bytes; returns the count or -errno. */
  abstract int write(byte[] buf, int len) throws IOException;

  /** lseek; returns the new offset or -errno. */
  long seek(long offset, int whence) throws IOException {
    return -Errno.ESPIPE;
  }

  void close() throws IOException {}

  /** O_RDONLY (0), O_WRONLY (1) or O_RDWR (2), for F_GETFL. */
  int accessMode() {
    return 0;
  }

  /**
   * fsync ({@code metadata}) or fdatasync: what the file wrote reaches the host's storage. EINVAL
   * for what cannot be synced (a pipe, a stream), as Linux answers for a pipe or a socket.
   */
  long sync(boolean metadata) throws IOException {
    return -Errno.EINVAL;
  }

  /** The host path for fstat, or null for a stream. */
  Path path() {
    return null;
  }

  /** The host descriptor number whose kind fstat should report (0-2), or -1. */
  int hostStdio() {
    return -1;
  }

  /**
   * Called before the guest writes to the host's own stdout or stderr, so that a progress line on
   * the terminal can be erased first (null: nothing to do).
   */
  public static volatile Runnable beforeHostWrite;

  /** A host stdin/stdout/stderr stream, passed through unbuffered. */
  static final class Stdio extends GuestFd {
    private final int which;
    private final InputStream in;
    private final OutputStream out;

    /** For a redirected stream, the host file fstat describes; null for the host's own. */
    private final Path statAs;

    Stdio(int which, InputStream in, OutputStream out, Path statAs) {
      this.which = which;
      this.in = in;
      this.out = out;
      this.statAs = statAs;
    }

    static Stdio of(int which) {
      return switch (which) {
        case 0 -> new Stdio(0, new FileInputStream(FileDescriptor.in), null, null);
        case 1 -> new Stdio(1, null, new FileOutputStream(FileDescriptor.out), null);
        default -> new Stdio(2, null, new FileOutputStream(FileDescriptor.err), null);
      };
    }

    @Override
    Path path() {
      return statAs;
    }

    @Override
    int read(byte[] buf, int len) throws IOException {
      if (in == null) {
        return -Errno.EBADF;
      }
      int n = in.read(buf, 0, len);
      return Math.max(n, 0);
    }

    @Override
    int write(byte[] buf, int len) throws IOException {
      if (out == null) {
        return -Errno.EBADF;
      }
      Runnable hook = beforeHostWrite;
      if (hook != null && statAs == null) {
        hook.run();
      }
      try {
        out.write(buf, 0, len);
        out.flush();
      } catch (IOException e) {
        return -HostErrors.errno(e); // EPIPE when the reader went away (`acf run p | head`)
      }
      return len;
    }

    /**
     * lseek on a standard stream: works where the host stream is seekable (a file, /dev/null),
     * ESPIPE on a pipe or terminal, as for the host's own descriptor.
     */
    @Override
    long seek(long offset, int whence) {
      FileChannel ch =
          in instanceof FileInputStream f
              ? f.getChannel()
              : out instanceof FileOutputStream f ? f.getChannel() : null;
      if (ch == null) {
        return "/dev/null".equals(String.valueOf(statAs)) ? 0 : -Errno.ESPIPE;
      }
      try {
        return seek(ch, offset, whence);
      } catch (IOException e) {
        return -Errno.ESPIPE;
      }
    }

    @Override
    int hostStdio() {
      // A redirected stream is not the host's descriptor: its kind (tty, pipe) says nothing.
      return statAs == null ? which : -1;
    }

    @Override
    int accessMode() {
      return in != null ? 0 : 1;
    }
  }

  /**
   * lseek on a channel: the new position from SEEK_SET (0), SEEK_CUR (1) or SEEK_END (2), or
   * -EINVAL for another whence or a negative result.
   */
  static long seek(FileChannel ch, long offset, int whence) throws IOException {
    long base =
        switch (whence) {
          case 0 -> 0;
          case 1 -> ch.position();
          case 2 -> ch.size();
          default -> -1;
        };
    if (base < 0 || base + offset < 0) {
      return -Errno.EINVAL;
    }
    ch.position(base + offset);
    return base + offset;
  }

  /** A regular host file. */
  static final class HostFile extends GuestFd {
    private final FileChannel ch;
    private final Path path;
    private final boolean append;
    private final boolean readable;
    private final boolean writable;

    HostFile(FileChannel ch, Path path, boolean readable, boolean writable, boolean append) {
      this.ch = ch;
      this.path = path;
      this.readable = readable;
      this.writable = writable;
      this.append = append;
    }

    @Override
    long sync(boolean metadata) throws IOException {
      ch.force(metadata);
      return 0;
    }

    @Override
    int read(byte[] buf, int len) throws IOException {
      if (!readable) {
        return -Errno.EBADF;
      }
      int n = ch.read(ByteBuffer.wrap(buf, 0, len));
      return Math.max(n, 0);
    }

    @Override
    int write(byte[] buf, int len) throws IOException {
      if (!writable) {
        return -Errno.EBADF;
      }
      if (append) {
        ch.position(ch.size());
      }
      ByteBuffer b = ByteBuffer.wrap(buf, 0, len);
      while (b.hasRemaining()) {
        ch.write(b);
      }
      return len;
    }

    /** ftruncate: shrinks, or grows the file with zeros (sparse where the host allows). */
    int truncate(long length) throws IOException {
      if (!writable) {
        return -Errno.EINVAL;
      }
      long size = ch.size();
      if (length < size) {
        ch.truncate(length);
      } else if (length > size) {
        ch.write(ByteBuffer.wrap(new byte[1]), length - 1);
      }
      return 0;
    }

    @Override
    long seek(long offset, int whence) throws IOException {
      return seek(ch, offset, whence);
    }

    @Override
    void close() throws IOException {
      ch.close();
    }

    @Override
    Path path() {
      return path;
    }

    @Override
    int accessMode() {
      return readable && writable ? 2 : writable ? 1 : 0;
    }
  }

  /** A directory opened for getdents64. */
  static final class Dir extends GuestFd {
    final Path path;
    final List<String> names;
    int next;

    Dir(Path path, List<String> names) {
      this.path = path;
      this.names = names;
    }

    @Override
    int read(byte[] buf, int len) {
      return -Errno.EISDIR;
    }

    @Override
    int write(byte[] buf, int len) {
      return -Errno.EBADF;
    }

    @Override
    Path path() {
      return path;
    }
  }

  /**
   * One end of a pipe made by pipe2; both ends share a buffer of Linux's default capacity (64 KiB).
   * Reading an empty pipe or writing a full one gives EAGAIN here; the read and write calls then
   * block the calling thread until {@link #ready} (unless the pipe is O_NONBLOCK), so that another
   * thread or process can fill or drain it.
   */
  static final class PipeEnd extends GuestFd {
    static final int CAPACITY = 65536;

    static final class Buffer {
      final byte[] ring = new byte[CAPACITY];
      int head;
      int count;
      int writers = 1;
      int readers = 1;
    }

    final Buffer buffer;
    final boolean writeEnd;

    /** Made with O_NONBLOCK: EAGAIN reaches the guest instead of blocking it. */
    boolean nonBlocking;

    /**
     * True when a write of {@code len} bytes fits whole (at most a pipe's capacity is asked for at
     * once), or nobody reads any more (the write then fails with EPIPE).
     */
    boolean fits(long len) {
      Buffer b = buffer;
      return !writeEnd || b.readers == 0 || CAPACITY - b.count >= Math.min(len, CAPACITY);
    }

    /** True when a read (or, on the write end, a write) would not give EAGAIN. */
    boolean ready() {
      Buffer b = buffer;
      return writeEnd ? b.count < CAPACITY || b.readers == 0 : b.count > 0 || b.writers == 0;
    }

    PipeEnd(Buffer buffer, boolean writeEnd) {
      this.buffer = buffer;
      this.writeEnd = writeEnd;
    }

    @Override
    int read(byte[] buf, int len) {
      if (writeEnd) {
        return -Errno.EBADF;
      }
      Buffer b = buffer;
      if (b.count == 0) {
        return b.writers > 0 ? -Errno.EAGAIN : 0;
      }
      int n = Math.min(len, b.count);
      for (int i = 0; i < n; i++) {
        buf[i] = b.ring[(b.head + i) % CAPACITY];
      }
      b.head = (b.head + n) % CAPACITY;
      b.count -= n;
      return n;
    }

    @Override
    int write(byte[] buf, int len) {
      if (!writeEnd) {
        return -Errno.EBADF;
      }
      Buffer b = buffer;
      if (b.readers == 0) {
        return -Errno.EPIPE;
      }
      int n = Math.min(len, CAPACITY - b.count);
      if (n == 0) {
        return -Errno.EAGAIN;
      }
      for (int i = 0; i < n; i++) {
        b.ring[(b.head + b.count + i) % CAPACITY] = buf[i];
      }
      b.count += n;
      return n;
    }

    @Override
    void close() {
      if (writeEnd) {
        buffer.writers--;
      } else {
        buffer.readers--;
      }
    }

    @Override
    int accessMode() {
      return writeEnd ? 1 : 0;
    }
  }
}
