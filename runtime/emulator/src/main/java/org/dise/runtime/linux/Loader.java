package org.dise.runtime.linux;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.dise.runtime.elf.ElfException;
import org.dise.runtime.elf.ElfFile;
import org.dise.runtime.elf.Segment;
import org.dise.runtime.mem.Memory;

/**
 * Maps an ELF program (and the dynamic linker a dynamically linked one names) into guest memory and
 * builds the initial stack as Linux does: argc, argv, envp, the auxiliary vector, and the strings
 * and random bytes they point to.
 *
 * <p>Layout (our choice; documented in spec/emulator.md): an ET_EXEC program at its link address, a
 * static-PIE one at {@link #PIE_BASE}; the heap (brk) right after the highest segment; mmap regions
 * allocated top-down below the stack; an 8 MiB stack ending at {@link #STACK_TOP}.
 */
public final class Loader {
  public static final long PIE_BASE = org.dise.runtime.elf.ElfFile.PIE_BASE;
  public static final long STACK_TOP = 0xF000_0000L;
  public static final long STACK_SIZE = 8L << 20;
  public static final long MMAP_TOP = STACK_TOP - STACK_SIZE - (1L << 20);

  // auxv keys
  static final int AT_NULL = 0;
  static final int AT_PHDR = 3;
  static final int AT_PHENT = 4;
  static final int AT_PHNUM = 5;
  static final int AT_PAGESZ = 6;
  static final int AT_BASE = 7;
  static final int AT_FLAGS = 8;
  static final int AT_ENTRY = 9;
  static final int AT_UID = 11;
  static final int AT_EUID = 12;
  static final int AT_GID = 13;
  static final int AT_EGID = 14;
  static final int AT_HWCAP = 16;
  static final int AT_CLKTCK = 17;
  static final int AT_SECURE = 23;
  static final int AT_RANDOM = 25;
  static final int AT_EXECFN = 31;

  /** AT_HWCAP: one bit per single-letter extension, I M A F D C. */
  public static final long HWCAP_RV64GC =
      (1L << ('I' - 'A'))
          | (1L << ('M' - 'A'))
          | (1L << ('A' - 'A'))
          | (1L << ('F' - 'A'))
          | (1L << ('D' - 'A'))
          | (1L << ('C' - 'A'));

  /**
   * Where things ended up. {@code entry} is where the hart starts (the dynamic linker's entry for a
   * dynamically linked program); {@code interp} the dynamic linker loaded (null: none) at {@code
   * interpBias}; {@code mmapTop} the top of the area mmap allocates from, downwards.
   */
  public record Image(
      long entry,
      long bias,
      long brkStart,
      long stackPointer,
      long phdr,
      ElfFile interp,
      long interpBias,
      long mmapTop) {}

  private Loader() {}

  /** Maps a static program and builds the stack; returns the entry point and initial sp. */
  public static Image load(
      ElfFile elf, Memory mem, List<String> argv, List<String> envp, long randomSeed)
      throws ElfException {
    return load(elf, mem, argv, envp, randomSeed, null);
  }

