package org.dise.runtime.mem;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.function.IntConsumer;

/**
 * The guest's address space: the low 4 GiB in 4 KiB pages, each materialised on first touch.
 *
 * <p>The fast path of every access is one table load: {@code rpages} holds the pages that may be
 * read and {@code wpages} those that may be written without further ado. Everything else (unmapped
 * or protected pages, first touch, accesses crossing a page, writes to pages holding decoded code)
 * takes the slow path, so permission checks cost nothing on the fast path.
 */
public final class Memory {
  public static final int PAGE_BITS = 12;
  public static final int PAGE_SIZE = 1 << PAGE_BITS;
  public static final long PAGE_MASK = PAGE_SIZE - 1;
  public static final int PROT_READ = 1;
  public static final int PROT_WRITE = 2;
  public static final int PROT_EXEC = 4;

  /** Top of the emulated address space (exclusive). */
  public static final long LIMIT = 1L << 32;

  private static final int PAGES = (int) (LIMIT >>> PAGE_BITS);
  private static final int MAPPED = 8;
  private static final int CODE = 16;

  /**
   * MAP_SHARED anonymous memory: a forked copy shares the page's bytes with this address space
   * instead of copying them, so parent and child see each other's stores.
   */
  private static final int SHARED = 32;

  /**
   * {@code sun.misc.Unsafe}, or null where it is not available: translated units read and write the
   * guest registers with its plain accessors (cpu.UnitRegisters), as pages are read here.
   */
  public static sun.misc.Unsafe unsafe() {
    return PageAccess.U;
  }

  private static final VarHandle SHORT =
      MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private final byte[][] data = new byte[PAGES][];
  private final byte[][] rpages = new byte[PAGES][];
  private final byte[][] wpages = new byte[PAGES][];

  /** Per page: PROT bits, MAPPED, CODE (holds decoded instructions). */
  private final byte[] flags = new byte[PAGES];

  private IntConsumer codeWriteListener = page -> {};
  private boolean guestStores;
  private long residentPages;
  private long mappedPages;

  /**
   * A copy of this address space for a forked process: the same mappings, protections and contents,
   * in pages of its own (copied now rather than on write: a fork is rare and the copy costs one
   * array copy per touched page). No page of the copy holds decoded code yet.
   */
  public Memory copy() {
    Memory m = new Memory();
    for (int p = 0; p < PAGES; p++) {
      if (flags[p] == 0 && data[p] == null) {
        continue;
      }
      m.flags[p] = (byte) (flags[p] & ~CODE);
      if ((flags[p] & SHARED) != 0) {
        m.data[p] = materialise(p); // now, so that both hold the one page
      } else {
        m.data[p] = data[p] == null ? null : data[p].clone();
      }
      m.refresh(p);
    }
    m.residentPages = residentPages;
    m.mappedPages = mappedPages;
    return m;
  }

  /**
   * Marks the mapped pages of [start, start+length) as shared anonymous memory (MAP_SHARED |
   * MAP_ANONYMOUS): processes forked from now on share their bytes with this one. A mapping placed
   * over them, munmap and execve end the sharing for this address space only.
   */
  public void share(long start, long length) {
    checkRange(start, length);
    for (long a = start; a < start + length; a += PAGE_SIZE) {
      int p = (int) (a >>> PAGE_BITS);
      if ((flags[p] & MAPPED) != 0) {
        flags[p] |= SHARED;
      }
    }
  }

  /** Unmaps everything (execve: the new program starts in an empty address space). */
  public void unmapAll() {
    for (int p = 0; p < PAGES; p++) {
      if (flags[p] != 0 || data[p] != null) {
        unmap((long) p << PAGE_BITS, PAGE_SIZE);
      }
    }
  }

  /** Called with the page number when the guest writes to a page holding decoded code. */
  public void setCodeWriteListener(IntConsumer listener) {
    this.codeWriteListener = listener;
  }

  /**
   * The listener now installed: a second hart over this memory (a timing model's shadow handler
   * context) puts the guest's back after its constructor installed its own.
   */
  public IntConsumer codeWriteListener() {
    return codeWriteListener;
  }

