package org.dise.runtime.elf;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A parsed ELF64 little-endian RISC-V executable: header, program headers, function symbols. */
public final class ElfFile {
  public static final int ET_EXEC = 2;
  public static final int ET_DYN = 3;
  public static final int EM_RISCV = 243;

  /** Where a position-independent (static-PIE) program is loaded. */
  public static final long PIE_BASE = 0x4000_0000L;

  private final Path path;
  private final byte[] bytes;
  private final int type;
  private final long entry;
  private final long phoff;
  private final int phentsize;
  private final List<Segment> segments;
  private final long shoff;
  private final int shentsize;
  private final int shnum;

  /** The program interpreter PT_INTERP names (the dynamic linker), or null for a static program. */
  private final String interpreter;

  // Read on first use: a plain run never names a pc, and building these was about 15 ms of a
  // hello run's start-up.
  private SymbolTable symbols;
  private List<ProgramSymbols.Entry> named;
  private ProgramSymbols programSymbols;

  private ElfFile(Path path, byte[] bytes) throws ElfException {
    this.path = path;
    this.bytes = bytes;
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    if (bytes.length < 4
        || bytes[0] != 0x7f
        || bytes[1] != 'E'
        || bytes[2] != 'L'
        || bytes[3] != 'F') {
      throw new ElfException("not an ELF file (no \\x7fELF magic)");
    }
    if (bytes.length < 64) {
      throw new ElfException("truncated ELF file: " + bytes.length + " bytes, header needs 64");
    }
    if (bytes[4] != 2) {
      throw new ElfException("not a 64-bit ELF file (EI_CLASS=" + bytes[4] + ")");
    }
    if (bytes[5] != 1) {
      throw new ElfException("not a little-endian ELF file");
    }
    int machine = b.getShort(18) & 0xffff;
    if (machine != EM_RISCV) {
      throw new ElfException(
          "not a RISC-V program: e_machine is "
              + machine
              + " ("
              + machineName(machine)
              + "), expected 243 (RISC-V)");
    }
    this.type = b.getShort(16) & 0xffff;
    if (type != ET_EXEC && type != ET_DYN) {
      throw new ElfException("not an executable (e_type=" + type + ")");
    }
    this.entry = b.getLong(24);
    this.phoff = b.getLong(32);
    this.shoff = b.getLong(40);
    this.phentsize = b.getShort(54) & 0xffff;
    int phnum = b.getShort(56) & 0xffff;
    this.shentsize = b.getShort(58) & 0xffff;
    this.shnum = b.getShort(60) & 0xffff;
    if (phnum == 0) {
      throw new ElfException("no program headers");
    }
    if (phentsize < 56 || phoff < 0 || phoff > bytes.length - (long) phnum * phentsize) {
      throw new ElfException(
          "truncated ELF file: program headers end at "
              + (phoff + (long) phnum * phentsize)
              + " but the file has "
              + bytes.length
              + " bytes");
    }
    List<Segment> segs = new ArrayList<>();
    String interp = null;
    for (int i = 0; i < phnum; i++) {
      int o = (int) (phoff + (long) i * phentsize);
      Segment s =
          new Segment(
              b.getInt(o),
              b.getInt(o + 4),
              b.getLong(o + 8),
              b.getLong(o + 16),
              b.getLong(o + 32),
              b.getLong(o + 40),
              b.getLong(o + 48));
      if (s.type() == Segment.PT_INTERP) {
        if (s.offset() < 0
            || s.fileSize() <= 0
            || s.fileSize() > 4096
            || s.offset() > bytes.length - s.fileSize()) {
          throw new ElfException(
              "corrupt ELF file: the interpreter's name (PT_INTERP) lies outside the file");
        }
        interp = cstring((int) s.offset());
        if (interp.isEmpty()) {
          throw new ElfException("corrupt ELF file: the interpreter's name (PT_INTERP) is empty");
        }
      }
      if (s.type() == Segment.PT_LOAD
          && (s.offset() < 0
              || s.fileSize() < 0
              || s.offset() > bytes.length
              || s.fileSize() > bytes.length - s.offset())) {
        throw new ElfException(
            "truncated ELF file: segment "
                + i
                + " needs bytes up to "
                + (s.offset() + s.fileSize())
                + " but the file has "
                + bytes.length);
      }
      if (s.type() == Segment.PT_LOAD && s.memSize() < s.fileSize()) {
        throw new ElfException("corrupt ELF file: segment " + i + " has memsz < filesz");
      }
      segs.add(s);
    }
    this.segments = List.copyOf(segs);
    this.interpreter = interp;
  }