  /**
   * Maps the program, and the dynamic linker it names (PT_INTERP) from {@code sysroot}, and builds
   * the stack. The dynamic linker goes at the top of the mmap area, where Linux's first mmap would
   * put it, and later mmaps (ld.so's of the libraries) go below it, so every address is the same on
   * every run and host (spec/emulator.md, "Dynamically linked programs").
   *
   * @throws ElfException when the program is dynamically linked and there is no sysroot, or the
   *     sysroot has no such dynamic linker, or either file is unfit
   */
  public static Image load(
      ElfFile elf,
      Memory mem,
      List<String> argv,
      List<String> envp,
      long randomSeed,
      Sysroot sysroot)
      throws ElfException {
    long bias = elf.loadBias();
    long[] mapped = mapSegments(elf, mem, bias);
    long highest = mapped[0];
    long phdr = mapped[1];
    ElfFile interp = null;
    long interpBias = 0;
    long mmapTop = MMAP_TOP;
    if (elf.isDynamic()) {
      interp = interpreter(elf.interpreter(), sysroot);
      if (interp.isDynamic()) {
        throw new ElfException(
            "the dynamic linker " + interp.path() + " itself names an interpreter");
      }
      long lo = Long.MAX_VALUE;
      long hi = 0;
      for (Segment s : interp.segments()) {
        if (s.type() == Segment.PT_LOAD) {
          lo = Math.min(lo, s.vaddr() & ~Memory.PAGE_MASK);
          hi = Math.max(hi, s.vaddr() + s.memSize());
        }
      }
      if (lo == Long.MAX_VALUE || hi - lo > MMAP_TOP / 4) {
        throw new ElfException("the dynamic linker " + interp.path() + " has no loadable segments");
      }
      // Top of the mmap area, 64 KiB aligned (a segment may ask for that much alignment).
      long base = (MMAP_TOP - (hi - lo)) & ~0xFFFFL;
      interpBias = base - lo;
      mapSegments(interp, mem, interpBias);
      mmapTop = base;
    }
    long sp =
        buildStack(mem, elf, bias, phdr, argv, envp, randomSeed, interp == null ? 0 : interpBias);
    long entry = interp == null ? elf.entry() + bias : interp.entry() + interpBias;
    return new Image(entry, bias, highest, sp, phdr, interp, interpBias, mmapTop);
  }

  /** The dynamic linker {@code name} (PT_INTERP), read from the sysroot. */
  private static ElfFile interpreter(String name, Sysroot sysroot) throws ElfException {
    if (sysroot == null) {
      throw new ElfException(
          "dynamically linked program: it needs the dynamic linker "
              + name
              + ", and there is no sysroot to load it from (give --sysroot DIR or set "
              + Sysroot.ENV
              + "; Debian's libc6-riscv64-cross installs one in "
              + Sysroot.DEFAULT
              + ")");
    }
    java.nio.file.Path file;
    try {
      file = sysroot.interpreter(name);
    } catch (java.nio.file.NoSuchFileException e) {
      throw new ElfException(
          "dynamically linked program: its dynamic linker "
              + name
              + " is not in the sysroot "
              + sysroot);
    }
    try {
      return ElfFile.read(file);
    } catch (java.io.IOException e) {
      throw new ElfException("cannot read the dynamic linker " + file + ": " + e.getMessage());
    } catch (ElfException e) {
      throw new ElfException("the dynamic linker " + file + ": " + e.getMessage());
    }
  }

  /**
   * Maps the PT_LOAD segments of {@code elf} at {@code bias}; returns the page-aligned end of the
   * highest segment and the loaded address of the program headers (0 when no segment holds them).
   */
  private static long[] mapSegments(ElfFile elf, Memory mem, long bias) throws ElfException {
    long highest = 0;
    long phdr = 0;
    List<Segment> loads = new ArrayList<>();
    for (Segment s : elf.segments()) {
      if (s.type() == Segment.PT_LOAD) {
        loads.add(s);
      } else if (s.type() == Segment.PT_PHDR) {
        phdr = s.vaddr() + bias;
      }
    }
    if (loads.isEmpty()) {
      throw new ElfException("no loadable segments");
    }
    // Map page by page with the union of the protections of the segments that touch it.
    for (Segment s : loads) {
      // Checked before any sum: a flipped vaddr or p_memsz must not wrap around.
      if (s.vaddr() < 0
          || s.memSize() < 0
          || s.vaddr() > MMAP_TOP - bias
          || s.memSize() > MMAP_TOP - bias - s.vaddr()) {
        throw new ElfException(
            String.format(
                "segment at 0x%x with p_memsz 0x%x lies outside the emulated address space"
                    + " (0x1000-0x%x)",
                s.vaddr(), s.memSize(), MMAP_TOP));
      }
      long start = (s.vaddr() + bias) & ~Memory.PAGE_MASK;
      long end = (s.vaddr() + bias + s.memSize() + Memory.PAGE_MASK) & ~Memory.PAGE_MASK;
      if (start < Memory.PAGE_SIZE || end > MMAP_TOP) {
        throw new ElfException(
            String.format(
                "segment at 0x%x-0x%x lies outside the emulated address space (0x1000-0x%x)",
                s.vaddr() + bias, s.vaddr() + bias + s.memSize(), MMAP_TOP));
      }
      int prot = protOf(s.flags());
      for (long a = start; a < end; a += Memory.PAGE_SIZE) {
        int old = mem.isMapped(a) ? mem.protection(a) : 0;
        if (!mem.isMapped(a)) {
          mem.map(a, Memory.PAGE_SIZE, prot | old);
        } else {
          mem.protect(a, Memory.PAGE_SIZE, prot | old);
        }
      }
      mem.poke(s.vaddr() + bias, elf.bytes(), (int) s.offset(), (int) s.fileSize());
      highest = Math.max(highest, end);
      if (phdr == 0 && elf.phoff() >= s.offset() && elf.phoff() < s.offset() + s.fileSize()) {
        phdr = s.vaddr() + bias + (elf.phoff() - s.offset());
      }
    }
    return new long[] {highest, phdr};
  }

