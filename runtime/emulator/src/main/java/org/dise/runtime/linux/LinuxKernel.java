package org.dise.runtime.linux;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.cpu.SyscallHandler;
import org.dise.runtime.mem.Memory;
import org.dise.runtime.mem.MemoryFault;

/**
 * The Linux system calls that statically linked glibc programs make, emulated for one process with
 * one thread. Unknown or denied calls return the proper errno and are reported once on the notice
 * stream (lines start with {@code acf:}), never silently.
 */
public final class LinuxKernel implements SyscallHandler {
  private static final int AT_FDCWD = -100;
  private static final int O_CLOEXEC = 0x80000;

  private final Memory mem;
  private final Sandbox sandbox;
  private final PrintStream notices;
  private final String exePath;
  private final Random random;
  private final Map<Integer, GuestFd> fds = new TreeMap<>();
  private final Set<String> reported = new HashSet<>();
  private final Set<Integer> cloexec = new HashSet<>();

  private GuestLimits limits;

  /** The guest's working directory (a real path); chdir moves it within the sandbox. */
  private Path cwd;

  /** True once the guest set SIGPIPE to SIG_IGN: a write to a broken pipe then gives EPIPE. */
  private boolean sigpipeIgnored;

  /** The hart of the call being handled (to end the process on SIGPIPE). */
  private Cpu cpu;

  /** The process's threads and their scheduler; the main thread's id is the pid. */
  private final GuestThreads threads;

  /** The process id (the main thread's id). */
  private final int pid = 1000;

  private long brkStart;
  private long brk;
  private long mmapNext = Loader.MMAP_TOP;

  public LinuxKernel(Memory mem, Sandbox sandbox, PrintStream notices, String exePath, long seed) {
    this.mem = mem;
    this.sandbox = sandbox;
    this.notices = notices;
    this.exePath = exePath;
    this.random = new Random(seed);
    this.limits = sandbox.limits();
    this.cwd = sandbox.cwd();
    this.threads = new GuestThreads(mem, pid);
    fds.put(0, GuestFd.Stdio.of(0));
    fds.put(1, GuestFd.Stdio.of(1));
    fds.put(2, GuestFd.Stdio.of(2));
  }

  /**
   * Replaces a standard stream (for tests and the REPL). The guest sees it as not a terminal, and
   * fstat describes /dev/null (a character device), as for a program run with {@code </dev/null}.
   */
  public void setStdio(int fd, java.io.InputStream in, java.io.OutputStream out) {
    setStdio(fd, in, out, java.nio.file.Path.of("/dev/null"));
  }

  /** Replaces a standard stream; fstat on it describes the host file {@code statAs}. */
  public void setStdio(
      int fd, java.io.InputStream in, java.io.OutputStream out, java.nio.file.Path statAs) {
    fds.put(fd, new GuestFd.Stdio(fd, in, out, statAs));
  }

  /**
   * Closes every host file the guest still has open (after it ended): a guest that exhausted its
   * descriptors must not keep the tool from writing its profiles.
   */
  public void releaseFiles() {
    for (GuestFd f : new HashSet<>(fds.values())) {
      try {
        f.close();
      } catch (IOException e) {
        // the guest is gone; nothing to report to it
      }
    }
    fds.clear();
    cloexec.clear();
  }

  public void setBrkStart(long start) {
    this.brkStart = start;
    this.brk = start;
  }

  private void notice(String key, String message) {
    if (reported.add(key)) {
      notices.println("acf: " + message);
    }
  }

  @Override
  public void ecall(Cpu cpu) {
    this.cpu = cpu;
    long[] x = cpu.x;
    int nr = (int) x[17];
    long a0 = x[10];
    long a1 = x[11];
    long a2 = x[12];
    long a3 = x[13];
    long a4 = x[14];
    long a5 = x[15];
    long r;
    try {
      r = dispatch(cpu, nr, a0, a1, a2, a3, a4, a5);
    } catch (MemoryFault e) {
      r = -Errno.EFAULT;
    } catch (Refused e) {
      r = -e.errno;
    } catch (IOException e) {
      r = -HostErrors.errno(e);
    }
    x[10] = r;
  }

