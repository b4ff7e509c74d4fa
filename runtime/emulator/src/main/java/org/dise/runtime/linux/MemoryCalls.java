package org.dise.runtime.linux;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.mem.Memory;
import org.dise.runtime.mem.MemoryFault;

/**
 * The memory calls: the program break, anonymous and file mappings, unmapping and protection, in
 * the low 4 GiB {@link Memory} emulates. Mappings are placed top-down below {@link
 * Loader#MMAP_TOP}, deterministically, and count against the guest's RLIMIT_AS.
 */
final class MemoryCalls extends SyscallGroup {
  private static final int MAP_SHARED = 0x01;
  private static final int MAP_FIXED = 0x10;
  private static final int MS_ASYNC = 1;
  private static final int MS_INVALIDATE = 2;
  private static final int MS_SYNC = 4;
  private static final int MAP_ANONYMOUS = 0x20;

  private final Descriptors fds;

  private long brkStart;
  private long brk;
  private long mmapNext = Loader.MMAP_TOP;
  private FileMapListener fileMapListener;

  /**
   * A MAP_SHARED mapping of a file opened for writing: the guest's stores reach the file when it
   * calls msync or munmap, when the process ends, and before the process reads or writes the file
   * through a descriptor; what it writes so is copied back into the mapping ({@link
   * #beforeFileAccess}, {@link #afterFileWrite}), so read/write and the mapping agree as they do
   * over Linux's one page cache. It holds its own channel, since the guest may close its descriptor
   * and keep the mapping, as Linux allows.
   */
  private record Shared(long addr, long len, FileChannel file, long offset, Path path) {
    long end() {
      return addr + len;
    }
  }

  private final List<Shared> shared = new ArrayList<>();

  MemoryCalls(GuestProcess proc, Descriptors fds) {
    super(proc);
    this.fds = fds;
  }

  @Override
  void register(SyscallTable t) {
    t.implement(this, Syscall.BRK);
    t.partial(
        Syscall.MMAP,
        "MAP_SHARED file mappings reach the file at msync, munmap, exit and the process's"
            + " own read/write of the file (which they then see), not at each store; another"
            + " process, and several mappings of one file, do not see each other's stores until"
            + " then",
        this);
    t.implement(this, Syscall.MUNMAP);
    t.partial(
        Syscall.MSYNC,
        "writes MAP_SHARED file mappings back; MS_INVALIDATE has nothing to invalidate",
        this);
    t.implement(this, Syscall.MPROTECT);
    t.refuse(
        Syscall.MREMAP,
        Errno.ENOMEM,
        "ENOMEM: glibc's realloc falls back to mmap, copy and munmap");
    t.partial(
        Syscall.MADVISE,
        "advice is accepted and ignored (MADV_DONTNEED does not zero the pages)",
        this);
  }

  @Override
  public long call(Syscall which, Cpu cpu, long[] a) throws IOException, Refused {
    switch (which) {
      case BRK -> {
        return brk(a[0]);
      }
      case MMAP -> {
        return mmap(a[0], a[1], (int) a[2], (int) a[3], (int) a[4], a[5]);
      }
      case MUNMAP -> {
        return munmap(a[0], a[1]);
      }
      case MSYNC -> {
        return msync(a[0], a[1], (int) a[2]);
      }
      case MPROTECT -> {
        return mprotect(a[0], a[1], (int) a[2]);
      }
      case MADVISE -> {
        return 0;
      }
      default -> throw notMine(which);
    }
  }

  void setMmapTop(long top) {
    this.mmapNext = top;
  }

  void setFileMapListener(FileMapListener l) {
    this.fileMapListener = l;
  }

  /** execve: a new program's heap and mappings (the caller then sets the loader's mmap top). */
  void execReset(long start) {
    setBrkStart(start);
    mmapNext = Loader.MMAP_TOP;
  }

  /** A forked child's heap and mapping cursor are its parent's. */
  void copyInto(MemoryCalls child) {
    child.brkStart = brkStart;
    child.brk = brk;
    child.mmapNext = mmapNext;
  }

  void setBrkStart(long start) {
    this.brkStart = start;
    this.brk = start;
  }