  // ---------------------------------------------------------------- mapping

  /** Maps [start, start+length) with the given protection; both must be page aligned. */
  public void map(long start, long length, int prot) {
    checkRange(start, length);
    for (long a = start; a < start + length; a += PAGE_SIZE) {
      int p = (int) (a >>> PAGE_BITS);
      if (data[p] != null && (flags[p] & SHARED) != 0) {
        data[p] = null; // another process may hold this page: this one starts a fresh one
        residentPages--;
      } else if (data[p] != null) {
        java.util.Arrays.fill(data[p], (byte) 0);
      }
      boolean code = (flags[p] & CODE) != 0;
      if ((flags[p] & MAPPED) == 0) {
        mappedPages++;
      }
      flags[p] = (byte) (MAPPED | (prot & 7));
      refresh(p);
      if (code) {
        codeWriteListener.accept(p);
      }
    }
  }

  /** Unmaps [start, start+length). */
  public void unmap(long start, long length) {
    checkRange(start, length);
    for (long a = start; a < start + length; a += PAGE_SIZE) {
      int p = (int) (a >>> PAGE_BITS);
      if (data[p] != null) {
        residentPages--;
      }
      data[p] = null;
      boolean code = (flags[p] & CODE) != 0;
      if ((flags[p] & MAPPED) != 0) {
        mappedPages--;
      }
      flags[p] = 0;
      refresh(p);
      if (code) {
        codeWriteListener.accept(p);
      }
    }
  }

  /** Changes the protection of mapped pages in [start, start+length); false if some are not. */
  public boolean protect(long start, long length, int prot) {
    checkRange(start, length);
    for (long a = start; a < start + length; a += PAGE_SIZE) {
      if ((flags[(int) (a >>> PAGE_BITS)] & MAPPED) == 0) {
        return false;
      }
    }
    for (long a = start; a < start + length; a += PAGE_SIZE) {
      int p = (int) (a >>> PAGE_BITS);
      boolean dropCode = (flags[p] & CODE) != 0 && (prot & PROT_EXEC) == 0;
      flags[p] = (byte) ((flags[p] & ~(7 | (dropCode ? CODE : 0))) | (prot & 7));
      refresh(p);
      if (dropCode) {
        // Decoded instructions skip the fetch check, so a page that loses execute permission
        // must lose its decoded code too; running it again then faults, as on Linux.
        codeWriteListener.accept(p);
      }
    }
    return true;
  }

  public boolean isMapped(long addr) {
    return addr >= 0 && addr < LIMIT && (flags[(int) (addr >>> PAGE_BITS)] & MAPPED) != 0;
  }

  /** True when every page of [start, start+length) is unmapped. */
  public boolean isFree(long start, long length) {
    if (start < 0 || start + length > LIMIT || length < 0) {
      return false;
    }
    for (long a = start; a < start + length; a += PAGE_SIZE) {
      if ((flags[(int) (a >>> PAGE_BITS)] & MAPPED) != 0) {
        return false;
      }
    }
    return true;
  }

  public int protection(long addr) {
    return flags[(int) (addr >>> PAGE_BITS)] & 7;
  }

  /** Bytes mapped (for the guest's address-space limit, as Linux counts RLIMIT_AS). */
  public long mappedBytes() {
    return mappedPages << PAGE_BITS;
  }

  /** Number of pages that have been touched (materialised). */
  public long residentPages() {
    return residentPages;
  }

  /**
   * Marks a page as holding decoded instructions: writes to it then take the slow path and notify
   * the listener, so the decode cache stays coherent.
   */
  public void markCode(long addr) {
    int p = (int) (addr >>> PAGE_BITS);
    flags[p] |= CODE;
    wpages[p] = null;
  }

  /** Forgets that a page holds decoded instructions (after the cache dropped it). */
  public void unmarkCode(int page) {
    flags[page] &= ~CODE;
    refresh(page);
  }

