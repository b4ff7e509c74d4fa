package org.dise.runtime.linux;

import java.io.IOException;
import java.nio.channels.FileChannel;
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
import java.util.Set;
import java.util.stream.Stream;
import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.mem.MemoryFault;

/**
 * The file system calls: reading and writing descriptors, opening, stat, directories, links, pipes
 * and the working directory. Every path is walked as the kernel would and judged by the {@link
 * Sandbox}; a refusal outside the allowed directories is EACCES with a notice.
 */
final class FileCalls extends SyscallGroup {
  static final int AT_FDCWD = -100;

  private final Sandbox sandbox;
  private final Descriptors fds;
  private final SignalCalls signals;

  /** The guest's working directory (a real path); chdir moves it within the sandbox. */
  private Path cwd;

  /** The process's shared file mappings, kept coherent with its reads and writes. */
  private MemoryCalls mappings;

  void setMappings(MemoryCalls m) {
    this.mappings = m;
  }

  /** Before a read or write of {@code f}: shared mappings' stores reach the file. */
  private void beforeAccess(GuestFd f) throws IOException {
    if (mappings != null && f instanceof GuestFd.HostFile) {
      mappings.beforeFileAccess(f.path());
    }
  }

  /** After a write to {@code f}: shared mappings of it see the new bytes. */
  private void afterWrite(GuestFd f) throws IOException {
    if (mappings != null && f instanceof GuestFd.HostFile) {
      mappings.afterFileWrite(f.path());
    }
  }

  FileCalls(GuestProcess proc, Sandbox sandbox, Descriptors fds, SignalCalls signals) {
    super(proc);
    this.sandbox = sandbox;
    this.fds = fds;
    this.signals = signals;
    this.cwd = sandbox.cwd();
  }

  @Override
  void register(SyscallTable t) {
    t.implement(
        this,
        Syscall.READ,
        Syscall.WRITE,
        Syscall.READV,
        Syscall.WRITEV,
        Syscall.PREAD64,
        Syscall.PWRITE64);
    t.partial(
        Syscall.OPENAT,
        "the mode is not applied to created files (they get the host's default)",
        this);
    t.implement(this, Syscall.LSEEK, Syscall.FSTAT, Syscall.NEWFSTATAT, Syscall.READLINKAT);
    t.partial(
        Syscall.IOCTL,
        "TCGETS and TIOCGWINSZ (a terminal of 80x24); every other request is ENOTTY",
        this);
    t.implement(this, Syscall.FTRUNCATE, Syscall.FSYNC, Syscall.FDATASYNC);
    t.partial(
        Syscall.FCHOWN,
        "a call that leaves the owner and group as they are succeeds; a change is EPERM (acf does"
            + " not change the owners of host files)",
        this);
    t.implement(
        this, Syscall.PIPE2, Syscall.CHDIR, Syscall.FCHDIR, Syscall.GETCWD, Syscall.UNLINKAT);
    t.partial(Syscall.MKDIRAT, "the mode is not applied (the host's default)", this);
    t.partial(
        Syscall.FACCESSAT,
        "answers from the sandbox: writable where --allow-write allows, not from the file's mode",
        this);
    t.partial(Syscall.FACCESSAT2, "as faccessat", this);
    t.partial(
        Syscall.RENAMEAT2, "RENAME_NOREPLACE only; other flags are EINVAL with a notice", this);
    t.implement(this, Syscall.LINKAT, Syscall.SYMLINKAT);
    t.partial(Syscall.GETDENTS64, "d_type is DT_UNKNOWN and d_ino a position, not the inode", this);
  }