  /** Reads the symbol table the first time a caller asks for symbols. */
  private synchronized void loadSymbols() {
    if (symbols == null) {
      named = new ArrayList<>();
      ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
      SymbolTable table = readSymbols(b, shoff, shentsize, shnum);
      programSymbols = new ProgramSymbols(named);
      table.addLines(this, 0);
      symbols = table;
    }
  }

  /** The largest program file read: programs are read whole, into the tool's heap. */
  public static final long MAX_FILE = 1L << 30;

  /** Reads and validates a program file. */
  public static ElfFile read(Path path) throws IOException, ElfException {
    if (!Files.isRegularFile(path)) {
      if (!Files.exists(path)) {
        throw new java.nio.file.NoSuchFileException(path.toString());
      }
      throw new ElfException(
          Files.isDirectory(path)
              ? "is a directory, not a program"
              : "not a regular file (a device or pipe), so not a program");
    }
    long size = Files.size(path);
    if (size > MAX_FILE) {
      throw new ElfException(
          String.format(
              "the file is %,d bytes; programs over %,d bytes" + " (1 GiB) are not loaded",
              size, MAX_FILE));
    }
    return new ElfFile(path, Files.readAllBytes(path));
  }

  public static ElfFile parse(byte[] bytes) throws ElfException {
    return new ElfFile(null, bytes);
  }

  private SymbolTable readSymbols(ByteBuffer b, long shoff, int shentsize, int shnum) {
    // Symbols are optional (a stripped binary still runs), so damage here is not an error.
    if (shoff <= 0
        || shnum == 0
        || shentsize < 64
        || shoff + (long) shnum * shentsize > bytes.length) {
      return SymbolTable.empty();
    }
    List<Symbol> syms = new ArrayList<>();
    // The full table (.symtab) when there is one; else the dynamic one (.dynsym), all a
    // stripped shared library such as the sysroot's libc.so.6 keeps.
    int wanted = 11; // SHT_DYNSYM
    for (int i = 0; i < shnum; i++) {
      if (b.getInt((int) (shoff + (long) i * shentsize) + 4) == 2) { // SHT_SYMTAB
        wanted = 2;
      }
    }
    try {
      for (int i = 0; i < shnum; i++) {
        int o = (int) (shoff + (long) i * shentsize);
        int shType = b.getInt(o + 4);
        if (shType != wanted) {
          continue;
        }
        long off = b.getLong(o + 24);
        long size = b.getLong(o + 32);
        int link = b.getInt(o + 40);
        long entsize = b.getLong(o + 56);
        int so = (int) (shoff + (long) link * shentsize);
        long strOff = b.getLong(so + 24);
        long strSize = b.getLong(so + 32);
        if (entsize < 24 || off + size > bytes.length || strOff + strSize > bytes.length) {
          continue;
        }
        for (long e = off; e + 24 <= off + size; e += entsize) {
          int name = b.getInt((int) e);
          int info = b.get((int) e + 4) & 0xff;
          int shndx = b.getShort((int) e + 6) & 0xffff;
          long value = b.getLong((int) e + 8);
          long sz = b.getLong((int) e + 16);
          int symType = info & 0xf;
          if ((symType == 2 || symType == 10) && shndx != 0 && name < strSize) { // FUNC, IFUNC
            syms.add(new Symbol(cstring((int) (strOff + name)), value, sz));
          }
          // Functions, objects and untyped markers by name, for symbol(NAME) in ACFs.
          if (symType <= 2 || symType == 10) {
            nameSymbol(name, strOff, strSize, info, shndx, value, sz);
          }
        }
      }
      pltSymbols(b, syms);
    } catch (IndexOutOfBoundsException e) {
      return new SymbolTable(syms);
    }
    return new SymbolTable(syms);
  }

  /** RISC-V's PLT: a 32-byte header, then one 16-byte stub per .rela.plt entry, in order. */
  private static final int PLT_HEADER = 32;

  private static final int PLT_ENTRY = 16;