  private void refresh(int p) {
    int f = flags[p];
    byte[] d = data[p];
    rpages[p] = (f & MAPPED) != 0 && (f & PROT_READ) != 0 ? d : null;
    wpages[p] = (f & MAPPED) != 0 && (f & PROT_WRITE) != 0 && (f & CODE) == 0 ? d : null;
  }

  private static void checkRange(long start, long length) {
    if ((start & PAGE_MASK) != 0
        || (length & PAGE_MASK) != 0
        || start < 0
        || start + length > LIMIT) {
      throw new IllegalArgumentException(String.format("bad range 0x%x+0x%x", start, length));
    }
  }

  /** The page's bytes for an access, materialising it; throws a fault if not permitted. */
  /** Page p's bytes, allocated (zeros) when first touched. */
  private byte[] materialise(int p) {
    byte[] d = data[p];
    if (d == null) {
      d = new byte[PAGE_SIZE];
      data[p] = d;
      residentPages++;
      refresh(p);
    }
    return d;
  }

  private byte[] page(long addr, MemoryFault.Access access) {
    if (addr < 0 || addr >= LIMIT) {
      throw new MemoryFault(addr, access, false);
    }
    int p = (int) (addr >>> PAGE_BITS);
    int f = flags[p];
    if ((f & MAPPED) == 0) {
      throw new MemoryFault(addr, access, false);
    }
    int need =
        switch (access) {
          case READ -> PROT_READ;
          case WRITE -> PROT_WRITE;
          case EXECUTE -> PROT_EXEC;
        };
    if ((f & need) == 0) {
      throw new MemoryFault(addr, access, true);
    }
    byte[] d = materialise(p);
    if (access == MemoryFault.Access.WRITE && (f & CODE) != 0) {
      flags[p] &= ~CODE;
      refresh(p);
      codeWriteListener.accept(p);
    }
    return d;
  }

  // ---------------------------------------------------------------- fast paths

  /**
   * The readable pages, indexed by page number (null: not mapped, not readable or not yet touched):
   * translated code indexes this array itself and calls {@link #lb}.. only when it finds no page or
   * the access crosses the page end. The array is this memory's for its whole life; map, unmap and
   * mprotect change its entries.
   */
  public byte[][] readPages() {
    return rpages;
  }

  /** The writable pages that hold no decoded code, as {@link #readPages} (for stores). */
  public byte[][] writePages() {
    return wpages;
  }

  /** A little-endian halfword, sign-extended, at {@code off} of a page (translated code). */
  public static int get16(byte[] page, int off) {
    return PageAccess.RAW ? PageAccess.get16(page, off) : (short) SHORT.get(page, off);
  }

  public static int get32(byte[] page, int off) {
    return PageAccess.RAW ? PageAccess.get32(page, off) : (int) INT.get(page, off);
  }

  public static long get64(byte[] page, int off) {
    return PageAccess.RAW ? PageAccess.get64(page, off) : (long) LONG.get(page, off);
  }

  public static void put16(byte[] page, int off, long v) {
    if (PageAccess.RAW) {
      PageAccess.put16(page, off, (short) v);
    } else {
      SHORT.set(page, off, (short) v);
    }
  }

  public static void put32(byte[] page, int off, long v) {
    if (PageAccess.RAW) {
      PageAccess.put32(page, off, (int) v);
    } else {
      INT.set(page, off, (int) v);
    }
  }

  public static void put64(byte[] page, int off, long v) {
    if (PageAccess.RAW) {
      PageAccess.put64(page, off, v);
    } else {
      LONG.set(page, off, v);
    }
  }

  // The guest's loads and stores (the interpreter's, and translated code's slow path): each is a
  // guestLoad or guestStore of its width, whose fast path indexes the page arrays as translated
  // code does.

  public int lb(long a) {
    return (int) guestLoad(a, 1); // a page's byte sign-extended, slowRead's zero-extended
  }

  public int lh(long a) {
    return (short) guestLoad(a, 2);
  }

  public int lw(long a) {
    return (int) guestLoad(a, 4);
  }