  private long dispatch(Cpu cpu, int nr, long a0, long a1, long a2, long a3, long a4, long a5)
      throws IOException, Refused {
    switch (nr) {
      case 93: // exit: the calling thread
        threads.exitThread(cpu, (int) a0 & 0xff);
        return 0;
      case 94: // exit_group
        cpu.halt((int) a0 & 0xff);
        return 0;
      case 63:
        return read((int) a0, a1, a2);
      case 64:
        return write((int) a0, a1, a2);
      case 65:
        return readv((int) a0, a1, (int) a2);
      case 66:
        return writev((int) a0, a1, (int) a2);
      case 67: // pread64
      case 68: // pwrite64
        return pio(nr == 68, (int) a0, a1, a2, a3);
      case 56:
        return openat((int) a0, a1, (int) a2, (int) a3);
      case 57:
        return close((int) a0);
      case 62:
        {
          GuestFd f = fds.get((int) a0);
          return f == null ? -Errno.EBADF : f.seek(a1, (int) a2);
        }
      case 80:
        return fstat((int) a0, a1);
      case 79:
        return newfstatat((int) a0, a1, a2, (int) a3);
      case 78:
        return readlinkat((int) a0, a1, a2, a3);
      case 29:
        return ioctl((int) a0, a1, a2);
      case 23:
        { // dup
          GuestFd f = fds.get((int) a0);
          if (f == null) {
            return -Errno.EBADF;
          }
          return install(f);
        }
      case 24: // dup3
        return dup3((int) a0, a1, (int) a2);
      case 46: // ftruncate
        return ftruncate((int) a0, a1);
      case 59: // pipe2
        return pipe2(a0, (int) a1);
      case 49: // chdir
        return chdir(a0);
      case 50: // fchdir
        return fchdir((int) a0);
      case 25: // fcntl
        return fcntl((int) a0, (int) a1, a2);
      case 17: // getcwd
        return getcwd(a0, a1);
      case 35: // unlinkat
        return unlinkat((int) a0, a1, (int) a2);
      case 34: // mkdirat
        return mkdirat((int) a0, a1);
      case 48: // faccessat
        return faccessat((int) a0, a1, (int) a2, 0);
      case 439: // faccessat2
        return faccessat((int) a0, a1, (int) a2, (int) a3);
      case 276: // renameat2
        return renameat2((int) a0, a1, (int) a2, a3, (int) a4);
      case 37: // linkat
        return linkat((int) a0, a1, (int) a2, a3, (int) a4);
      case 36: // symlinkat
        return symlinkat(a0, (int) a1, a2);
      case 61: // getdents64
        return getdents64((int) a0, a1, a2);
      case 214:
        return brk(a0);
      case 222:
        return mmap(a0, a1, (int) a2, (int) a3, (int) a4, a5);
      case 215:
        return munmap(a0, a1);
      case 226:
        return mprotect(a0, a1, (int) a2);
      case 216: // mremap: glibc falls back to mmap+copy on failure
        return -Errno.ENOMEM;
      case 233: // madvise
        return 0;
      case 96: // set_tid_address
        return threads.setTidAddress(a0);
      case 99: // set_robust_list
        return threads.setRobustList(a0, a1);
      case 98: // futex
        {
          long r = threads.futex(cpu, a0, (int) a1, a2, a3, a4, a5);
          return r != Long.MIN_VALUE ? r : unsupported(nr, "futex operation " + (a1 & 127));
        }
      case 220: // clone
        if ((a0 & GuestThreads.CLONE_THREAD) != 0) {
          return threads.cloneThread(cpu, a0, a1, a2, a3, a4);
        }
        return unsupported(nr, "clone without CLONE_THREAD (a new process)");
      case 435: // clone3
        return clone3(cpu, a0, a1);
      case 122: // sched_setaffinity: one core; any mask that names it is fine
        return 0;
      case 123: // sched_getaffinity
        return schedGetaffinity(a1, a2);
      case 168: // getcpu
        if (a0 != 0) {
          mem.write32(a0, 0);
        }
        if (a1 != 0) {
          mem.write32(a1, 0);
        }
        return 0;
      case 283: // membarrier: one core, every barrier already holds
        return membarrier((int) a0);
      case 134: // rt_sigaction
      case 135: // rt_sigprocmask
      case 132: // sigaltstack
        return sigaction(nr, a0, nr == 132 ? 0 : a1, nr == 132 ? a1 : a2, a3);
      case 261:
        return prlimit64((int) a1, a2, a3);
      case 163: // getrlimit (not on riscv64's table, but harmless)
        return prlimit64((int) a0, 0, a1);
      case 278:
        return getrandom(a0, a1, a2);
      case 113: // clock_gettime
        return clockGettime((int) a0, a1);
      case 114: // clock_getres
        if (a1 != 0) {
          mem.write64(a1, 0);
          mem.write64(a1 + 8, 1);
        }
        return 0;
      case 169: // gettimeofday
        return gettimeofday(a0);
      case 101: // nanosleep
        return nanosleep(a0);
      case 115: // clock_nanosleep
        return nanosleep(a2);
      case 124: // sched_yield
        return threads.yield(cpu);
      case 160:
        return uname(a0);
      case 179:
        return sysinfo(a0);
      case 153: // times
        return times(a0, cpu);
      case 165: // getrusage
        if (a1 != 0) {
          mem.write(a1, new byte[144], 0, 144);
        }
        return 0;
      case 166: // umask
        return 022;
      case 172: // getpid
        return pid;
      case 178: // gettid
        return threads.currentTid();
      case 173: // getppid
        return 999;
      case 174: // getuid
      case 175: // geteuid
      case 176: // getgid
      case 177: // getegid
        return 0;
      case 129: // kill
        return signal(cpu, (int) a1);
      case 130: // tkill
      case 131: // tgkill
        {
          int tid = (int) (nr == 131 ? a1 : a0);
          if ((nr == 131 && a0 != pid) || !threads.isLive(tid)) {
            return -Errno.ESRCH;
          }
          return signal(cpu, nr == 131 ? (int) a2 : (int) a1);
        }
      case 293: // rseq: glibc copes with ENOSYS
      case 258: // riscv_hwprobe
        return -Errno.ENOSYS;
      default:
        notice(
            "syscall:" + nr,
            "guest made unsupported system call "
                + nr
                + " ("
                + SyscallNames.name(nr)
                + "); it returned ENOSYS");
        return -Errno.ENOSYS;
    }
  }

  private long unsupported(int nr, String what) {
    notice(
        "syscall:" + nr + ":" + what,
        "guest made unsupported system call "
            + nr
            + " ("
            + SyscallNames.name(nr)
            + ": "
            + what
            + "); it returned ENOSYS");
    return -Errno.ENOSYS;
  }

  // ---------------------------------------------------------------- threads

  /** The process's threads (the scheduler, for the machine and the REPL). */
  public GuestThreads threads() {
    return threads;
  }

  /** clone3: struct clone_args as Linux 5.3 laid it out (the fields after tls are refused). */
  private long clone3(Cpu cpu, long args, long size) {
    if (size < 64) {
      return -Errno.EINVAL;
    }
    long flags = mem.read64(args);
    long pidfd = mem.read64(args + 8);
    long childTid = mem.read64(args + 16);
    long parentTid = mem.read64(args + 24);
    long stack = mem.read64(args + 40);
    long stackSize = mem.read64(args + 48);
    long tls = mem.read64(args + 56);
    if (size >= 80 && (mem.read64(args + 64) != 0 || mem.read64(args + 72) != 0)) {
      return unsupported(435, "clone3 with set_tid");
    }
    if (pidfd != 0 && (flags & 0x1000) != 0) {
      return unsupported(435, "clone3 with CLONE_PIDFD");
    }
    if ((flags & GuestThreads.CLONE_THREAD) == 0) {
      return unsupported(435, "clone3 without CLONE_THREAD (a new process)");
    }
    long sp = stack == 0 ? 0 : stack + stackSize;
    return threads.cloneThread(cpu, flags, sp, parentTid, tls, childTid);
  }

  private long schedGetaffinity(long len, long mask) {
    // Linux copies the kernel's cpumask, a whole number of longs: 8 bytes for one core.
    if (len < 8 || (len & 7) != 0) {
      return -Errno.EINVAL;
    }
    mem.write64(mask, 1);
    return 8;
  }

  private long membarrier(int cmd) {
    int global = 1;
    int privateExpedited = 8;
    int registerPrivateExpedited = 16;
    return switch (cmd) {
      case 0 -> global | privateExpedited | registerPrivateExpedited; // MEMBARRIER_CMD_QUERY
      case 1, 8, 16 -> 0;
      default -> -Errno.EINVAL;
    };
  }