  /**
   * Names the PLT stubs a dynamically linked object calls library functions through ({@code
   * printf@plt}, as objdump does), from .rela.plt's R_RISCV_JUMP_SLOT relocations and the dynamic
   * symbols they name; they have no symbol of their own.
   */
  private void pltSymbols(ByteBuffer b, List<Symbol> syms) {
    int shstrndx = b.getShort(62) & 0xffff;
    if (shstrndx == 0 || shstrndx >= shnum) {
      return;
    }
    long names = b.getLong((int) (shoff + (long) shstrndx * shentsize) + 24);
    long plt = -1;
    long pltSize = 0;
    int rela = -1;
    for (int i = 0; i < shnum; i++) {
      int o = (int) (shoff + (long) i * shentsize);
      String n = cstring((int) (names + b.getInt(o)));
      if (n.equals(".plt")) {
        plt = b.getLong(o + 16);
        pltSize = b.getLong(o + 32);
      } else if (n.equals(".rela.plt")) {
        rela = o;
      }
    }
    if (plt < 0 || rela < 0) {
      return;
    }
    long off = b.getLong(rela + 24);
    long size = b.getLong(rela + 32);
    int dynsym = b.getInt(rela + 40);
    int so = (int) (shoff + (long) dynsym * shentsize);
    long symOff = b.getLong(so + 24);
    long symEnt = Math.max(24, b.getLong(so + 56));
    int str = b.getInt(so + 40);
    long strOff = b.getLong((int) (shoff + (long) str * shentsize) + 24);
    for (long i = 0; 24 * i + 24 <= size; i++) {
      long info = b.getLong((int) (off + 24 * i + 8));
      long stub = plt + PLT_HEADER + PLT_ENTRY * i;
      if ((info & 0xffffffffL) != 5 || stub + PLT_ENTRY > plt + pltSize) { // R_RISCV_JUMP_SLOT
        continue;
      }
      int name = b.getInt((int) (symOff + symEnt * (info >>> 32)));
      String n = cstring((int) (strOff + name));
      if (!n.isEmpty()) {
        syms.add(new Symbol(n + "@plt", stub, PLT_ENTRY));
      }
    }
  }

  private void nameSymbol(
      int name, long strOff, long strSize, int info, int shndx, long value, long size) {
    if (shndx == 0 || name == 0 || name >= strSize) {
      return; // undefined or unnamed
    }
    int type = info & 0xf;
    ProgramSymbols.Kind kind =
        type == 1
            ? ProgramSymbols.Kind.OBJECT
            : type == 0 ? ProgramSymbols.Kind.NOTYPE : ProgramSymbols.Kind.FUNC;
    int bind = info >>> 4;
    String n = cstring((int) (strOff + name));
    // Assemblers' local labels ($x, .L...) are not program symbols.
    if (n.isEmpty() || n.startsWith(".L") || n.startsWith("$")) {
      return;
    }
    named.add(new ProgramSymbols.Entry(n, value, size, kind, bind == 1 || bind == 2));
  }

  private String cstring(int at) {
    int end = at;
    while (end < bytes.length && bytes[end] != 0) {
      end++;
    }
    return new String(bytes, at, end - at, StandardCharsets.UTF_8);
  }

  private static String machineName(int m) {
    return switch (m) {
      case 3 -> "x86";
      case 62 -> "x86-64";
      case 40 -> "ARM";
      case 183 -> "AArch64";
      case 8 -> "MIPS";
      case 21 -> "PowerPC64";
      default -> "unknown";
    };
  }

  public Path path() {
    return path;
  }

  public byte[] bytes() {
    return bytes;
  }

  public int type() {
    return type;
  }

  /** True for a position-independent (static-PIE) executable, which is loaded at a bias. */
  public boolean isPie() {
    return type == ET_DYN;
  }

  public long entry() {
    return entry;
  }

  public long phoff() {
    return phoff;
  }

  public int phentsize() {
    return phentsize;
  }

  public List<Segment> segments() {
    return segments;
  }

  public SymbolTable symbols() {
    loadSymbols();
    return symbols;
  }

  private LineTable lines;

  /**
   * The {@code .debug_line} table at link-time addresses, read the first time a caller asks (a
   * report naming source lines); {@link LineTable#EMPTY} for a program built without {@code -g}.
   */
  public synchronized LineTable lineTable() {
    if (lines == null) {
      lines = LineTable.of(this);
    }
    return lines;
  }

  /** Every named function, object and marker, at link-time addresses (see {@link #loadBias}). */
  public ProgramSymbols programSymbols() {
    loadSymbols();
    return programSymbols;
  }

