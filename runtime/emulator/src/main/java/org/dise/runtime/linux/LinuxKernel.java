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
import java.util.EnumSet;
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
 * The Linux system calls that statically linked glibc programs make, emulated for one process
 * with one thread. Unknown or denied calls return the proper errno and are reported once on the
 * notice stream (lines start with {@code acf:}), never silently.
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

  private long brkStart;
  private long brk;
  private long mmapNext = Loader.MMAP_TOP;

  public LinuxKernel(Memory mem, Sandbox sandbox, PrintStream notices, String exePath,
      long seed) {
    this.mem = mem;
    this.sandbox = sandbox;
    this.notices = notices;
    this.exePath = exePath;
    this.random = new Random(seed);
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
  public void setStdio(int fd, java.io.InputStream in, java.io.OutputStream out,
      java.nio.file.Path statAs) {
    fds.put(fd, new GuestFd.Stdio(fd, in, out, statAs));
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
    } catch (IOException e) {
      r = -Errno.EIO;
    }
    x[10] = r;
  }

  private long dispatch(Cpu cpu, int nr, long a0, long a1, long a2, long a3, long a4, long a5)
      throws IOException {
    switch (nr) {
      case 93: // exit
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
      case 62: {
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
      case 23: { // dup
        GuestFd f = fds.get((int) a0);
        if (f == null) {
          return -Errno.EBADF;
        }
        int n = lowestFreeFd(0);
        fds.put(n, f);
        return n;
      }
      case 24: { // dup3
        GuestFd f = fds.get((int) a0);
        if (f == null) {
          return -Errno.EBADF;
        }
        if (a0 == a1) {
          return -Errno.EINVAL;
        }
        if (fds.containsKey((int) a1)) {
          close((int) a1);
        }
        fds.put((int) a1, f);
        if ((a2 & O_CLOEXEC) != 0) {
          cloexec.add((int) a1);
        }
        return a1;
      }
      case 59: // pipe2
        return pipe2(a0, (int) a1);
      case 49: { // chdir: the sandbox's working directory is fixed, so only check the target
        Path p = guestPath(AT_FDCWD, a0);
        if (!Files.exists(p)) {
          return -Errno.ENOENT;
        }
        if (!Files.isDirectory(p)) {
          return -Errno.ENOTDIR;
        }
        notice("chdir", "guest called chdir; the emulated working directory stays "
            + sandbox.cwd());
        return p.equals(sandbox.cwd()) ? 0 : -Errno.EACCES;
      }
      case 25: // fcntl
        return fcntl((int) a0, (int) a1, a2);
      case 17: // getcwd
        return getcwd(a0, a1);
      case 35: // unlinkat
        return unlinkat((int) a0, a1, (int) a2);
      case 34: // mkdirat
        return mkdirat((int) a0, a1);
      case 48: // faccessat
        return faccessat((int) a0, a1);
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
        return 1000;
      case 99: // set_robust_list
        return 0;
      case 98: // futex: single thread, nothing to wait for
        return 0;
      case 134: // rt_sigaction
      case 135: // rt_sigprocmask
      case 132: // sigaltstack
        return sigaction(nr, a1, a2, a3);
      case 261:
        return prlimit64((int) a1, a2, a3);
      case 163: // getrlimit (not on riscv64's table, but harmless)
        return prlimit64((int) a0, 0, a1);
      case 278:
        return getrandom(a0, a1);
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
        return 0;
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
      case 178: // gettid
        return 1000;
      case 173: // getppid
        return 999;
      case 174: // getuid
      case 175: // geteuid
      case 176: // getgid
      case 177: // getegid
        return 0;
      case 129: // kill
      case 130: // tkill
      case 131: // tgkill
        return signal(cpu, nr == 131 ? (int) a2 : (int) a1);
      case 293: // rseq: glibc copes with ENOSYS
      case 258: // riscv_hwprobe
        return -Errno.ENOSYS;
      default:
        notice("syscall:" + nr, "guest made unsupported system call " + nr + " ("
            + SyscallNames.name(nr) + "); it returned ENOSYS");
        return -Errno.ENOSYS;
    }
  }

  // ---------------------------------------------------------------- files

  private long read(int fd, long buf, long len) throws IOException {
    GuestFd f = fds.get(fd);
    if (f == null) {
      return -Errno.EBADF;
    }
    byte[] b = new byte[(int) Math.min(len, 1 << 20)];
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
    byte[] b = mem.read(buf, (int) Math.min(len, 1 << 24));
    return f.write(b, b.length);
  }

  private long readv(int fd, long iov, int cnt) throws IOException {
    long total = 0;
    for (int i = 0; i < cnt; i++) {
      long base = mem.read64(iov + 16L * i);
      long len = mem.read64(iov + 16L * i + 8);
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
    // Gather into one host write, as the kernel writes an iovec atomically to a pipe.
    java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
    for (int i = 0; i < cnt; i++) {
      long base = mem.read64(iov + 16L * i);
      long len = mem.read64(iov + 16L * i + 8);
      all.write(mem.read(base, (int) len));
    }
    byte[] b = all.toByteArray();
    return f.write(b, b.length);
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

  private Path guestPath(int dirfd, long pathAddr) {
    String p = mem.readCString(pathAddr, 4096);
    if (!p.startsWith("/") && dirfd != AT_FDCWD) {
      GuestFd d = fds.get(dirfd);
      if (d != null && d.path() != null) {
        return d.path().resolve(p).normalize();
      }
    }
    return sandbox.resolve(p);
  }

  private long openat(int dirfd, long pathAddr, int flags, int mode) throws IOException {
    Path p = guestPath(dirfd, pathAddr);
    int acc = flags & 3;
    boolean wantWrite = acc != 0 || (flags & 0x40) != 0 || (flags & 0x200) != 0;
    if (!(wantWrite ? sandbox.mayWrite(p) : sandbox.mayRead(p))) {
      notice("deny:" + p, "guest was denied " + (wantWrite ? "write" : "read") + " access to "
          + p + " (outside the allowed directories; see --allow-read/--allow-write)");
      return -Errno.EACCES;
    }
    if (Files.isDirectory(p)) {
      if (wantWrite) {
        return -Errno.EISDIR;
      }
      List<String> names = new ArrayList<>();
      names.add(".");
      names.add("..");
      try (Stream<Path> s = Files.list(p)) {
        s.forEach(q -> names.add(q.getFileName().toString()));
      }
      return install(new GuestFd.Dir(p, names));
    }
    if ((flags & 0x10000) != 0) { // O_DIRECTORY on a non-directory
      return Files.exists(p) ? -Errno.ENOTDIR : -Errno.ENOENT;
    }
    EnumSet<StandardOpenOption> opts = EnumSet.noneOf(StandardOpenOption.class);
    if (acc == 0 || acc == 2) {
      opts.add(StandardOpenOption.READ);
    }
    if (acc == 1 || acc == 2) {
      opts.add(StandardOpenOption.WRITE);
    }
    if ((flags & 0x40) != 0) { // O_CREAT
      opts.add(StandardOpenOption.CREATE);
      opts.add(StandardOpenOption.WRITE);
      if ((flags & 0x80) != 0) { // O_EXCL
        opts.add(StandardOpenOption.CREATE_NEW);
      }
    }
    if ((flags & 0x200) != 0) { // O_TRUNC
      opts.add(StandardOpenOption.TRUNCATE_EXISTING);
    }
    try {
      FileChannel ch = FileChannel.open(p, opts);
      int fd = install(new GuestFd.HostFile(ch, p, acc != 1, acc != 0, (flags & 0x400) != 0));
      if ((flags & O_CLOEXEC) != 0) {
        cloexec.add(fd);
      }
      return fd;
    } catch (NoSuchFileException e) {
      return -Errno.ENOENT;
    } catch (java.nio.file.FileAlreadyExistsException e) {
      return -Errno.EEXIST;
    } catch (java.nio.file.AccessDeniedException e) {
      return -Errno.EACCES;
    }
  }

  private int install(GuestFd f) {
    int n = lowestFreeFd(3);
    fds.put(n, f);
    return n;
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

  private long fcntl(int fd, int cmd, long arg) {
    GuestFd f = fds.get(fd);
    if (f == null) {
      return -Errno.EBADF;
    }
    return switch (cmd) {
      case 0, 1030 -> { // F_DUPFD, F_DUPFD_CLOEXEC
        int n = lowestFreeFd((int) arg);
        fds.put(n, f);
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
    byte[] b = (sandbox.cwd().toString() + "\0").getBytes(StandardCharsets.UTF_8);
    if (b.length > size) {
      return -Errno.ERANGE;
    }
    mem.write(buf, b, 0, b.length);
    return b.length;
  }

  private long unlinkat(int dirfd, long pathAddr, int flags) throws IOException {
    Path p = guestPath(dirfd, pathAddr);
    if (!sandbox.mayWrite(p)) {
      notice("deny:" + p, "guest was denied deleting " + p + " (outside the allowed directories)");
      return -Errno.EACCES;
    }
    if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
      return -Errno.ENOENT;
    }
    boolean dir = Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS);
    if (dir != ((flags & 0x200) != 0)) {
      return dir ? -Errno.EISDIR : -Errno.ENOTDIR;
    }
    try {
      Files.delete(p);
    } catch (java.nio.file.DirectoryNotEmptyException e) {
      return -Errno.ENOTEMPTY;
    }
    return 0;
  }

  private long mkdirat(int dirfd, long pathAddr) throws IOException {
    Path p = guestPath(dirfd, pathAddr);
    if (!sandbox.mayWrite(p)) {
      notice("deny:" + p, "guest was denied creating " + p + " (outside the allowed directories)");
      return -Errno.EACCES;
    }
    if (Files.exists(p)) {
      return -Errno.EEXIST;
    }
    Files.createDirectory(p);
    return 0;
  }

  private long faccessat(int dirfd, long pathAddr) {
    Path p = guestPath(dirfd, pathAddr);
    if (!sandbox.mayRead(p)) {
      return -Errno.EACCES;
    }
    return Files.exists(p) ? 0 : -Errno.ENOENT;
  }

  private long getdents64(int fd, long buf, long len) {
    GuestFd f = fds.get(fd);
    if (!(f instanceof GuestFd.Dir d)) {
      return f == null ? -Errno.EBADF : -Errno.ENOTDIR;
    }
    long used = 0;
    while (d.next < d.names.size()) {
      byte[] name = d.names.get(d.next).getBytes(StandardCharsets.UTF_8);
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
    Path p = f.hostStdio() >= 0 ? Path.of("/proc/self/fd/" + f.hostStdio()) : f.path();
    return writeStat(p, statAddr, true);
  }

  private long newfstatat(int dirfd, long pathAddr, long statAddr, int flags) throws IOException {
    String s = mem.readCString(pathAddr, 4096);
    if (s.isEmpty() && (flags & 0x1000) != 0) { // AT_EMPTY_PATH
      return fstat(dirfd, statAddr);
    }
    Path p = guestPath(dirfd, pathAddr);
    if (!sandbox.mayRead(p)) {
      notice("deny:" + p, "guest was denied stat of " + p + " (outside the allowed directories)");
      return -Errno.EACCES;
    }
    return writeStat(p, statAddr, (flags & 0x100) == 0);
  }

  /** Fills a riscv64 (asm-generic) struct stat from the host file. */
  private long writeStat(Path p, long statAddr, boolean follow) throws IOException {
    Map<String, Object> a;
    try {
      a = follow
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

  private long readlinkat(int dirfd, long pathAddr, long buf, long size) {
    String s = mem.readCString(pathAddr, 4096);
    String target;
    if (s.equals("/proc/self/exe")) {
      target = exePath;
    } else {
      Path p = guestPath(dirfd, pathAddr);
      if (!sandbox.mayRead(p)) {
        return -Errno.EACCES;
      }
      try {
        target = Files.readSymbolicLink(p).toString();
      } catch (java.nio.file.NotLinkException e) {
        return -Errno.EINVAL;
      } catch (IOException e) {
        return -Errno.ENOENT;
      }
    }
    byte[] b = target.getBytes(StandardCharsets.UTF_8);
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

  private long brk(long want) {
    if (want == 0 || want < brkStart) {
      return brk;
    }
    long oldTop = (brk + Memory.PAGE_MASK) & ~Memory.PAGE_MASK;
    long newTop = (want + Memory.PAGE_MASK) & ~Memory.PAGE_MASK;
    if (newTop > oldTop) {
      if (!mem.isFree(oldTop, newTop - oldTop) || newTop > mmapNext) {
        return brk;
      }
      mem.map(oldTop, newTop - oldTop, Memory.PROT_READ | Memory.PROT_WRITE);
    } else if (newTop < oldTop) {
      mem.unmap(newTop, oldTop - newTop);
    }
    brk = want;
    return brk;
  }

  private long mmap(long addr, long len, int prot, int flags, int fd, long off)
      throws IOException {
    if (len <= 0) {
      return -Errno.EINVAL;
    }
    long size = (len + Memory.PAGE_MASK) & ~Memory.PAGE_MASK;
    boolean fixed = (flags & 0x10) != 0;
    boolean anonymous = (flags & 0x20) != 0;
    long at;
    if (fixed) {
      if ((addr & Memory.PAGE_MASK) != 0 || addr < Memory.PAGE_SIZE
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
    if (!anonymous) {
      GuestFd f = fds.get(fd);
      if (!(f instanceof GuestFd.HostFile)) {
        mem.unmap(at, size);
        return -Errno.EBADF;
      }
      byte[] content = new byte[(int) len];
      long saved = f.seek(0, 1);
      f.seek(off, 0);
      int got = 0;
      while (got < len) {
        byte[] chunk = new byte[(int) len - got];
        int n = f.read(chunk, chunk.length);
        if (n <= 0) {
          break;
        }
        System.arraycopy(chunk, 0, content, got, n);
        got += n;
      }
      f.seek(saved, 0);
      mem.poke(at, content, 0, got);
    }
    return at;
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
    if ((addr & Memory.PAGE_MASK) != 0 || len <= 0) {
      return -Errno.EINVAL;
    }
    long size = (len + Memory.PAGE_MASK) & ~Memory.PAGE_MASK;
    if (addr + size > Memory.LIMIT) {
      return -Errno.EINVAL;
    }
    mem.unmap(addr, size);
    return 0;
  }

  private long mprotect(long addr, long len, int prot) {
    if ((addr & Memory.PAGE_MASK) != 0) {
      return -Errno.EINVAL;
    }
    long size = (len + Memory.PAGE_MASK) & ~Memory.PAGE_MASK;
    // Memory drops the decoded code of pages that lose execute permission.
    return mem.protect(addr, size, prot & 7) ? 0 : -Errno.ENOMEM;
  }

  // ---------------------------------------------------------------- misc

  private long sigaction(int nr, long set, long old, long size) {
    // No signals are ever delivered; report an empty old mask/action.
    if (old != 0) {
      int n = nr == 135 ? (int) Math.min(size, 128) : nr == 134 ? 32 : 24;
      mem.write(old, new byte[n], 0, n);
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
    if (oldAddr != 0) {
      long cur;
      long max;
      switch (resource) {
        case 3 -> { // RLIMIT_STACK
          cur = Loader.STACK_SIZE;
          max = -1;
        }
        case 7 -> { // RLIMIT_NOFILE
          cur = 1024;
          max = 4096;
        }
        default -> {
          cur = -1;
          max = -1;
        }
      }
      mem.write64(oldAddr, cur);
      mem.write64(oldAddr + 8, max);
    }
    return 0;
  }

  private long getrandom(long buf, long len) {
    byte[] b = new byte[(int) Math.min(len, 1 << 20)];
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

  private long pipe2(long fdsAddr, int flags) {
    GuestFd.PipeEnd.Buffer b = new GuestFd.PipeEnd.Buffer();
    int r = install(new GuestFd.PipeEnd(b, false));
    int w = install(new GuestFd.PipeEnd(b, true));
    if ((flags & O_CLOEXEC) != 0) {
      cloexec.add(r);
      cloexec.add(w);
    }
    mem.write32(fdsAddr, r);
    mem.write32(fdsAddr + 4, w);
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