  // ---------------------------------------------------------------- files

  /** Linux's MAX_RW_COUNT: the most one read or write transfers. */
  private static final long MAX_RW_COUNT = 0x7ffff000L;

  /** Linux's UIO_MAXIOV. */
  private static final int UIO_MAXIOV = 1024;

  /** The host buffer one step of a read or write uses, so a huge count costs no huge array. */
  private static final int CHUNK = 1 << 20;

  private long read(int fd, long buf, long len) throws IOException {
    GuestFd f = fds.get(fd);
    if (f == null) {
      return -Errno.EBADF;
    }
    if (len < 0 || buf + len < buf) { // a count above SSIZE_MAX: access_ok fails in Linux
      return -Errno.EFAULT;
    }
    byte[] b = new byte[(int) Math.min(len, CHUNK)];
    int n = f.read(b, b.length);
    if (n > 0) {
      mem.write(buf, b, 0, n);
    }
    return n;
  }

  private long write(int fd, long buf, long len) throws IOException {
    GuestFd f = fds.get(fd);
    if (f == null) {
      return -Errno.EBADF;
    }
    if (len < 0 || buf + len < buf) {
      return -Errno.EFAULT;
    }
    len = Math.min(len, MAX_RW_COUNT);
    long done = 0;
    while (done < len) {
      int step = (int) Math.min(len - done, CHUNK);
      byte[] b;
      try {
        b = mem.read(buf + done, step);
      } catch (MemoryFault e) {
        if (done > 0) {
          return done;
        }
        throw e;
      }
      int n = f.write(b, b.length);
      if (n < 0) {
        return done > 0 ? done : brokenPipe(n);
      }
      done += n;
      if (n < step) {
        break;
      }
    }
    return done;
  }

  /**
   * A write to a pipe nobody reads: Linux sends SIGPIPE, which kills the process (128+13 in the
   * shell, as qemu-riscv64 exits) unless the guest ignores or handles it; then EPIPE.
   */
  private long brokenPipe(long r) {
    if (r == -Errno.EPIPE && !sigpipeIgnored && cpu != null) {
      cpu.halt(128 + 13);
    }
    return r;
  }

  /** The iovec array, checked as Linux's import_iovec does: EINVAL for bad counts or lengths. */
  private long[][] iovecs(long iov, int cnt) {
    if (cnt < 0 || cnt > UIO_MAXIOV) {
      return null;
    }
    long[][] v = new long[cnt][2];
    long total = 0;
    for (int i = 0; i < cnt; i++) {
      v[i][0] = mem.read64(iov + 16L * i);
      v[i][1] = mem.read64(iov + 16L * i + 8);
      if (v[i][1] < 0) {
        return null;
      }
      // Linux truncates the total at MAX_RW_COUNT rather than failing.
      v[i][1] = Math.min(v[i][1], MAX_RW_COUNT - total);
      total += v[i][1];
    }
    return v;
  }

  private long readv(int fd, long iov, int cnt) throws IOException {
    if (!fds.containsKey(fd)) {
      return -Errno.EBADF;
    }
    long[][] v = iovecs(iov, cnt);
    if (v == null) {
      return -Errno.EINVAL;
    }
    long total = 0;
    for (long[] e : v) {
      long base = e[0];
      long len = e[1];
      if (len == 0) {
        continue;
      }
      long n = read(fd, base, len);
      if (n < 0) {
        return total > 0 ? total : n;
      }
      total += n;
      if (n < len) {
        break;
      }
    }
    return total;
  }

  private long writev(int fd, long iov, int cnt) throws IOException {
    GuestFd f = fds.get(fd);
    if (f == null) {
      return -Errno.EBADF;
    }
    long[][] v = iovecs(iov, cnt);
    if (v == null) {
      return -Errno.EINVAL;
    }
    long sum = 0;
    for (long[] e : v) {
      sum += e[1];
    }
    if (sum <= 65536) {
      // Gather small vectors into one host write, as the kernel writes them atomically to a pipe.
      java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
      for (long[] e : v) {
        all.write(mem.read(e[0], (int) e[1]));
      }
      byte[] b = all.toByteArray();
      return b.length == 0 ? 0 : brokenPipe(f.write(b, b.length));
    }
    long total = 0;
    for (long[] e : v) {
      long n = write(fd, e[0], e[1]);
      if (n < 0) {
        return total > 0 ? total : n;
      }
      total += n;
      if (n < e[1]) {
        break;
      }
    }
    return total;
  }

  private long pio(boolean isWrite, int fd, long buf, long len, long off) throws IOException {
    GuestFd f = fds.get(fd);
    if (!(f instanceof GuestFd.HostFile)) {
      return f == null ? -Errno.EBADF : -Errno.ESPIPE;
    }
    long saved = f.seek(0, 1);
    f.seek(off, 0);
    long r = isWrite ? write(fd, buf, len) : read(fd, buf, len);
    f.seek(saved, 0);
    return r;
  }

  /** A system call refused with an errno, thrown from deep inside path handling. */
  private static final class Refused extends Exception {
    final int errno;

    Refused(int errno) {
      super(null, null, false, false);
      this.errno = errno;
    }
  }

  /**
   * Reads a guest path: at most PATH_MAX bytes with its NUL (else ENAMETOOLONG), held without loss
   * as {@link SurrogateEscape} describes, so that it names the host file byte for byte.
   */
  private String pathArg(long addr) throws Refused {
    byte[] b = new byte[PathWalk.PATH_MAX];
    int n = 0;
    while (true) {
      if (n == b.length) {
        throw new Refused(Errno.ENAMETOOLONG);
      }
      byte c = (byte) mem.lb(addr + n);
      if (c == 0) {
        break;
      }
      b[n++] = c;
    }
    return SurrogateEscape.decode(b, 0, n);
  }

