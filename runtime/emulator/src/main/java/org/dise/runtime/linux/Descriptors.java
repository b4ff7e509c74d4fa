package org.dise.runtime.linux;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.mem.MemoryFault;

/**
 * The guest's descriptor table: numbers to open files, the close-on-exec set, and the calls that
 * work on descriptors alone (dup, dup3, close, fcntl). Numbers are allocated lowest-first as Linux
 * does, up to the guest's RLIMIT_NOFILE.
 */
final class Descriptors extends SyscallGroup {
  static final int O_CLOEXEC = 0x80000;

  private static final int F_DUPFD = 0;
  private static final int F_GETFD = 1;
  private static final int F_SETFD = 2;
  private static final int F_GETFL = 3;
  private static final int F_SETFL = 4;
  private static final int F_DUPFD_CLOEXEC = 1030;
  // POSIX record locks and open-file-description locks (asm-generic/fcntl.h).
  private static final int F_GETLK = 5;
  private static final int F_SETLK = 6;
  private static final int F_SETLKW = 7;
  private static final int F_OFD_GETLK = 36;
  private static final int F_OFD_SETLK = 37;
  private static final int F_OFD_SETLKW = 38;
  private static final int F_RDLCK = 0;
  private static final int F_WRLCK = 1;
  private static final int F_UNLCK = 2;

  private final Map<Integer, GuestFd> fds = new TreeMap<>();
  private final Set<Integer> cloexec = new HashSet<>();

  Descriptors(GuestProcess proc) {
    super(proc);
    fds.put(0, GuestFd.Stdio.of(0));
    fds.put(1, GuestFd.Stdio.of(1));
    fds.put(2, GuestFd.Stdio.of(2));
  }

  @Override
  void register(SyscallTable t) {
    t.implement(this, Syscall.DUP, Syscall.DUP3, Syscall.CLOSE);
    t.partial(
        Syscall.FCNTL,
        "F_DUPFD, F_DUPFD_CLOEXEC, F_GETFD, F_SETFD, F_GETFL; record and OFD locks (F_GETLK,"
            + " F_SETLK, F_SETLKW, F_OFD_*) are always granted, as to a lone process, and not"
            + " checked between guest processes; F_SETFL is accepted and ignored; the other"
            + " commands are EINVAL",
        this);
  }

  @Override
  public long call(Syscall which, Cpu cpu, long[] a) throws IOException, Refused {
    switch (which) {
      case DUP -> {
        GuestFd f = get((int) a[0]);
        return f == null ? -Errno.EBADF : install(f);
      }
      case DUP3 -> {
        return dup3((int) a[0], a[1], (int) a[2]);
      }
      case CLOSE -> {
        return close((int) a[0]);
      }
      case FCNTL -> {
        return fcntl((int) a[0], (int) a[1], a[2]);
      }
      default -> throw notMine(which);
    }
  }

  GuestFd get(int fd) {
    return fds.get(fd);
  }

  boolean isOpen(int fd) {
    return fds.containsKey(fd);
  }

  void setStdio(int fd, InputStream in, OutputStream out, Path statAs) {
    fds.put(fd, new GuestFd.Stdio(fd, in, out, statAs));
  }

  /** Closes every host file the guest still has open. */
  void releaseAll() {
    for (GuestFd f : new HashSet<>(fds.values())) {
      try {
        f.release();
      } catch (IOException e) {
        // the guest is gone; nothing to report to it
      }
    }
    fds.clear();
    cloexec.clear();
  }

  /** Installs a new descriptor at the lowest free number, as Linux does; EMFILE at the limit. */
  int install(GuestFd f) throws Refused {
    int n = lowestFree(0);
    if (n >= proc.limits.nofile()) {
      throw new Refused(Errno.EMFILE);
    }
    fds.put(n, f);
    return n;
  }

  int install(GuestFd f, int flags) throws Refused {
    int n = install(f);
    if ((flags & O_CLOEXEC) != 0) {
      cloexec.add(n);
    }
    return n;
  }

  /** Takes back a descriptor just installed, when the call that made it fails after all. */
  void forget(int fd) {
    fds.remove(fd);
    cloexec.remove(fd);
  }