  public long ld(long a) {
    return guestLoad(a, 8);
  }

  public void sb(long a, long v) {
    guestStore(a, v, 1);
  }

  public void sh(long a, long v) {
    guestStore(a, v, 2);
  }

  public void sw(long a, long v) {
    guestStore(a, v, 4);
  }

  public void sd(long a, long v) {
    guestStore(a, v, 8);
  }

  /**
   * The page of the {@code n} bytes at {@code a} in {@code pages} when the fast path applies (an
   * address below 4 GiB whose bytes do not cross the page end), else null; small enough for C1 to
   * inline.
   */
  private static byte[] fastPage(byte[][] pages, long a, int n) {
    if ((a >>> 32) != 0 || ((int) a & (int) PAGE_MASK) > PAGE_SIZE - n) {
      return null;
    }
    return pages[(int) (a >>> PAGE_BITS)];
  }

  /** The n (1, 2, 4 or 8) bytes at a: from the page sign-extended, from slowRead zero-extended. */
  private long guestLoad(long a, int n) {
    byte[] p = fastPage(rpages, a, n);
    if (p == null) {
      return slowRead(a, n);
    }
    int off = (int) a & (int) PAGE_MASK;
    return switch (n) {
      case 1 -> p[off];
      case 2 -> get16(p, off);
      case 4 -> get32(p, off);
      default -> get64(p, off);
    };
  }

  private void guestStore(long a, long v, int n) {
    byte[] p = fastPage(wpages, a, n);
    if (p == null) {
      slowWrite(a, v, n);
      return;
    }
    int off = (int) a & (int) PAGE_MASK;
    switch (n) {
      case 1 -> p[off] = (byte) v;
      case 2 -> put16(p, off, v);
      case 4 -> put32(p, off, v);
      default -> put64(p, off, v);
    }
  }

  // ---------------------------------------------------------------- slow paths

  private long slowRead(long a, int n) {
    long v = 0;
    for (int i = 0; i < n; i++) {
      long b = a + i;
      byte[] d = page(b, MemoryFault.Access.READ);
      v |= (d[(int) (b & PAGE_MASK)] & 0xffL) << (8 * i);
    }
    return v;
  }

  /** A guest store went to a page holding decoded code (self-modifying code). */
  public static final class CodeModified extends RuntimeException {
    static final CodeModified INSTANCE = new CodeModified();

    private CodeModified() {
      super(null, null, false, false);
    }
  }

  /**
   * A store by a guest instruction that missed the fast path. It completes, and then throws {@link
   * CodeModified} when it wrote to decoded code, so the interpreter can stop the block it is
   * running and fetch the new instructions (as qemu does).
   */
  private void slowWrite(long a, long v, int n) {
    if (store(a, v, n) && guestStores) {
      throw CodeModified.INSTANCE;
    }
  }

  /**
   * Whether stores through {@link #sb}..{@link #sd} are the guest's own, executed by the
   * interpreter (which then wants {@link CodeModified}); returns the previous setting.
   */
  public boolean setGuestStores(boolean on) {
    boolean was = guestStores;
    guestStores = on;
    return was;
  }

  /** Writes n bytes with permission checks; true when a page holding decoded code was hit. */
  private boolean store(long a, long v, int n) {
    boolean code = false;
    // Check every byte first so a faulting store changes nothing.
    for (int i = 0; i < n; i++) {
      long b = a + i;
      if ((b >>> 32) == 0) {
        code |= (flags[(int) (b >>> PAGE_BITS)] & CODE) != 0;
      }
      page(b, MemoryFault.Access.WRITE);
    }
    for (int i = 0; i < n; i++) {
      long b = a + i;
      byte[] d = page(b, MemoryFault.Access.WRITE);
      d[(int) (b & PAGE_MASK)] = (byte) (v >>> (8 * i));
    }
    return code;
  }