  /** True if mapping {@code more} bytes would pass the guest's address-space limit. */
  private boolean overLimit(long more) {
    return more > proc.limits.addressSpace() - mem.mappedBytes();
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
    boolean fixed = (flags & MAP_FIXED) != 0;
    boolean anonymous = (flags & MAP_ANONYMOUS) != 0;
    GuestFd f = null;
    if (!anonymous) {
      f = fds.get(fd);
      if (!(f instanceof GuestFd.HostFile)) {
        return f == null ? -Errno.EBADF : -Errno.EACCES;
      }
      if (off < 0) {
        return -Errno.EINVAL;
      }
      if ((flags & MAP_SHARED) != 0 && (prot & Memory.PROT_WRITE) != 0 && f.accessMode() == 0) {
        return -Errno.EACCES; // a writable shared mapping of a file opened read-only
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
    if (fixed) { // a fixed mapping replaces what was there, as munmap would
      writeBack(at, at + size);
      dropShared(at, at + size);
    }
    mem.map(at, size, prot & 7);
    if (anonymous && (flags & MAP_SHARED) != 0) {
      mem.share(at, size); // forked children share these pages (spec/emulator.md, "Processes")
    }
    if (f != null) {
      beforeFileAccess(f.path()); // another shared mapping's stores first
      // Copy the file in steps: a mapping may be far larger than any host array.
      long saved = f.seek(0, 1);
      f.seek(off, 0);
      long got = 0;
      byte[] chunk = new byte[(int) Math.min(len, FileCalls.CHUNK)];
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
      if ((prot & Memory.PROT_EXEC) != 0 && fileMapListener != null) {
        fileMapListener.mapped(f.path(), at, off);
      }
    }
    if (f != null && (flags & MAP_SHARED) != 0 && f.accessMode() != 0) {
      FileChannel ch =
          FileChannel.open(f.path(), StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
      shared.add(new Shared(at, size, ch, off, f.path()));
    }
    return at;
  }

  /**
   * The guest reads, writes or maps {@code file} through a descriptor: its shared mappings' stores
   * reach it first, so that what is read is what the mappings hold.
   */
  void beforeFileAccess(Path file) throws IOException {
    if (!shared.isEmpty() && file != null) {
      writeBack(0, Memory.LIMIT, file);
    }
  }

  /** The guest wrote {@code file} through a descriptor: its shared mappings see the new bytes. */
  void afterFileWrite(Path file) throws IOException {
    if (shared.isEmpty() || file == null) {
      return;
    }
    for (Shared m : shared) {
      if (!file.equals(m.path())) {
        continue;
      }
      long inFile = Math.min(m.len(), Math.max(0, m.file().size() - m.offset()));
      try (FileChannel in = FileChannel.open(m.path(), LinkOption.NOFOLLOW_LINKS)) {
        for (long a = 0; a < inFile; ) {
          ByteBuffer buf = ByteBuffer.allocate((int) Math.min(inFile - a, FileCalls.CHUNK));
          while (buf.hasRemaining() && in.read(buf, m.offset() + a + buf.position()) > 0) {
            // fill
          }
          if (buf.position() == 0) {
            break; // the file shrank meanwhile
          }
          mem.poke(m.addr() + a, buf.array(), 0, buf.position());
          a += buf.position();
        }
      }
    }
  }

  /** Writes the part of each shared file mapping inside [from, to) back to its file. */
  private void writeBack(long from, long to) throws IOException {
    writeBack(from, to, null);
  }

  /** As {@link #writeBack(long, long)}, for the mappings of {@code only} (null: all). */
  private void writeBack(long from, long to, Path only) throws IOException {
    for (Shared m : shared) {
      if (only != null && !only.equals(m.path())) {
        continue;
      }
      long lo = Math.max(from, m.addr());
      long hi = Math.min(to, m.end());
      // Only the bytes within the file: stores past its end are lost, as on Linux.
      hi = Math.min(hi, m.addr() + Math.max(0, m.file().size() - m.offset()));
      for (long a = lo; a < hi; ) {
        int n = (int) Math.min(hi - a, FileCalls.CHUNK);
        byte[] b = new byte[n];
        mem.peek(a, b, 0, n);
        ByteBuffer buf = ByteBuffer.wrap(b);
        long pos = m.offset() + (a - m.addr());
        while (buf.hasRemaining()) {
          pos += m.file().write(buf, pos);
        }
        a += n;
      }
    }
  }

  /** Forgets the shared mappings in [from, to), keeping the parts outside it. */
  private void dropShared(long from, long to) throws IOException {
    List<Shared> kept = new ArrayList<>();
    List<FileChannel> dropped = new ArrayList<>();
    for (Shared m : shared) {
      if (m.end() <= from || m.addr() >= to) {
        kept.add(m);
        continue;
      }
      if (m.addr() < from) {
        kept.add(new Shared(m.addr(), from - m.addr(), m.file(), m.offset(), m.path()));
      }
      if (m.end() > to) {
        kept.add(new Shared(to, m.end() - to, m.file(), m.offset() + (to - m.addr()), m.path()));
      }
      dropped.add(m.file());
    }
    shared.clear();
    shared.addAll(kept);
    for (FileChannel ch : dropped) {
      if (kept.stream().noneMatch(m -> m.file() == ch) && ch.isOpen()) {
        ch.close();
      }
    }
  }

  /** The process ends: every shared mapping is written back and its file closed. */
  void releaseShared() {
    if (shared.isEmpty()) {
      return;
    }
    try {
      writeBack(0, Memory.LIMIT);
    } catch (IOException | MemoryFault e) {
      proc.say("a shared file mapping could not be written back: " + e.getMessage());
    }
    for (Shared m : shared) {
      try {
        m.file().close();
      } catch (IOException e) {
        // nothing left to tell the guest
      }
    }
    shared.clear();
  }

  private long msync(long addr, long len, int flags) throws IOException {
    if ((addr & Memory.PAGE_MASK) != 0
        || (flags & ~(MS_ASYNC | MS_INVALIDATE | MS_SYNC)) != 0
        || (flags & (MS_ASYNC | MS_SYNC)) == (MS_ASYNC | MS_SYNC)) {
      return -Errno.EINVAL;
    }
    long size = (len + Memory.PAGE_MASK) & ~Memory.PAGE_MASK;
    if (len < 0 || addr + size > Memory.LIMIT || addr + size < addr) {
      return -Errno.ENOMEM;
    }
    for (long a = addr; a < addr + size; a += Memory.PAGE_SIZE) {
      if (!mem.isMapped(a)) {
        return -Errno.ENOMEM;
      }
    }
    writeBack(addr, addr + size);
    if ((flags & MS_SYNC) != 0) {
      for (Shared m : shared) {
        if (m.addr() < addr + size && m.end() > addr) {
          m.file().force(false);
        }
      }
    }
    return 0;
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

  private long munmap(long addr, long len) throws IOException {
    if ((addr & Memory.PAGE_MASK) != 0 || len <= 0 || len > Memory.LIMIT) {
      return -Errno.EINVAL;
    }
    long size = (len + Memory.PAGE_MASK) & ~Memory.PAGE_MASK;
    if (addr < 0 || addr + size > Memory.LIMIT) {
      return -Errno.EINVAL;
    }
    writeBack(addr, addr + size);
    dropShared(addr, addr + size);
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
}