  /** The dynamic linker this program names (PT_INTERP), or null when it is statically linked. */
  public String interpreter() {
    return interpreter;
  }

  /** True for a program that needs the dynamic linker (it has PT_INTERP). */
  public boolean isDynamic() {
    return interpreter != null;
  }

  /**
   * The object's own name (DT_SONAME of its dynamic section: {@code libc.so.6}), or null when it
   * has none (a program, a library linked without -soname).
   */
  public String soname() {
    List<String> v = dynamicStrings(14); // DT_SONAME
    return v.isEmpty() ? null : v.get(0);
  }

  /** The libraries this object asks the dynamic linker for (DT_NEEDED), in order. */
  public List<String> needed() {
    return dynamicStrings(1); // DT_NEEDED
  }

  /** The strings the dynamic section's entries of type {@code tag} name; empty when none. */
  private List<String> dynamicStrings(long tag) {
    List<String> out = new ArrayList<>();
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    for (Segment s : segments) {
      if (s.type() != 2) { // PT_DYNAMIC
        continue;
      }
      long strtab = -1;
      List<Long> offsets = new ArrayList<>();
      for (long e = s.offset();
          e + 16 <= s.offset() + s.fileSize() && e + 16 <= bytes.length;
          e += 16) {
        long t = b.getLong((int) e);
        long v = b.getLong((int) e + 8);
        if (t == 0) {
          break;
        } else if (t == 5) { // DT_STRTAB, an address: the file offset is found through PT_LOAD
          strtab = fileOffset(v);
        } else if (t == tag) {
          offsets.add(v);
        }
      }
      for (long o : offsets) {
        if (strtab >= 0 && o >= 0 && strtab + o < bytes.length) {
          out.add(cstring((int) (strtab + o)));
        }
      }
    }
    return out;
  }

  /**
   * A section by name: its link-time address, file offset and size, or null when the object has no
   * such section (or no section headers: they are optional for running).
   */
  public Section section(String name) {
    java.util.Map<String, Section> m = sections();
    return m.get(name);
  }

  /** A section header's figures (ELF64 {@code sh_addr}, {@code sh_offset}, {@code sh_size}). */
  public record Section(String name, long address, long offset, long size) {
    /** The section's bytes in the file (empty for SHT_NOBITS or when out of the file). */
    public byte[] bytes(byte[] file) {
      if (offset < 0 || size <= 0 || offset + size > file.length) {
        return new byte[0];
      }
      return java.util.Arrays.copyOfRange(file, (int) offset, (int) (offset + size));
    }
  }

  private java.util.Map<String, Section> sections;

  private synchronized java.util.Map<String, Section> sections() {
    if (sections != null) {
      return sections;
    }
    java.util.Map<String, Section> m = new java.util.LinkedHashMap<>();
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    int shstrndx = bytes.length >= 64 ? b.getShort(62) & 0xffff : 0;
    if (shoff > 0
        && shnum > 0
        && shentsize >= 64
        && shstrndx < shnum
        && shoff + (long) shnum * shentsize <= bytes.length) {
      long names = b.getLong((int) (shoff + (long) shstrndx * shentsize) + 24);
      for (int i = 0; i < shnum; i++) {
        int o = (int) (shoff + (long) i * shentsize);
        long nameAt = names + (b.getInt(o) & 0xffffffffL);
        if (nameAt >= bytes.length) {
          continue;
        }
        int type = b.getInt(o + 4);
        long size = type == 8 ? 0 : b.getLong(o + 32); // SHT_NOBITS has no file bytes
        String n = cstring((int) nameAt);
        m.putIfAbsent(n, new Section(n, b.getLong(o + 16), b.getLong(o + 24), size));
      }
    }
    sections = m;
    return m;
  }

  /** The file offset of link-time address {@code vaddr}, or -1 when no segment holds it. */
  public long fileOffset(long vaddr) {
    for (Segment s : segments) {
      if (s.type() == Segment.PT_LOAD && vaddr >= s.vaddr() && vaddr < s.vaddr() + s.fileSize()) {
        return s.offset() + (vaddr - s.vaddr());
      }
    }
    return -1;
  }

  /** Where the loader puts a position-independent program (0 for a fixed-address one). */
  public long loadBias() {
    return isPie() ? PIE_BASE : 0;
  }
}