  private static int protOf(int flags) {
    int p = 0;
    if ((flags & Segment.PF_R) != 0) {
      p |= Memory.PROT_READ;
    }
    if ((flags & Segment.PF_W) != 0) {
      p |= Memory.PROT_WRITE;
    }
    if ((flags & Segment.PF_X) != 0) {
      p |= Memory.PROT_EXEC;
    }
    return p;
  }

  private static long buildStack(
      Memory mem,
      ElfFile elf,
      long bias,
      long phdr,
      List<String> argv,
      List<String> envp,
      long randomSeed,
      long interpBase) {
    mem.map(STACK_TOP - STACK_SIZE, STACK_SIZE, Memory.PROT_READ | Memory.PROT_WRITE);
    long p = STACK_TOP;
    // Strings at the top: execfn, then envp and argv strings.
    String execfn = argv.isEmpty() ? "" : argv.get(0);
    p = pushString(mem, p, execfn);
    long execfnAddr = p;
    long[] envAddr = new long[envp.size()];
    for (int i = envp.size() - 1; i >= 0; i--) {
      p = pushString(mem, p, envp.get(i));
      envAddr[i] = p;
    }
    long[] argAddr = new long[argv.size()];
    for (int i = argv.size() - 1; i >= 0; i--) {
      p = pushString(mem, p, argv.get(i));
      argAddr[i] = p;
    }
    // 16 random bytes for AT_RANDOM (seeded, so runs are reproducible).
    byte[] random = new byte[16];
    new Random(randomSeed).nextBytes(random);
    p = (p - 16) & ~15L;
    mem.write(p, random, 0, 16);
    long randomAddr = p;

    long[][] auxv = {
      {AT_PHDR, phdr},
      {AT_PHENT, elf.phentsize()},
      {AT_PHNUM, elf.segments().size()},
      {AT_PAGESZ, Memory.PAGE_SIZE},
      {AT_BASE, interpBase},
      {AT_FLAGS, 0},
      {AT_ENTRY, elf.entry() + bias},
      {AT_UID, 0},
      {AT_EUID, 0},
      {AT_GID, 0},
      {AT_EGID, 0},
      {AT_HWCAP, HWCAP_RV64GC},
      {AT_CLKTCK, 100},
      {AT_RANDOM, randomAddr},
      {AT_SECURE, 0},
      {AT_EXECFN, execfnAddr},
      {AT_NULL, 0},
    };
    int words = 1 + argv.size() + 1 + envp.size() + 1 + auxv.length * 2;
    long sp = (p - 8L * words) & ~15L;
    long w = sp;
    mem.write64(w, argv.size());
    w += 8;
    for (long a : argAddr) {
      mem.write64(w, a);
      w += 8;
    }
    mem.write64(w, 0);
    w += 8;
    for (long a : envAddr) {
      mem.write64(w, a);
      w += 8;
    }
    mem.write64(w, 0);
    w += 8;
    for (long[] kv : auxv) {
      mem.write64(w, kv[0]);
      mem.write64(w + 8, kv[1]);
      w += 16;
    }
    return sp;
  }

  /** Pushes the bytes {@code s} stands for (UTF-8, and raw bytes kept by SurrogateEscape). */
  private static long pushString(Memory mem, long p, String s) {
    byte[] b = SurrogateEscape.encode(s);
    p -= b.length + 1;
    mem.write(p, b, 0, b.length);
    mem.write(p + b.length, new byte[1], 0, 1);
    return p;
  }
}