  /**
   * Walks a guest path from {@code dirfd} (or the working directory) as the kernel would. A walk
   * that fails outside the readable directories reports EACCES, so that errno values do not tell
   * the guest what exists outside.
   */
  private PathWalk.Result walk(int dirfd, String p, boolean followLast) throws Refused {
    Path start = cwd;
    if (!p.startsWith("/") && dirfd != AT_FDCWD) {
      GuestFd d = fds.get(dirfd);
      if (d == null) {
        throw new Refused(Errno.EBADF);
      }
      if (!(d instanceof GuestFd.Dir dir)) {
        throw new Refused(Errno.ENOTDIR);
      }
      start = dir.path;
    }
    PathWalk.Result r = PathWalk.walk(start, p, followLast);
    if (r.errno() == Errno.EILSEQ) {
      notice(
          "nonlocale",
          "guest used a file name the host's locale cannot hold, and the JDK's"
              + " byte-exact paths are not open to acf (--add-opens java.base/sun.nio.fs=ALL-UNNAMED),"
              + " so the call returned EILSEQ");
    }
    if (!r.ok()) {
      if (r.path() != null && !sandbox.mayRead(r.path())) {
        throw new Refused(Errno.EACCES);
      }
      throw new Refused(r.errno());
    }
    return r;
  }

  private PathWalk.Result walk(int dirfd, long pathAddr, boolean followLast) throws Refused {
    return walk(dirfd, pathArg(pathAddr), followLast);
  }

  /** EACCES with a notice unless the guest may read {@code p}. */
  private void checkRead(Path p, String what) throws Refused {
    if (!sandbox.mayRead(p)) {
      deny(p, what);
    }
  }

  /** EACCES with a notice unless the guest may change {@code p}. */
  private void checkWrite(Path p, String what) throws Refused {
    if (!sandbox.mayWrite(p)) {
      deny(p, what);
    }
  }

  /** Changing a directory entry (create, delete, rename, link) writes its directory. */
  private void checkEntry(Path p, String what) throws Refused {
    Path dir = p.getParent();
    if (dir == null || !sandbox.mayWrite(dir)) {
      deny(p, what);
    }
  }

  private void deny(Path p, String what) throws Refused {
    notice(
        "deny:" + what + ":" + p,
        "guest was denied "
            + what
            + " "
            + p
            + " (outside the allowed directories; see --allow-read/--allow-write)");
    throw new Refused(Errno.EACCES);
  }

  private static final int O_CREAT = 0x40;
  private static final int O_EXCL = 0x80;
  private static final int O_TRUNC = 0x200;
  private static final int O_APPEND = 0x400;
  private static final int O_DIRECTORY = 0x10000;
  private static final int O_NOFOLLOW = 0x20000;
  private static final int AT_SYMLINK_NOFOLLOW = 0x100;
  private static final int AT_REMOVEDIR = 0x200;
  private static final int AT_SYMLINK_FOLLOW = 0x400;
  private static final int AT_EMPTY_PATH = 0x1000;

  private long openat(int dirfd, long pathAddr, int flags, int mode) throws IOException, Refused {
    int acc = flags & 3;
    boolean creat = (flags & O_CREAT) != 0;
    boolean excl = creat && (flags & O_EXCL) != 0;
    boolean trunc = (flags & O_TRUNC) != 0;
    // As the kernel: O_CREAT|O_EXCL and O_NOFOLLOW do not follow a link in the last component.
    PathWalk.Result r = walk(dirfd, pathAddr, !excl && (flags & O_NOFOLLOW) == 0);
    Path p = r.path();
    if (r.exists() && excl) {
      return -Errno.EEXIST;
    }
    if (r.link()) {
      checkRead(p, "access to");
      return -Errno.ELOOP;
    }
    if (!r.exists() && !creat) {
      checkRead(p, "read access to");
      return -Errno.ENOENT;
    }
    if (!r.exists()) {
      checkEntry(p, "creating");
    } else if (acc != 0 || trunc) {
      checkWrite(p, "write access to");
    } else {
      checkRead(p, "read access to");
    }
    if (r.dir()) {
      if (acc != 0 || creat) {
        return -Errno.EISDIR;
      }
      checkFdLimit();
      List<String> names = new ArrayList<>();
      names.add(".");
      names.add("..");
      try (Stream<Path> s = Files.list(p)) {
        s.forEach(q -> names.add(HostNames.guestString(q.getFileName())));
      }
      return install(new GuestFd.Dir(p, names), flags);
    }
    if ((flags & O_DIRECTORY) != 0) {
      return r.exists() ? -Errno.ENOTDIR : -Errno.ENOENT;
    }
    if (r.exists() && !sandbox.unrestricted() && hardLinked(p)) {
      // Another name of this file may lie outside the allowed directories, and no path check
      // can tell: a file with several hard links is refused, like a link that leads out.
      notice(
          "hardlink:" + p,
          "guest was denied access to "
              + p
              + ": it has several hard links,"
              + " and another may lie outside the allowed directories");
      return -Errno.EACCES;
    }
    checkFdLimit();
    Set<java.nio.file.OpenOption> opts = new HashSet<>();
    // The walk resolved every link: a link swapped in since then must not be followed.
    opts.add(LinkOption.NOFOLLOW_LINKS);
    if (acc == 0 || acc == 2) {
      opts.add(StandardOpenOption.READ);
    }
    if (acc == 1 || acc == 2) {
      opts.add(StandardOpenOption.WRITE);
    }
    if (creat) {
      opts.add(excl ? StandardOpenOption.CREATE_NEW : StandardOpenOption.CREATE);
      opts.add(StandardOpenOption.WRITE);
    }
    if (trunc && acc != 0) {
      opts.add(StandardOpenOption.TRUNCATE_EXISTING);
    }
    FileChannel ch = FileChannel.open(p, opts);
    return install(new GuestFd.HostFile(ch, p, acc != 1, acc != 0, (flags & O_APPEND) != 0), flags);
  }