  /** EMFILE before any host resource is taken, when no descriptor number is left. */
  void checkLimit() throws Refused {
    if (lowestFree(0) >= proc.limits.nofile()) {
      throw new Refused(Errno.EMFILE);
    }
  }

  private int lowestFree(int from) {
    int n = from;
    while (fds.containsKey(n)) {
      n++;
    }
    return n;
  }

  long close(int fd) throws IOException {
    GuestFd f = fds.remove(fd);
    cloexec.remove(fd);
    if (f == null) {
      return -Errno.EBADF;
    }
    if (!fds.containsValue(f)) {
      f.release();
    }
    return 0;
  }

  /** A forked child's table: the same numbers for the same open files, close-on-exec kept. */
  void copyInto(Descriptors child) {
    child.fds.clear();
    child.fds.putAll(fds);
    child.cloexec.clear();
    child.cloexec.addAll(cloexec);
    for (GuestFd f : new HashSet<>(fds.values())) {
      f.tables++;
    }
  }

  /** execve: the descriptors marked close-on-exec are closed. */
  void closeOnExec() throws IOException {
    for (int fd : new java.util.ArrayList<>(cloexec)) {
      close(fd);
    }
  }

  private long dup3(int oldfd, long newfd, int flags) throws IOException {
    GuestFd f = fds.get(oldfd);
    if (f == null || newfd < 0 || newfd >= proc.limits.nofile()) {
      return -Errno.EBADF;
    }
    if (oldfd == newfd || (flags & ~O_CLOEXEC) != 0) {
      return -Errno.EINVAL;
    }
    int n = (int) newfd;
    if (fds.containsKey(n)) {
      close(n);
    }
    fds.put(n, f);
    if ((flags & O_CLOEXEC) != 0) {
      cloexec.add(n);
    }
    return n;
  }

  private long fcntl(int fd, int cmd, long arg) {
    GuestFd f = fds.get(fd);
    if (f == null) {
      return -Errno.EBADF;
    }
    return switch (cmd) {
      case F_DUPFD, F_DUPFD_CLOEXEC -> {
        if (arg < 0 || arg >= proc.limits.nofile()) {
          yield -Errno.EINVAL;
        }
        int n = lowestFree((int) arg);
        if (n >= proc.limits.nofile()) {
          yield -Errno.EMFILE;
        }
        fds.put(n, f);
        if (cmd == F_DUPFD_CLOEXEC) {
          cloexec.add(n);
        }
        yield n;
      }
      case F_GETFD -> cloexec.contains(fd) ? 1 : 0;
      case F_SETFD -> {
        if ((arg & 1) != 0) {
          cloexec.add(fd);
        } else {
          cloexec.remove(fd);
        }
        yield 0;
      }
      case F_GETFL -> f.accessMode();
      case F_SETFL -> 0;
      case F_GETLK, F_SETLK, F_SETLKW, F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW -> lock(f, cmd, arg);
      default -> -Errno.EINVAL;
    };
  }

  /**
   * A record lock: the guest is the only process that can hold one (a child of fork runs after its
   * parent waits, or is not checked against it), so every lock is granted and F_GETLK answers
   * F_UNLCK, as Linux answers a process about its own locks. SQLite locks every database it opens.
   * The checks Linux makes are kept: the lock type, and a read or write lock on a descriptor open
   * for reading or writing.
   */
  private long lock(GuestFd f, int cmd, long flock) {
    int type;
    try {
      type = (short) proc.mem.lh(flock); // struct flock: short l_type first
      if (type != F_RDLCK && type != F_WRLCK && type != F_UNLCK) {
        return -Errno.EINVAL;
      }
      if (cmd == F_GETLK || cmd == F_OFD_GETLK) {
        proc.mem.sh(flock, F_UNLCK);
        return 0;
      }
    } catch (MemoryFault e) {
      return -Errno.EFAULT;
    }
    int mode = f.accessMode() & 3;
    if ((type == F_RDLCK && mode == 1) || (type == F_WRLCK && mode == 0)) {
      return -Errno.EBADF;
    }
    return 0;
  }
}