  /** Reads a 16-bit parcel for instruction fetch, requiring execute permission. */
  public int fetch16(long a) {
    byte[] d = page(a, MemoryFault.Access.EXECUTE);
    int off = (int) (a & PAGE_MASK);
    if (off <= PAGE_SIZE - 2) {
      return (short) SHORT.get(d, off) & 0xffff;
    }
    return (d[off] & 0xff) | ((page(a + 1, MemoryFault.Access.EXECUTE)[0] & 0xff) << 8);
  }

  // ---------------------------------------------------------------- bulk access for the kernel

  /** One page's piece of a bulk copy: its guest address, the bytes done before it, their count. */
  private interface Piece {
    void copy(long a, int done, int n);
  }

  /** Splits [addr, addr + len) at page ends and copies the pieces in order. */
  private static void pieces(long addr, int len, Piece piece) {
    int done = 0;
    while (done < len) {
      long a = addr + done;
      int n = Math.min(len - done, PAGE_SIZE - (int) (a & PAGE_MASK));
      piece.copy(a, done, n);
      done += n;
    }
  }

  /** Copies guest memory into {@code dst}, checking read permission. */
  public void read(long addr, byte[] dst, int off, int len) {
    copy(addr, dst, off, len, MemoryFault.Access.READ);
  }

  /** Copies {@code src} into guest memory, checking write permission. */
  public void write(long addr, byte[] src, int off, int len) {
    copy(addr, src, off, len, MemoryFault.Access.WRITE);
  }

  /** Copies between guest memory and {@code host}: into it for READ, out of it for WRITE. */
  private void copy(long addr, byte[] host, int off, int len, MemoryFault.Access access) {
    pieces(
        addr,
        len,
        (a, done, n) -> {
          byte[] d = page(a, access);
          int po = (int) (a & PAGE_MASK);
          if (access == MemoryFault.Access.READ) {
            System.arraycopy(d, po, host, off + done, n);
          } else {
            System.arraycopy(host, off + done, d, po, n);
          }
        });
  }

  /** The page number of a, which must be mapped (else the kernel's access faults). */
  private int mapped(long a, MemoryFault.Access access) {
    int p = (int) (a >>> PAGE_BITS);
    if ((flags[p] & MAPPED) == 0) {
      throw new MemoryFault(a, access, false);
    }
    return p;
  }

  /** Writes bytes ignoring page protection (the loader filling read-only segments). */
  public void poke(long addr, byte[] src, int off, int len) {
    pieces(
        addr,
        len,
        (a, done, n) ->
            System.arraycopy(
                src,
                off + done,
                materialise(mapped(a, MemoryFault.Access.WRITE)),
                (int) (a & PAGE_MASK),
                n));
  }

  /**
   * Copies guest memory ignoring page protection (the kernel writing a shared file mapping back); a
   * page never touched reads as zeros. Unmapped memory faults.
   */
  public void peek(long addr, byte[] dst, int off, int len) {
    pieces(
        addr,
        len,
        (a, done, n) -> {
          int p = mapped(a, MemoryFault.Access.READ);
          if (data[p] == null) {
            java.util.Arrays.fill(dst, off + done, off + done + n, (byte) 0);
          } else {
            System.arraycopy(data[p], (int) (a & PAGE_MASK), dst, off + done, n);
          }
        });
  }

  public byte[] read(long addr, int len) {
    byte[] b = new byte[len];
    read(addr, b, 0, len);
    return b;
  }

  /** Reads a NUL-terminated string of at most {@code max} bytes. */
  public String readCString(long addr, int max) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    for (int i = 0; i < max; i++) {
      int b = (int) slowRead(addr + i, 1) & 0xff;
      if (b == 0) {
        return out.toString(StandardCharsets.UTF_8);
      }
      out.write(b);
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  /** Whole-word reads used by the kernel and the loader, with permission checks. */
  public long read64(long a) {
    return slowRead(a, 8);
  }

  public int read32(long a) {
    return (int) slowRead(a, 4);
  }

  public void write64(long a, long v) {
    store(a, v, 8);
  }

  public void write32(long a, long v) {
    store(a, v, 4);
  }
}