  private static boolean hardLinked(Path p) {
    try {
      Object n = Files.getAttribute(p, "unix:nlink", LinkOption.NOFOLLOW_LINKS);
      return Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) && ((Number) n).intValue() > 1;
    } catch (IOException | UnsupportedOperationException e) {
      return false;
    }
  }

  /** Installs a new descriptor at the lowest free number, as Linux does; EMFILE at the limit. */
  private int install(GuestFd f) throws Refused {
    int n = lowestFreeFd(0);
    if (n >= limits.nofile()) {
      throw new Refused(Errno.EMFILE);
    }
    fds.put(n, f);
    return n;
  }

  private int install(GuestFd f, int flags) throws Refused {
    int n = install(f);
    if ((flags & O_CLOEXEC) != 0) {
      cloexec.add(n);
    }
    return n;
  }

  /** EMFILE before any host resource is taken, when no descriptor number is left. */
  private void checkFdLimit() throws Refused {
    if (lowestFreeFd(0) >= limits.nofile()) {
      throw new Refused(Errno.EMFILE);
    }
  }

  private int lowestFreeFd(int from) {
    int n = from;
    while (fds.containsKey(n)) {
      n++;
    }
    return n;
  }

  private long close(int fd) throws IOException {
    GuestFd f = fds.remove(fd);
    cloexec.remove(fd);
    if (f == null) {
      return -Errno.EBADF;
    }
    if (!fds.containsValue(f)) {
      f.close();
    }
    return 0;
  }

  private long ftruncate(int fd, long length) throws IOException {
    GuestFd f = fds.get(fd);
    if (f == null) {
      return -Errno.EBADF;
    }
    if (length < 0) {
      return -Errno.EINVAL;
    }
    return f instanceof GuestFd.HostFile h ? h.truncate(length) : -Errno.EINVAL;
  }

  private long dup3(int oldfd, long newfd, int flags) throws IOException {
    GuestFd f = fds.get(oldfd);
    if (f == null || newfd < 0 || newfd >= limits.nofile()) {
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
      case 0, 1030 -> { // F_DUPFD, F_DUPFD_CLOEXEC
        if (arg < 0 || arg >= limits.nofile()) {
          yield -Errno.EINVAL;
        }
        int n = lowestFreeFd((int) arg);
        if (n >= limits.nofile()) {
          yield -Errno.EMFILE;
        }
        fds.put(n, f);
        if (cmd == 1030) {
          cloexec.add(n);
        }
        yield n;
      }
      case 1 -> cloexec.contains(fd) ? 1 : 0; // F_GETFD
      case 2 -> { // F_SETFD
        if ((arg & 1) != 0) {
          cloexec.add(fd);
        } else {
          cloexec.remove(fd);
        }
        yield 0;
      }
      case 3 -> f.accessMode(); // F_GETFL
      case 4 -> 0; // F_SETFL
      default -> -Errno.EINVAL;
    };
  }

  private long getcwd(long buf, long size) {
    byte[] name = HostNames.bytes(cwd);
    if (name.length + 1 > size) {
      return -Errno.ERANGE;
    }
    mem.write(buf, name, 0, name.length);
    mem.sb(buf + name.length, 0);
    return name.length + 1;
  }

  private long chdir(long pathAddr) throws Refused {
    PathWalk.Result r = walk(AT_FDCWD, pathAddr, true);
    if (!r.exists()) {
      checkRead(r.path(), "access to");
      return -Errno.ENOENT;
    }
    checkRead(r.path(), "chdir to");
    if (!r.dir()) {
      return -Errno.ENOTDIR;
    }
    cwd = r.path();
    return 0;
  }

  private long fchdir(int fd) throws Refused {
    GuestFd f = fds.get(fd);
    if (f == null) {
      return -Errno.EBADF;
    }
    if (!(f instanceof GuestFd.Dir d)) {
      return -Errno.ENOTDIR;
    }
    checkRead(d.path, "chdir to");
    cwd = d.path;
    return 0;
  }

  private long unlinkat(int dirfd, long pathAddr, int flags) throws IOException, Refused {
    PathWalk.Result r = walk(dirfd, pathAddr, false);
    Path p = r.path();
    if (!r.exists()) {
      checkRead(p, "access to");
      return -Errno.ENOENT;
    }
    checkEntry(p, "deleting");
    if (r.dir() != ((flags & AT_REMOVEDIR) != 0)) {
      return r.dir() ? -Errno.EISDIR : -Errno.ENOTDIR;
    }
    Files.delete(p);
    return 0;
  }

  private long mkdirat(int dirfd, long pathAddr) throws IOException, Refused {
    PathWalk.Result r = walk(dirfd, pathAddr, false);
    if (r.exists()) {
      checkRead(r.path(), "access to");
      return -Errno.EEXIST;
    }
    checkEntry(r.path(), "creating");
    Files.createDirectory(r.path());
    return 0;
  }

  private long renameat2(int olddir, long oldAddr, int newdir, long newAddr, int flags)
      throws IOException, Refused {
    PathWalk.Result from = walk(olddir, oldAddr, false);
    PathWalk.Result to = walk(newdir, newAddr, false);
    if (!from.exists()) {
      checkRead(from.path(), "access to");
      return -Errno.ENOENT;
    }
    checkEntry(from.path(), "renaming");
    checkEntry(to.path(), "renaming to");
    if ((flags & ~1) != 0) { // only RENAME_NOREPLACE
      notice(
          "renameat2:" + flags,
          "guest called renameat2 with flags "
              + flags
              + " (only RENAME_NOREPLACE is supported); it returned EINVAL");
      return -Errno.EINVAL;
    }
    if (to.exists() && (flags & 1) != 0) {
      return -Errno.EEXIST;
    }
    if (to.path().startsWith(from.path()) && !to.path().equals(from.path())) {
      return -Errno.EINVAL; // a directory into itself
    }
    Files.move(from.path(), to.path(), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    return 0;
  }

  private long linkat(int olddir, long oldAddr, int newdir, long newAddr, int flags)
      throws IOException, Refused {
    PathWalk.Result from = walk(olddir, oldAddr, (flags & AT_SYMLINK_FOLLOW) != 0);
    PathWalk.Result to = walk(newdir, newAddr, false);
    if (!from.exists()) {
      checkRead(from.path(), "access to");
      return -Errno.ENOENT;
    }
    // A new name for a file is a way to write it: the file itself must be writable.
    checkWrite(from.path(), "linking");
    checkEntry(to.path(), "creating");
    if (from.dir()) {
      return -Errno.EPERM;
    }
    if (to.exists()) {
      return -Errno.EEXIST;
    }
    Files.createLink(to.path(), from.path());
    return 0;
  }

  private long symlinkat(long targetAddr, int newdir, long linkAddr) throws IOException, Refused {
    String target = pathArg(targetAddr);
    PathWalk.Result at = walk(newdir, linkAddr, false);
    if (at.exists()) {
      checkRead(at.path(), "access to");
      return -Errno.EEXIST;
    }
    checkEntry(at.path(), "creating");
    // The text is not checked: every later use of the link is walked and judged again.
    Path text;
    try {
      text = HostNames.path(target);
    } catch (java.nio.charset.CharacterCodingException e) {
      return -Errno.EILSEQ;
    }
    Files.createSymbolicLink(at.path(), text);
    return 0;
  }

  private long faccessat(int dirfd, long pathAddr, int mode, int flags) throws Refused {
    PathWalk.Result r = walk(dirfd, pathAddr, (flags & AT_SYMLINK_NOFOLLOW) == 0);
    checkRead(r.path(), "access to");
    if (!r.exists()) {
      return -Errno.ENOENT;
    }
    if ((mode & 2) != 0 && !sandbox.mayWrite(r.path())) {
      return -Errno.EACCES;
    }
    return 0;
  }

  private long getdents64(int fd, long buf, long len) {
    GuestFd f = fds.get(fd);
    if (!(f instanceof GuestFd.Dir d)) {
      return f == null ? -Errno.EBADF : -Errno.ENOTDIR;
    }
    long used = 0;
    while (d.next < d.names.size()) {
      byte[] name = SurrogateEscape.encode(d.names.get(d.next));
      int reclen = (19 + name.length + 1 + 7) & ~7;
      if (used + reclen > len) {
        break;
      }
      byte[] rec = new byte[reclen];
      java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(rec).order(java.nio.ByteOrder.LITTLE_ENDIAN);
      b.putLong(0, d.next + 1); // d_ino
      b.putLong(8, d.next + 1); // d_off
      b.putShort(16, (short) reclen);
      rec[18] = 0; // DT_UNKNOWN: callers stat when they need to know
      System.arraycopy(name, 0, rec, 19, name.length);
      mem.write(buf + used, rec, 0, reclen);
      used += reclen;
      d.next++;
    }
    return used;
  }

  private long fstat(int fd, long statAddr) throws IOException {
    GuestFd f = fds.get(fd);
    if (f == null) {
      return -Errno.EBADF;
    }
    if (f instanceof GuestFd.PipeEnd) {
      return writeFifoStat(statAddr);
    }
    Path p = f.hostStdio() >= 0 ? Path.of("/proc/self/fd/" + f.hostStdio()) : f.path();
    if (p == null) { // a stream with no host file behind it: describe it as a pipe
      return writeFifoStat(statAddr);
    }
    return writeStat(p, statAddr, true);
  }

  /** A struct stat for a pipe, as Linux gives one: S_IFIFO, mode 0600, size 0. */
  private long writeFifoStat(long statAddr) {
    byte[] st = new byte[128];
    java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(st).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    b.putLong(0, 0xc); // st_dev of pipefs
    b.putLong(8, 1);
    b.putInt(16, 0010600); // S_IFIFO | 0600
    b.putInt(20, 1);
    b.putInt(56, 4096);
    mem.write(statAddr, st, 0, st.length);
    return 0;
  }

  private long newfstatat(int dirfd, long pathAddr, long statAddr, int flags)
      throws IOException, Refused {
    String s = pathArgOrEmpty(pathAddr, flags);
    if (s.isEmpty() && (flags & AT_EMPTY_PATH) != 0) {
      return fstat(dirfd, statAddr);
    }
    PathWalk.Result r = walk(dirfd, s, (flags & AT_SYMLINK_NOFOLLOW) == 0);
    checkRead(r.path(), "stat of");
    if (!r.exists()) {
      return -Errno.ENOENT;
    }
    return writeStat(r.path(), statAddr, false);
  }

  private String pathArgOrEmpty(long addr, int flags) throws Refused {
    if (addr == 0 && (flags & AT_EMPTY_PATH) != 0) {
      return "";
    }
    return pathArg(addr);
  }

  /** Fills a riscv64 (asm-generic) struct stat from the host file. */
  private long writeStat(Path p, long statAddr, boolean follow) throws IOException {
    Map<String, Object> a;
    try {
      a =
          follow
              ? Files.readAttributes(p, "unix:*")
              : Files.readAttributes(p, "unix:*", LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return -Errno.ENOENT;
    } catch (UnsupportedOperationException | IOException e) {
      return -Errno.EACCES;
    }
    byte[] st = new byte[128];
    java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(st).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    b.putLong(0, ((Number) a.get("dev")).longValue());
    b.putLong(8, ((Number) a.get("ino")).longValue());
    b.putInt(16, ((Number) a.get("mode")).intValue());
    b.putInt(20, ((Number) a.get("nlink")).intValue());
    b.putInt(24, ((Number) a.get("uid")).intValue());
    b.putInt(28, ((Number) a.get("gid")).intValue());
    b.putLong(32, ((Number) a.get("rdev")).longValue());
    long size = ((Number) a.get("size")).longValue();
    b.putLong(48, size);
    b.putInt(56, 4096);
    b.putLong(64, (size + 511) / 512);
    putTime(b, 72, (FileTime) a.get("lastAccessTime"));
    putTime(b, 88, (FileTime) a.get("lastModifiedTime"));
    putTime(b, 104, (FileTime) a.get("ctime"));
    mem.write(statAddr, st, 0, st.length);
    return 0;
  }

  private static void putTime(java.nio.ByteBuffer b, int off, FileTime t) {
    if (t == null) {
      return;
    }
    java.time.Instant i = t.toInstant();
    b.putLong(off, i.getEpochSecond());
    b.putLong(off + 8, i.getNano());
  }

  private long readlinkat(int dirfd, long pathAddr, long buf, long size) throws Refused {
    if ((int) size <= 0 || size > Integer.MAX_VALUE) {
      return -Errno.EINVAL;
    }
    String s = pathArg(pathAddr);
    String target;
    if (s.equals("/proc/self/exe")) {
      target = exePath;
    } else {
      PathWalk.Result r = walk(dirfd, s, false);
      checkRead(r.path(), "reading the link");
      if (!r.exists()) {
        return -Errno.ENOENT;
      }
      if (!r.link()) {
        return -Errno.EINVAL;
      }
      try {
        target = HostNames.guestString(Files.readSymbolicLink(r.path()));
      } catch (IOException e) {
        return -Errno.ENOENT;
      }
    }
    byte[] b = SurrogateEscape.encode(target);
    int n = (int) Math.min(b.length, size);
    mem.write(buf, b, 0, n);
    return n;
  }

  private long ioctl(int fd, long req, long arg) {
    GuestFd f = fds.get(fd);
    if (f == null) {
      return -Errno.EBADF;
    }
    if (req == 0x5401 || req == 0x5413) { // TCGETS, TIOCGWINSZ
      if (!isTerminal(f)) {
        return -Errno.ENOTTY;
      }
      if (req == 0x5413) {
        mem.write(arg, new byte[] {24, 0, 80, 0, 0, 0, 0, 0}, 0, 8);
      } else {
        mem.write(arg, new byte[60], 0, 60);
      }
      return 0;
    }
    return -Errno.ENOTTY;
  }

  private static boolean isTerminal(GuestFd f) {
    if (f.hostStdio() < 0) {
      return false;
    }
    try {
      String link = Files.readSymbolicLink(Path.of("/proc/self/fd/" + f.hostStdio())).toString();
      return link.startsWith("/dev/pts/") || link.startsWith("/dev/tty");
    } catch (IOException | UnsupportedOperationException e) {
      return false;
    }
  }

  // ---------------------------------------------------------------- memory

  /** True if mapping {@code more} bytes would pass the guest's address-space limit. */
  private boolean overLimit(long more) {
    return more > limits.addressSpace() - mem.mappedBytes();
  }

  private long brk(long want) {
    if (want == 0 || want < brkStart || want > Memory.LIMIT) {
      return brk;
    }
    long oldTop = (brk + Memory.PAGE_MASK) & ~Memory.PAGE_MASK;
    long newTop = (want + Memory.PAGE_MASK) & ~Memory.PAGE_MASK;
    if (newTop > oldTop) {
      if (!mem.isFree(oldTop, newTop - oldTop) || newTop > mmapNext || overLimit(newTop - oldTop)) {
        return brk;
      }
      mem.map(oldTop, newTop - oldTop, Memory.PROT_READ | Memory.PROT_WRITE);
    } else if (newTop < oldTop) {
      mem.unmap(newTop, oldTop - newTop);
    }
    brk = want;
    return brk;
  }

  private long mmap(long addr, long len, int prot, int flags, int fd, long off) throws IOException {
    if (len == 0 || (off & Memory.PAGE_MASK) != 0) {
      return -Errno.EINVAL;
    }
    if (len < 0 || len > Memory.LIMIT) {
      return -Errno.ENOMEM;
    }
    long size = (len + Memory.PAGE_MASK) & ~Memory.PAGE_MASK;
    boolean fixed = (flags & 0x10) != 0;
    boolean anonymous = (flags & 0x20) != 0;
    GuestFd f = null;
    if (!anonymous) {
      f = fds.get(fd);
      if (!(f instanceof GuestFd.HostFile)) {
        return f == null ? -Errno.EBADF : -Errno.EACCES;
      }
      if (off < 0) {
        return -Errno.EINVAL;
      }
    }
    if (overLimit(size)) {
      return -Errno.ENOMEM;
    }
    long at;
    if (fixed) {
      if ((addr & Memory.PAGE_MASK) != 0
          || addr < Memory.PAGE_SIZE
          || addr > Memory.LIMIT
          || addr + size > Memory.LIMIT) {
        return -Errno.EINVAL;
      }
      at = addr;
    } else {
      at = findFree(size);
      if (at < 0) {
        return -Errno.ENOMEM;
      }
    }
    mem.map(at, size, prot & 7);
    if (f != null) {
      // Copy the file in steps: a mapping may be far larger than any host array.
      long saved = f.seek(0, 1);
      f.seek(off, 0);
      long got = 0;
      byte[] chunk = new byte[(int) Math.min(len, CHUNK)];
      while (got < len) {
        int n = f.read(chunk, (int) Math.min(chunk.length, len - got));
        if (n <= 0) {
          break;
        }
        if (!allZero(chunk, n)) { // fresh pages read as zero: a sparse file costs no memory
          mem.poke(at + got, chunk, 0, n);
        }
        got += n;
      }
      f.seek(saved, 0);
    }
    return at;
  }

  private static boolean allZero(byte[] b, int n) {
    for (int i = 0; i < n; i++) {
      if (b[i] != 0) {
        return false;
      }
    }
    return true;
  }

  private long findFree(long size) {
    long a = (mmapNext - size) & ~Memory.PAGE_MASK;
    while (a > brk + (64L << 20) || a > brkStart) {
      if (mem.isFree(a, size)) {
        mmapNext = Math.min(mmapNext, a);
        return a;
      }
      a -= Memory.PAGE_SIZE;
      if (a < brkStart) {
        break;
      }
    }
    // Fall back to a full top-down scan (after munmap freed holes).
    for (long b = (Loader.MMAP_TOP - size) & ~Memory.PAGE_MASK; b > brk; b -= Memory.PAGE_SIZE) {
      if (mem.isFree(b, size)) {
        return b;
      }
    }
    return -1;
  }

  private long munmap(long addr, long len) {
    if ((addr & Memory.PAGE_MASK) != 0 || len <= 0 || len > Memory.LIMIT) {
      return -Errno.EINVAL;
    }
    long size = (len + Memory.PAGE_MASK) & ~Memory.PAGE_MASK;
    if (addr < 0 || addr + size > Memory.LIMIT) {
      return -Errno.EINVAL;
    }
    mem.unmap(addr, size);
    return 0;
  }

  private long mprotect(long addr, long len, int prot) {
    if ((addr & Memory.PAGE_MASK) != 0 || (prot & ~7) != 0) {
      return -Errno.EINVAL;
    }
    if (len < 0 || addr < 0 || addr > Memory.LIMIT || len > Memory.LIMIT - addr) {
      return -Errno.ENOMEM; // beyond the address space: no mapping there, as Linux answers
    }
    long size = (len + Memory.PAGE_MASK) & ~Memory.PAGE_MASK;
    // Memory drops the decoded code of pages that lose execute permission.
    return mem.protect(addr, size, prot & 7) ? 0 : -Errno.ENOMEM;
  }

  // ---------------------------------------------------------------- misc

  private long sigaction(int nr, long sig, long set, long old, long size) {
    if (nr == 132) { // sigaltstack(ss, old_ss): report no alternate stack (SS_DISABLE)
      if (old != 0) {
        byte[] ss = new byte[24];
        ss[8] = 4;
        mem.write(old, ss, 0, ss.length);
      }
      return 0;
    }
    if (size != 8) { // the kernel's sigset_t is 8 bytes; anything else is EINVAL
      return -Errno.EINVAL;
    }
    if (nr == 134) {
      if (sig < 1 || sig > 64 || ((sig == 9 || sig == 19) && set != 0)) {
        return -Errno.EINVAL;
      }
      long handler = set != 0 ? mem.read64(set) : -1;
      if (old != 0) {
        byte[] b = new byte[32];
        if (sig == 13 && sigpipeIgnored) {
          b[0] = 1;
        }
        mem.write(old, b, 0, b.length);
      }
      if (sig == 13 && set != 0) {
        // No signal is delivered: an ignored or handled SIGPIPE makes a broken pipe EPIPE.
        sigpipeIgnored = handler != 0;
      }
      return 0;
    }
    // rt_sigprocmask: no signals are ever delivered; report an empty old mask.
    if (old != 0) {
      mem.write(old, new byte[8], 0, 8);
    }
    return 0;
  }

  private long signal(Cpu cpu, int sig) {
    if (sig == 0) {
      return 0;
    }
    // abort() and raise(): the process dies of the signal, as 128 + signal in the shell.
    notices.println("acf: guest killed itself with signal " + sig);
    cpu.halt(128 + sig);
    return 0;
  }

  private long prlimit64(int resource, long newAddr, long oldAddr) {
    if (resource < 0 || resource > 15) {
      return -Errno.EINVAL;
    }
    if (oldAddr != 0) {
      long cur;
      long max;
      switch (resource) {
        case 3 -> { // RLIMIT_STACK
          cur = Loader.STACK_SIZE;
          max = -1;
        }
        case 7 -> { // RLIMIT_NOFILE
          cur = limits.nofile();
          max = limits.nofile();
        }
        case 9 -> { // RLIMIT_AS
          cur = limits.addressSpace();
          max = limits.addressSpace();
        }
        default -> {
          cur = -1;
          max = -1;
        }
      }
      mem.write64(oldAddr, cur);
      mem.write64(oldAddr + 8, max);
    }
    if (newAddr != 0) {
      long cur = mem.read64(newAddr);
      long max = mem.read64(newAddr + 8);
      if (Long.compareUnsigned(cur, max) > 0) {
        return -Errno.EINVAL;
      }
      // The limits are the tool's to set (--limit): raising one is refused as for a user
      // without CAP_SYS_RESOURCE; lowering one takes effect.
      if ((resource == 7 && Long.compareUnsigned(max, limits.nofile()) > 0)
          || (resource == 9 && Long.compareUnsigned(max, limits.addressSpace()) > 0)) {
        return -Errno.EPERM;
      }
      if (resource == 7 && cur >= 3) {
        limits = new GuestLimits((int) cur, limits.addressSpace());
      } else if (resource == 9 && cur >= GuestLimits.MIN_AS) {
        limits = new GuestLimits(limits.nofile(), cur);
      }
    }
    return 0;
  }

  private long getrandom(long buf, long len, long flags) {
    if ((flags & ~7L) != 0) {
      return -Errno.EINVAL;
    }
    if (len < 0) { // as qemu-riscv64: a count beyond the address space is EFAULT, nothing written
      return -Errno.EFAULT;
    }
    byte[] b = new byte[(int) Math.min(len, CHUNK)];
    random.nextBytes(b);
    mem.write(buf, b, 0, b.length);
    return b.length;
  }

  private long nanosleep(long ts) {
    if (ts == 0) {
      return -Errno.EFAULT;
    }
    long sec = mem.read64(ts);
    long nsec = mem.read64(ts + 8);
    if (sec < 0 || nsec < 0 || nsec >= 1_000_000_000L) {
      return -Errno.EINVAL;
    }
    try {
      Thread.sleep(Math.min(sec, 3600) * 1000 + nsec / 1_000_000, (int) (nsec % 1_000_000));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -Errno.EINTR;
    }
    return 0;
  }

  private long pipe2(long fdsAddr, int flags) throws Refused {
    GuestFd.PipeEnd.Buffer b = new GuestFd.PipeEnd.Buffer();
    int r = install(new GuestFd.PipeEnd(b, false), flags);
    int w;
    try {
      w = install(new GuestFd.PipeEnd(b, true), flags);
    } catch (Refused e) {
      fds.remove(r);
      cloexec.remove(r);
      throw e;
    }
    try {
      mem.write32(fdsAddr, r);
      mem.write32(fdsAddr + 4, w);
    } catch (MemoryFault e) {
      fds.remove(r);
      fds.remove(w);
      cloexec.remove(r);
      cloexec.remove(w);
      throw e;
    }
    return 0;
  }

  private long clockGettime(int clock, long ts) {
    long nanos;
    if (clock < 0 || clock > 11 || clock == 10) {
      return -Errno.EINVAL;
    }
    if (clock == 0 || clock == 5 || clock == 8 || clock == 11) { // REALTIME(_COARSE/_ALARM), TAI
      java.time.Instant now = java.time.Instant.now();
      mem.write64(ts, now.getEpochSecond());
      mem.write64(ts + 8, now.getNano());
      return 0;
    }
    nanos = System.nanoTime();
    mem.write64(ts, nanos / 1_000_000_000L);
    mem.write64(ts + 8, nanos % 1_000_000_000L);
    return 0;
  }

  private long gettimeofday(long tv) {
    if (tv != 0) {
      java.time.Instant now = java.time.Instant.now();
      mem.write64(tv, now.getEpochSecond());
      mem.write64(tv + 8, now.getNano() / 1000);
    }
    return 0;
  }

  private long times(long buf, Cpu cpu) {
    long ticks = cpu.instret() / 10_000_000L; // 100 Hz at a nominal 1 GHz
    if (buf != 0) {
      mem.write64(buf, ticks);
      mem.write64(buf + 8, 0);
      mem.write64(buf + 16, 0);
      mem.write64(buf + 24, 0);
    }
    return ticks;
  }

  private long uname(long buf) {
    String[] fields = {"Linux", "acf", "6.1.0", "#1 SMP acf emulator", "riscv64", "(none)"};
    byte[] b = new byte[65 * 6];
    for (int i = 0; i < fields.length; i++) {
      byte[] s = fields[i].getBytes(StandardCharsets.UTF_8);
      System.arraycopy(s, 0, b, 65 * i, s.length);
    }
    mem.write(buf, b, 0, b.length);
    return 0;
  }

  private long sysinfo(long buf) {
    byte[] b = new byte[112];
    java.nio.ByteBuffer bb = java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    bb.putLong(0, 1000); // uptime
    bb.putLong(32, 4L << 30); // totalram
    bb.putLong(40, 2L << 30); // freeram
    bb.putShort(80, (short) 1); // procs
    bb.putInt(104, 1); // mem_unit
    mem.write(buf, b, 0, b.length);
    return 0;
  }
}
