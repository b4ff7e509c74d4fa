package org.dise.runtime.elf;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * An object's DWARF line number information from its {@code .debug_line} section (DWARF 5 section
 * 6.2; versions 2 to 4 too), which {@code gcc -g} writes: for a pc, the source file and line it was
 * compiled from. Every unit's line number program is run into rows (the matrix of section 6.2.2);
 * {@link #lookup} finds the row of a pc. Strings of version 5's entry formats are read from {@code
 * .debug_line_str} and {@code .debug_str}. A malformed unit ends the table there: the rows before
 * it stay and {@link #problems} says what was wrong, so that a profile of the program still runs
 * without lines rather than failing.
 */
public final class LineTable {
  /**
   * One row of the matrix: the first pc of an instruction (or, with {@code endSequence}, the first
   * pc after a sequence), its source {@code path} (the directory joined to the file name, as the
   * compiler saw it), {@code name} as the file table wrote it, line and column (0: unknown), and
   * whether it is a recommended breakpoint (is_stmt).
   */
  public record Row(
      long address,
      String path,
      String name,
      int line,
      int column,
      boolean isStmt,
      boolean endSequence) {}

  /** A pc's source position: {@code path} for tools that open the file, {@code name} to show. */
  public record SourceLine(String path, String name, int line) {
    /** {@code lines.c:12}. */
    @Override
    public String toString() {
      return name + ":" + line;
    }
  }

  public static final LineTable EMPTY = new LineTable(List.of(), List.of());

  // Standard opcodes (DWARF 5 section 6.2.5.2).
  private static final int DW_LNS_COPY = 1;
  private static final int DW_LNS_ADVANCE_PC = 2;
  private static final int DW_LNS_ADVANCE_LINE = 3;
  private static final int DW_LNS_SET_FILE = 4;
  private static final int DW_LNS_SET_COLUMN = 5;
  private static final int DW_LNS_NEGATE_STMT = 6;
  private static final int DW_LNS_SET_BASIC_BLOCK = 7;
  private static final int DW_LNS_CONST_ADD_PC = 8;
  private static final int DW_LNS_FIXED_ADVANCE_PC = 9;
  private static final int DW_LNS_SET_PROLOGUE_END = 10;
  private static final int DW_LNS_SET_EPILOGUE_BEGIN = 11;
  private static final int DW_LNS_SET_ISA = 12;
  // Extended opcodes (6.2.5.3).
  private static final int DW_LNE_END_SEQUENCE = 1;
  private static final int DW_LNE_SET_ADDRESS = 2;
  private static final int DW_LNE_DEFINE_FILE = 3;
  // Entry format content types (6.2.4.1).
  private static final int DW_LNCT_PATH = 1;
  private static final int DW_LNCT_DIRECTORY_INDEX = 2;
  // Attribute forms (7.5.6) a version 5 entry format may use.
  private static final int DW_FORM_DATA2 = 0x05;
  private static final int DW_FORM_DATA4 = 0x06;
  private static final int DW_FORM_DATA8 = 0x07;
  private static final int DW_FORM_STRING = 0x08;
  private static final int DW_FORM_BLOCK = 0x09;
  private static final int DW_FORM_DATA1 = 0x0b;
  private static final int DW_FORM_STRP = 0x0e;
  private static final int DW_FORM_UDATA = 0x0f;
  private static final int DW_FORM_DATA16 = 0x1e;
  private static final int DW_FORM_LINE_STRP = 0x1f;

  private final List<Row> rows;
  private final List<String> problems;

  /** The rows by address, end-of-sequence rows before others at an address, for lookup. */
  private final Row[] sorted;

  private final long[] starts;

  private LineTable(List<Row> rows, List<String> problems) {
    this.rows = Collections.unmodifiableList(rows);
    this.problems = List.copyOf(problems);
    // A pc takes the last row at its address (several rows at one address are views of the same
    // instruction); a sequence ending where another starts gives way to the new one.
    Integer[] order = new Integer[rows.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(
        order,
        (a, b) -> {
          Row x = rows.get(a);
          Row y = rows.get(b);
          int c = Long.compareUnsigned(x.address(), y.address());
          if (c != 0) {
            return c;
          }
          if (x.endSequence() != y.endSequence()) {
            return x.endSequence() ? -1 : 1;
          }
          return Integer.compare(a, b);
        });
    this.sorted = new Row[order.length];
    this.starts = new long[order.length];
    for (int i = 0; i < order.length; i++) {
      sorted[i] = rows.get(order[i]);
      starts[i] = sorted[i].address();
    }
  }

  /**
   * Reads {@code elf}'s {@code .debug_line} at link-time addresses (add the load bias); {@link
   * #EMPTY} when it has none (a program built without {@code -g}).
   */
  public static LineTable of(ElfFile elf) {
    ElfFile.Section s = elf.section(".debug_line");
    if (s == null || s.size() == 0) {
      return EMPTY;
    }
    return parse(
        s.bytes(elf.bytes()),
        sectionBytes(elf, ".debug_line_str"),
        sectionBytes(elf, ".debug_str"));
  }

  private static byte[] sectionBytes(ElfFile elf, String name) {
    ElfFile.Section s = elf.section(name);
    return s == null ? new byte[0] : s.bytes(elf.bytes());
  }

  /** Runs every unit's line number program of a {@code .debug_line} section. */
  public static LineTable parse(byte[] debugLine, byte[] debugLineStr, byte[] debugStr) {
    List<Row> rows = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    Reader r = new Reader(debugLine, 0);
    while (r.pos < debugLine.length) {
      int unit = r.pos;
      try {
        r.pos = new Unit(r, debugLineStr, debugStr).run(rows);
      } catch (Malformed | IndexOutOfBoundsException e) {
        problems.add(
            String.format(
                ".debug_line unit at 0x%x: %s",
                unit, e instanceof Malformed ? e.getMessage() : "truncated"));
        break;
      }
    }
    return new LineTable(rows, problems);
  }

  /** The rows in the order the programs produced them (what {@code objdump} prints). */
  public List<Row> rows() {
    return rows;
  }

  /** What could not be read (empty when the whole section was read). */
  public List<String> problems() {
    return problems;
  }

  public boolean isEmpty() {
    return rows.isEmpty();
  }

  /** The source line of {@code pc}: the row at or before it, in a sequence that covers it. */
  public Optional<SourceLine> lookup(long pc) {
    int i = Arrays.binarySearch(starts, pc);
    if (i < 0) {
      i = -i - 2;
    } else {
      while (i + 1 < starts.length && starts[i + 1] == pc) {
        i++;
      }
    }
    if (i < 0 || sorted[i].endSequence() || sorted[i].line() == 0) {
      return Optional.empty();
    }
    Row row = sorted[i];
    return Optional.of(new SourceLine(row.path(), row.name(), row.line()));
  }

  /** The same rows moved by {@code bias} (where the object was loaded). */
  public LineTable rebased(long bias) {
    if (bias == 0 || rows.isEmpty()) {
      return this;
    }
    List<Row> moved = new ArrayList<>(rows.size());
    for (Row r : rows) {
      moved.add(
          new Row(
              r.address() + bias,
              r.path(),
              r.name(),
              r.line(),
              r.column(),
              r.isStmt(),
              r.endSequence()));
    }
    return new LineTable(moved, problems);
  }

  /** A unit's header is malformed or uses what this reader does not know. */
  private static final class Malformed extends Exception {
    Malformed(String message) {
      super(message, null, false, false);
    }
  }

  /** One unit: its header (6.2.4) and where its line number program lies. */
  private static final class Unit {
    private final Reader r;
    private final int end;
    private final int version;
    private final int addressSize;
    private final int minInstLength;
    private final int maxOps;
    private final boolean defaultIsStmt;
    private final int lineBase;
    private final int lineRange;
    private final int opcodeBase;
    private final int[] standardLengths;
    private final List<String> directories = new ArrayList<>();
    private final List<String[]> files = new ArrayList<>(); // {path, name}
    private final boolean offset64;
    private final byte[] lineStr;
    private final byte[] str;
    private final int program;

    Unit(Reader r, byte[] lineStr, byte[] str) throws Malformed {
      this.r = r;
      this.lineStr = lineStr;
      this.str = str;
      long length = r.u32();
      offset64 = length == 0xffff_ffffL;
      if (offset64) {
        length = r.u64();
      }
      if (length < 0 || r.pos + length > r.data.length) {
        throw new Malformed("unit length " + length + " runs past the section");
      }
      end = (int) (r.pos + length);
      version = r.u16();
      if (version < 2 || version > 5) {
        throw new Malformed("version " + version + " (this reader knows 2 to 5)");
      }
      if (version >= 5) {
        addressSize = r.u8();
        r.u8(); // segment_selector_size
      } else {
        addressSize = 8;
      }
      long headerLength = offset64 ? r.u64() : r.u32();
      program = (int) (r.pos + headerLength);
      minInstLength = r.u8();
      maxOps = version >= 4 ? Math.max(1, r.u8()) : 1;
      defaultIsStmt = r.u8() != 0;
      lineBase = (byte) r.u8();
      lineRange = r.u8();
      if (lineRange == 0) {
        throw new Malformed("line_range 0");
      }
      opcodeBase = r.u8();
      standardLengths = new int[Math.max(0, opcodeBase - 1)];
      for (int i = 0; i < standardLengths.length; i++) {
        standardLengths[i] = r.u8();
      }
      if (version >= 5) {
        readEntries(true);
        readEntries(false);
      } else {
        readVersion4Tables();
      }
    }

    /** Version 2 to 4: include_directories and file_names, each ended by an empty entry. */
    private void readVersion4Tables() {
      directories.add(""); // index 0: the compilation directory, not written here
      for (String d = r.cstring(); !d.isEmpty(); d = r.cstring()) {
        directories.add(d);
      }
      files.add(null); // file numbers start at 1
      for (String f = r.cstring(); !f.isEmpty(); f = r.cstring()) {
        int dir = (int) r.uleb();
        r.uleb(); // modification time
        r.uleb(); // length
        files.add(file(f, dir));
      }
    }

    /** Version 5: a directory or file entry format, then the entries described by it. */
    private void readEntries(boolean directoryTable) throws Malformed {
      int formats = r.u8();
      long[][] format = new long[formats][];
      for (int i = 0; i < formats; i++) {
        format[i] = new long[] {r.uleb(), r.uleb()};
      }
      long count = r.uleb();
      for (long n = 0; n < count; n++) {
        String path = null;
        long dir = 0;
        for (long[] f : format) {
          Object v = value((int) f[1]);
          if (f[0] == DW_LNCT_PATH && v instanceof String s) {
            path = s;
          } else if (f[0] == DW_LNCT_DIRECTORY_INDEX && v instanceof Long l) {
            dir = l;
          }
        }
        if (path == null) {
          throw new Malformed("an entry without a DW_LNCT_path");
        }
        if (directoryTable) {
          directories.add(path);
        } else {
          files.add(file(path, (int) dir));
        }
      }
    }

    /** {path, name}: the name joined to its directory unless it is absolute. */
    private String[] file(String name, int dir) {
      String d = dir >= 0 && dir < directories.size() ? directories.get(dir) : "";
      String path = name.startsWith("/") || d.isEmpty() ? name : d + "/" + name;
      return new String[] {path, name};
    }

    /** One attribute value of {@code form}: a String, a Long, or null for data it skips. */
    private Object value(int form) throws Malformed {
      switch (form) {
        case DW_FORM_STRING:
          return r.cstring();
        case DW_FORM_LINE_STRP:
          return Reader.cstring(lineStr, offset(), ".debug_line_str");
        case DW_FORM_STRP:
          return Reader.cstring(str, offset(), ".debug_str");
        case DW_FORM_UDATA:
          return r.uleb();
        case DW_FORM_DATA1:
          return (long) r.u8();
        case DW_FORM_DATA2:
          return (long) r.u16();
        case DW_FORM_DATA4:
          return r.u32();
        case DW_FORM_DATA8:
          return r.u64();
        case DW_FORM_DATA16: // an MD5 digest
          r.pos += 16;
          return null;
        case DW_FORM_BLOCK:
          r.pos += (int) r.uleb();
          return null;
        default:
          throw new Malformed(
              String.format("entry format uses form 0x%x, which is not read", form));
      }
    }

    private long offset() {
      return offset64 ? r.u64() : r.u32();
    }

    /** Runs the line number program into {@code rows}; returns the next unit's offset. */
    int run(List<Row> rows) throws Malformed {
      r.pos = program;
      long address = 0;
      int opIndex = 0;
      int file = 1;
      int line = 1;
      int column = 0;
      boolean isStmt = defaultIsStmt;
      while (r.pos < end) {
        int op = r.u8();
        if (op >= opcodeBase) {
          // A special opcode: advance address and line, then append a row (6.2.5.1).
          int adjusted = op - opcodeBase;
          address += advance(opIndex, adjusted / lineRange);
          opIndex = nextOpIndex(opIndex, adjusted / lineRange);
          line += lineBase + adjusted % lineRange;
          rows.add(row(address, file, line, column, isStmt, false));
          continue;
        }
        switch (op) {
          case 0 -> {
            long len = r.uleb();
            int next = (int) (r.pos + len);
            if (len == 0 || next > end) {
              throw new Malformed(String.format("extended opcode at 0x%x: length %d", r.pos, len));
            }
            int sub = r.u8();
            if (sub == DW_LNE_END_SEQUENCE) {
              rows.add(row(address, file, line, column, isStmt, true));
              address = 0;
              opIndex = 0;
              file = 1;
              line = 1;
              column = 0;
              isStmt = defaultIsStmt;
            } else if (sub == DW_LNE_SET_ADDRESS) {
              int size = (int) len - 1;
              address = size == 4 ? r.u32() : size == 8 ? r.u64() : addressOf(size);
              opIndex = 0;
            } else if (sub == DW_LNE_DEFINE_FILE && version <= 4) {
              String name = r.cstring();
              int dir = (int) r.uleb();
              files.add(file(name, dir));
            }
            // Others (DW_LNE_set_discriminator, vendor opcodes) change nothing a row keeps.
            r.pos = next;
          }
          case DW_LNS_COPY -> rows.add(row(address, file, line, column, isStmt, false));
          case DW_LNS_ADVANCE_PC -> {
            long n = r.uleb();
            address += advance(opIndex, n);
            opIndex = nextOpIndex(opIndex, n);
          }
          case DW_LNS_ADVANCE_LINE -> line += (int) r.sleb();
          case DW_LNS_SET_FILE -> file = (int) r.uleb();
          case DW_LNS_SET_COLUMN -> column = (int) r.uleb();
          case DW_LNS_NEGATE_STMT -> isStmt = !isStmt;
          case DW_LNS_SET_BASIC_BLOCK, DW_LNS_SET_PROLOGUE_END, DW_LNS_SET_EPILOGUE_BEGIN -> {}
          case DW_LNS_CONST_ADD_PC -> {
            int n = (255 - opcodeBase) / lineRange;
            address += advance(opIndex, n);
            opIndex = nextOpIndex(opIndex, n);
          }
          case DW_LNS_FIXED_ADVANCE_PC -> {
            address += r.u16();
            opIndex = 0;
          }
          case DW_LNS_SET_ISA -> r.uleb();
          default -> {
            // A standard opcode this reader does not know: skip its ULEB128 operands.
            for (int i = 0; i < standardLengths[op - 1]; i++) {
              r.uleb();
            }
          }
        }
      }
      return end;
    }

    /** The address advance of an operation advance {@code n} (6.2.5.1; VLIW op_index aware). */
    private long advance(int opIndex, long n) {
      return minInstLength * ((opIndex + n) / maxOps);
    }

    private int nextOpIndex(int opIndex, long n) {
      return (int) ((opIndex + n) % maxOps);
    }

    private long addressOf(int size) throws Malformed {
      if (size < 1 || size > 8) {
        throw new Malformed("DW_LNE_set_address of " + size + " bytes");
      }
      long a = 0;
      for (int i = 0; i < size; i++) {
        a |= (long) r.u8() << (8 * i);
      }
      return a;
    }

    private Row row(long address, int file, int line, int column, boolean isStmt, boolean end)
        throws Malformed {
      if (file < 0 || file >= files.size() || files.get(file) == null) {
        throw new Malformed("file number " + file + " is not in the file table");
      }
      String[] f = files.get(file);
      return new Row(address, f[0], f[1], line, column, isStmt, end);
    }
  }

  /** {@link DwarfBytes} with strings read from another section by offset. */
  private static final class Reader extends DwarfBytes {
    Reader(byte[] data, int pos) {
      super(data, pos);
    }

    static String cstring(byte[] in, long offset, String section) throws Malformed {
      if (offset < 0 || offset >= in.length) {
        throw new Malformed(String.format("offset 0x%x is outside %s", offset, section));
      }
      return new Reader(in, (int) offset).cstring();
    }
  }
}