  @Override
  public long call(Syscall which, Cpu cpu, long[] a) throws IOException, Refused {
    switch (which) {
      case READ -> {
        return orBlock(cpu, a, read((int) a[0], a[1], a[2]));
      }
      case WRITE -> {
        // A blocking write to a pipe waits until all of it fits (Linux writes it whole),
        // so that the guest never sees a short count it did not ask for.
        if (fds.get((int) a[0]) instanceof GuestFd.PipeEnd p && !p.nonBlocking && !p.fits(a[2])) {
          proc.threads.blockUntil(cpu, () -> p.fits(a[2]), a[0]);
          return a[0];
        }
        return orBlock(cpu, a, write((int) a[0], a[1], a[2]));
      }
      case READV -> {
        return readv((int) a[0], a[1], (int) a[2]);
      }
      case WRITEV -> {
        return writev((int) a[0], a[1], (int) a[2]);
      }
      case PREAD64 -> {
        return pio(false, (int) a[0], a[1], a[2], a[3]);
      }
      case PWRITE64 -> {
        return pio(true, (int) a[0], a[1], a[2], a[3]);
      }
      case OPENAT -> {
        return openat((int) a[0], a[1], (int) a[2], (int) a[3]);
      }
      case LSEEK -> {
        GuestFd f = fds.get((int) a[0]);
        return f == null ? -Errno.EBADF : f.seek(a[1], (int) a[2]);
      }
      case FSTAT -> {
        return fstat((int) a[0], a[1]);
      }
      case NEWFSTATAT -> {
        return newfstatat((int) a[0], a[1], a[2], (int) a[3]);
      }
      case READLINKAT -> {
        return readlinkat((int) a[0], a[1], a[2], a[3]);
      }
      case IOCTL -> {
        return ioctl((int) a[0], a[1], a[2]);
      }
      case FTRUNCATE -> {
        return ftruncate((int) a[0], a[1]);
      }
      case FSYNC -> {
        return sync((int) a[0], true);
      }
      case FDATASYNC -> {
        return sync((int) a[0], false);
      }
      case FCHOWN -> {
        return fchown((int) a[0], (int) a[1], (int) a[2]);
      }
      case PIPE2 -> {
        return pipe2(a[0], (int) a[1]);
      }
      case CHDIR -> {
        return chdir(a[0]);
      }
      case FCHDIR -> {
        return fchdir((int) a[0]);
      }
      case GETCWD -> {
        return getcwd(a[0], a[1]);
      }
      case UNLINKAT -> {
        return unlinkat((int) a[0], a[1], (int) a[2]);
      }
      case MKDIRAT -> {
        return mkdirat((int) a[0], a[1]);
      }
      case FACCESSAT -> {
        return faccessat((int) a[0], a[1], (int) a[2], 0);
      }
      case FACCESSAT2 -> {
        return faccessat((int) a[0], a[1], (int) a[2], (int) a[3]);
      }
      case RENAMEAT2 -> {
        return renameat2((int) a[0], a[1], (int) a[2], a[3], (int) a[4]);
      }
      case LINKAT -> {
        return linkat((int) a[0], a[1], (int) a[2], a[3], (int) a[4]);
      }
      case SYMLINKAT -> {
        return symlinkat(a[0], (int) a[1], a[2]);
      }
      case GETDENTS64 -> {
        return getdents64((int) a[0], a[1], a[2]);
      }
      default -> throw notMine(which);
    }
  }

  /**
   * The file execve names: it must exist, be readable in the sandbox and executable on the host,
   * and not be a directory (EACCES, as Linux).
   */
  Path executable(long pathAddr) throws Refused {
    PathWalk.Result r = walk(AT_FDCWD, pathAddr, true);
    Path p = r.path();
    if (!r.exists()) {
      checkRead(p, "read access to");
      throw new Refused(Errno.ENOENT);
    }
    checkRead(p, "execution of");
    if (r.dir()) {
      throw new Refused(Errno.EACCES);
    }
    return p;
  }

  /** A NUL-terminated guest string (the bytes kept exactly), as a path or an argument. */
  String string(long addr) throws Refused {
    return pathArg(addr);
  }

  /** A forked child starts in its parent's working directory. */
  void copyInto(FileCalls child) {
    child.cwd = cwd;
  }

  /** The working directory (a real host path). */
  Path cwd() {
    return cwd;
  }

  /** Linux's MAX_RW_COUNT: the most one read or write transfers. */
  private static final long MAX_RW_COUNT = 0x7ffff000L;

  /** Linux's UIO_MAXIOV. */
  private static final int UIO_MAXIOV = 1024;

  /** The host buffer one step of a read or write uses, so a huge count costs no huge array. */
  static final int CHUNK = 1 << 20;

  /**
   * A read of an empty pipe or a write to a full one blocks the calling thread, as Linux does,
   * until another thread or process makes it ready; the call then runs again.
   */
  private long orBlock(org.dise.runtime.cpu.Cpu cpu, long[] a, long r) {
    if (r != -Errno.EAGAIN
        || !(fds.get((int) a[0]) instanceof GuestFd.PipeEnd p)
        || p.nonBlocking) {
      return r;
    }
    proc.threads.blockUntil(cpu, p::ready, a[0]);
    return a[0];
  }

  private long read(int fd, long buf, long len) throws IOException {
    GuestFd f = fds.get(fd);
    if (f == null) {
      return -Errno.EBADF;
    }
    if (len < 0 || buf + len < buf) { // a count above SSIZE_MAX: access_ok fails in Linux
      return -Errno.EFAULT;
    }
    byte[] b = new byte[(int) Math.min(len, CHUNK)];
    beforeAccess(f);
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
    beforeAccess(f);
    try {
      return writeSteps(f, buf, len);
    } finally {
      afterWrite(f);
    }
  }

  private long writeSteps(GuestFd f, long buf, long len) throws IOException {
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
        return done > 0 ? done : signals.brokenPipe(n);
      }
      done += n;
      if (n < step) {
        break;
      }
    }
    return done;
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
    if (!fds.isOpen(fd)) {
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
      if (b.length == 0) {
        return 0;
      }
      beforeAccess(f);
      try {
        return signals.brokenPipe(f.write(b, b.length));
      } finally {
        afterWrite(f);
      }
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
    Sysroot sysroot = sandbox.sysroot();
    if (sysroot != null && p.startsWith("/")) {
      // As qemu-riscv64 -L: the guest's own files (its libraries) are looked up there first.
      PathWalk.Result in = sysroot.lookup(p, followLast);
      if (in != null) {
        if (!in.ok()) {
          throw new Refused(in.errno());
        }
        return in;
      }
    }
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
      proc.notice(
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
    if (!sandbox.mayChangeEntry(p)) {
      deny(p, what);
    }
  }

  private void deny(Path p, String what) throws Refused {
    proc.notice(
        "deny:" + what + ":" + p,
        "guest was denied "
            + what
            + " "
            + p
            + (sandbox.guards(p)
                ? " (acf's own state: the guest may not change it)"
                : " (outside the allowed directories; see --allow-read/--allow-write)"));
    throw new Refused(Errno.EACCES);
  }

  private static final int O_NONBLOCK = 0x800;
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
      fds.checkLimit();
      List<String> names = new ArrayList<>();
      names.add(".");
      names.add("..");
      try (Stream<Path> s = Files.list(p)) {
        s.forEach(q -> names.add(HostNames.guestString(q.getFileName())));
      }
      return fds.install(new GuestFd.Dir(p, names), flags);
    }
    if ((flags & O_DIRECTORY) != 0) {
      return r.exists() ? -Errno.ENOTDIR : -Errno.ENOENT;
    }
    if (r.exists() && !sandbox.unrestricted() && hardLinked(p)) {
      // Another name of this file may lie outside the allowed directories, and no path check
      // can tell: a file with several hard links is refused, like a link that leads out.
      proc.notice(
          "hardlink:" + p,
          "guest was denied access to "
              + p
              + ": it has several hard links,"
              + " and another may lie outside the allowed directories");
      return -Errno.EACCES;
    }
    fds.checkLimit();
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
    return fds.install(
        new GuestFd.HostFile(ch, p, acc != 1, acc != 0, (flags & O_APPEND) != 0), flags);
  }

  private static boolean hardLinked(Path p) {
    try {
      Object n = Files.getAttribute(p, "unix:nlink", LinkOption.NOFOLLOW_LINKS);
      return Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) && ((Number) n).intValue() > 1;
    } catch (IOException | UnsupportedOperationException e) {
      return false;
    }
  }

  private long ftruncate(int fd, long length) throws IOException {
    GuestFd f = fds.get(fd);
    if (f == null) {
      return -Errno.EBADF;
    }
    if (length < 0) {
      return -Errno.EINVAL;
    }
    if (!(f instanceof GuestFd.HostFile h)) {
      return -Errno.EINVAL;
    }
    beforeAccess(f);
    try {
      return h.truncate(length);
    } finally {
      afterWrite(f);
    }
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
      proc.notice(
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

  private long sync(int fd, boolean metadata) throws IOException {
    GuestFd f = fds.get(fd);
    return f == null ? -Errno.EBADF : f.sync(metadata);
  }

  /**
   * fchown: the guest runs as uid 0, so programs such as SQLite give a file they create the owner
   * of the database beside it; that is the owner it already has here, and so succeeds. Any real
   * change of a host file's owner is refused.
   */
  private long fchown(int fd, int uid, int gid) throws IOException {
    GuestFd f = fds.get(fd);
    if (f == null) {
      return -Errno.EBADF;
    }
    Path p = f.path();
    if (p == null) {
      return uid == -1 && gid == -1 ? 0 : -Errno.EPERM;
    }
    Map<String, Object> a;
    try {
      a = Files.readAttributes(p, "unix:uid,gid");
    } catch (UnsupportedOperationException | IOException e) {
      return -Errno.EPERM;
    }
    boolean sameUid = uid == -1 || uid == ((Number) a.get("uid")).intValue();
    boolean sameGid = gid == -1 || gid == ((Number) a.get("gid")).intValue();
    return sameUid && sameGid ? 0 : -Errno.EPERM;
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
      target = proc.exePath;
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

  private long pipe2(long fdsAddr, int flags) throws Refused {
    GuestFd.PipeEnd.Buffer b = new GuestFd.PipeEnd.Buffer();
    GuestFd.PipeEnd readEnd = new GuestFd.PipeEnd(b, false);
    GuestFd.PipeEnd writeEnd = new GuestFd.PipeEnd(b, true);
    readEnd.nonBlocking = writeEnd.nonBlocking = (flags & O_NONBLOCK) != 0;
    int r = fds.install(readEnd, flags);
    int w;
    try {
      w = fds.install(writeEnd, flags);
    } catch (Refused e) {
      fds.forget(r);
      throw e;
    }
    try {
      mem.write32(fdsAddr, r);
      mem.write32(fdsAddr + 4, w);
    } catch (MemoryFault e) {
      fds.forget(r);
      fds.forget(w);
      throw e;
    }
    return 0;
  }
}
