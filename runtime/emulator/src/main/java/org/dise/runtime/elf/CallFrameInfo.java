package org.dise.runtime.elf;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An object's DWARF call frame information from its {@code .eh_frame} section (DWARF 5 section 6.4,
 * with the LSB's {@code .eh_frame} encodings), which riscv64 gcc emits for every function by
 * default: for a pc, where its caller's registers and return address are saved. {@link #rowAt} runs
 * the CIE's and FDE's call frame instructions up to the pc and returns the row of the table, enough
 * to unwind one frame. Expressions ({@code DW_CFA_def_cfa_expression}, {@code DW_CFA_expression})
 * are not evaluated: a row that needs one says so and the caller falls back.
 */
public final class CallFrameInfo {
  /** How a register of the caller is recovered (DWARF's register rules). */
  public enum Rule {
    /** Not saved and not changed: the caller's value is the callee's (the default). */
    SAME,
    /** Not recoverable ({@code DW_CFA_undefined}; on the return address: the outermost frame). */
    UNDEFINED,
    /** Saved at CFA + n. */
    OFFSET,
    /** The value CFA + n itself. */
    VAL_OFFSET,
    /** In register n. */
    REGISTER,
    /** Given by a DWARF expression, which this reader does not evaluate. */
    EXPRESSION
  }

  /** Integer registers x0..x31 are DWARF columns 0..31; f0..f31 are 32..63. */
  public static final int COLUMNS = 64;

  /**
   * One row of the unwind table at a pc: CFA = register {@code cfaRegister} + {@code cfaOffset}
   * (unless {@code cfaExpression}), and a rule per column; {@code returnColumn} is the column
   * holding the return address, {@code function} the FDE's first pc (the function's entry).
   */
  public record Row(
      long function,
      int cfaRegister,
      long cfaOffset,
      boolean cfaExpression,
      Rule[] rules,
      long[] values,
      int returnColumn) {}

  /** A CIE: what its FDEs share. */
  private record Cie(
      long codeAlign,
      long dataAlign,
      int returnColumn,
      int fdeEncoding,
      boolean signalFrame,
      int instructions,
      int end) {}

  /** An FDE: the pcs [start, end) it covers, its CIE and its instructions in the section. */
  private record Fde(long start, long end, Cie cie, int instructions, int stop, CallFrameInfo in) {}

  private final byte[] data;
  private final long sectionAddress;
  private final Fde[] fdes;

  private CallFrameInfo(byte[] data, long sectionAddress, Fde[] fdes) {
    this.data = data;
    this.sectionAddress = sectionAddress;
    this.fdes = fdes;
  }

  /** The FDEs of both, each run over its own section's bytes. */
  private CallFrameInfo(CallFrameInfo a, CallFrameInfo b) {
    this.data = new byte[0];
    this.sectionAddress = 0;
    List<Fde> all = new ArrayList<>();
    for (Fde f : a.fdes) {
      all.add(f.in == null ? new Fde(f.start, f.end, f.cie, f.instructions, f.stop, a) : f);
    }
    for (Fde f : b.fdes) {
      all.add(f.in == null ? new Fde(f.start, f.end, f.cie, f.instructions, f.stop, b) : f);
    }
    this.fdes = all.toArray(Fde[]::new);
    Arrays.sort(this.fdes, (x, y) -> Long.compareUnsigned(x.start, y.start));
  }

  /** An object without CFI: every lookup misses. */
  public static final CallFrameInfo EMPTY = new CallFrameInfo(new byte[0], 0, new Fde[0]);

  /**
   * Reads {@code elf}'s {@code .eh_frame} at link-time addresses (add the load bias); {@link
   * #EMPTY} when it has none. A malformed entry ends the table there: the entries before it stay.
   */
  public static CallFrameInfo of(ElfFile elf) {
    ElfFile.Section s = elf.section(".eh_frame");
    CallFrameInfo eh =
        s == null || s.size() == 0 ? EMPTY : parse(s.bytes(elf.bytes()), s.address(), false);
    // gcc without unwind tables still writes CFI for -g builds, into .debug_frame.
    ElfFile.Section d = elf.section(".debug_frame");
    if (d == null || d.size() == 0) {
      return eh;
    }
    CallFrameInfo debug = parse(d.bytes(elf.bytes()), 0, true);
    return eh.size() == 0 ? debug : debug.size() == 0 ? eh : eh.with(debug);
  }

  /** Both tables: this one's FDE where both cover a pc. */
  private CallFrameInfo with(CallFrameInfo other) {
    return new CallFrameInfo(this, other);
  }

  /** Parses an {@code .eh_frame} section whose first byte is at link-time {@code address}. */
  public static CallFrameInfo parse(byte[] data, long address) {
    return parse(data, address, false);
  }

  /**
   * Parses {@code .eh_frame} ({@code debug} false: CIE id 0, CIE pointers relative, encoded
   * pointers) or {@code .debug_frame} ({@code debug} true: CIE id all ones, CIE pointers are
   * section offsets, addresses absolute).
   */
  static CallFrameInfo parse(byte[] data, long address, boolean debug) {
    List<Fde> fdes = new ArrayList<>();
    java.util.Map<Integer, Cie> cies = new java.util.HashMap<>();
    Reader r = new Reader(data, address);
    try {
      while (r.pos + 4 <= data.length) {
        int start = r.pos;
        long length = r.u32();
        if (length == 0) {
          break; // the terminator
        }
        if (length == 0xffffffffL) {
          length = r.u64();
        }
        int idAt = r.pos;
        long end = idAt + length;
        if (end > data.length || end < idAt + 4) {
          break;
        }
        long id = r.u32();
        if (debug ? id == 0xffffffffL : id == 0) {
          cies.put(start, readCie(r, (int) end));
        } else {
          int cieAt = (int) (debug ? id : idAt - id);
          Cie cie = cies.get(cieAt);
          if (cie == null) {
            int save = r.pos;
            r.pos = cieAt;
            r.u32(); // its length
            r.u32(); // its id (0)
            cie = readCie(r, data.length);
            cies.put(cieAt, cie);
            r.pos = save;
          }
          long pc = r.encoded(cie.fdeEncoding);
          long range = r.encoded(cie.fdeEncoding & 0x0f);
          if (cie.instructions < 0) { // augmentation 'z': skip the FDE's augmentation data
            r.pos += (int) r.uleb();
          }
          if (range > 0) {
            fdes.add(new Fde(pc, pc + range, cie, r.pos, (int) end, null));
          }
        }
        r.pos = (int) end;
      }
    } catch (IndexOutOfBoundsException | IllegalStateException e) {
      // A damaged entry: keep what was read before it.
    }
    Fde[] a = fdes.toArray(Fde[]::new);
    Arrays.sort(a, (x, y) -> Long.compareUnsigned(x.start, y.start));
    return new CallFrameInfo(data, address, a);
  }

  private static Cie readCie(Reader r, int end) {
    int version = r.u8();
    StringBuilder aug = new StringBuilder();
    for (int c = r.u8(); c != 0; c = r.u8()) {
      aug.append((char) c);
    }
    String a = aug.toString();
    if (a.contains("eh")) {
      r.u64();
    }
    if (version >= 4) {
      r.u8(); // address_size (8)
      r.u8(); // segment_selector_size
    }
    long codeAlign = r.uleb();
    long dataAlign = r.sleb();
    int ra = version == 1 ? r.u8() : (int) r.uleb();
    int fdeEncoding = 0; // absptr
    boolean signal = false;
    boolean z = a.startsWith("z");
    if (z) {
      long len = r.uleb();
      int after = r.pos + (int) len;
      for (int i = 1; i < a.length(); i++) {
        switch (a.charAt(i)) {
          case 'R' -> fdeEncoding = r.u8();
          case 'P' -> r.encoded(r.u8());
          case 'L' -> r.u8();
          case 'S' -> signal = true;
          default -> i = a.length(); // unknown: the length lets us skip the rest
        }
      }
      r.pos = after;
    }
    // A negative instructions offset marks 'z' (FDEs then carry augmentation data).
    return new Cie(codeAlign, dataAlign, ra, fdeEncoding, signal, z ? -r.pos - 1 : r.pos, end);
  }

  /** How many functions have CFI. */
  public int size() {
    return fdes.length;
  }

  /**
   * The row for {@code pc} (a link-time address), or null when no FDE covers it. For a caller's
   * frame pass its return address minus one, so that a call at the end of a function is looked up
   * in that function.
   */
  public Row rowAt(long pc) {
    int lo = 0;
    int hi = fdes.length - 1;
    Fde f = null;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      Fde m = fdes[mid];
      if (Long.compareUnsigned(pc, m.start) < 0) {
        hi = mid - 1;
      } else if (Long.compareUnsigned(pc, m.end) >= 0) {
        lo = mid + 1;
      } else {
        f = m;
        break;
      }
    }
    if (f == null) {
      return null;
    }
    if (f.in != null && f.in != this) {
      return f.in.rowAt(pc);
    }
    State s = new State();
    Cie c = f.cie;
    int cieStart = c.instructions < 0 ? -c.instructions - 1 : c.instructions;
    try {
      run(s, c, cieStart, c.end, Long.MAX_VALUE, f.start, null);
      State initial = s.copy();
      run(s, c, f.instructions, f.stop, pc, f.start, initial);
    } catch (IndexOutOfBoundsException | IllegalStateException e) {
      return null;
    }
    return new Row(
        f.start, s.cfaRegister, s.cfaOffset, s.cfaExpression, s.rules, s.values, c.returnColumn);
  }

  /** The table's state while instructions run. */
  private static final class State {
    int cfaRegister = 2;
    long cfaOffset;
    boolean cfaExpression;
    Rule[] rules = new Rule[COLUMNS];
    long[] values = new long[COLUMNS];

    State() {
      Arrays.fill(rules, Rule.SAME);
    }

    State copy() {
      State t = new State();
      t.cfaRegister = cfaRegister;
      t.cfaOffset = cfaOffset;
      t.cfaExpression = cfaExpression;
      t.rules = rules.clone();
      t.values = values.clone();
      return t;
    }
  }

  /**
   * Runs the instructions in [from, to) while the location is at most {@code pc}; {@code initial}
   * is the CIE's row, which {@code DW_CFA_restore} goes back to (null while running the CIE).
   */
  private void run(State s, Cie c, int from, int to, long pc, long loc, State initial) {
    Reader r = new Reader(data, sectionAddress);
    r.pos = from;
    List<State> saved = new ArrayList<>();
    while (r.pos < to) {
      int op = r.u8();
      int high = op & 0xc0;
      int low = op & 0x3f;
      long advance = -1;
      if (high == 0x40) {
        advance = low * c.codeAlign;
      } else if (high == 0x80) {
        set(s, low, Rule.OFFSET, r.uleb() * c.dataAlign);
      } else if (high == 0xc0) {
        restore(s, low, initial);
      } else {
        switch (low) {
          case 0x00 -> {} // nop
          case 0x01 -> {
            long to2 = r.encoded(c.fdeEncoding);
            if (Long.compareUnsigned(to2, pc) > 0) {
              return;
            }
            loc = to2;
          }
          case 0x02 -> advance = r.u8() * c.codeAlign;
          case 0x03 -> advance = r.u16() * c.codeAlign;
          case 0x04 -> advance = r.u32() * c.codeAlign;
          case 0x05 -> set(s, (int) r.uleb(), Rule.OFFSET, r.uleb() * c.dataAlign);
          case 0x06 -> restore(s, (int) r.uleb(), initial);
          case 0x07 -> set(s, (int) r.uleb(), Rule.UNDEFINED, 0);
          case 0x08 -> set(s, (int) r.uleb(), Rule.SAME, 0);
          case 0x09 -> set(s, (int) r.uleb(), Rule.REGISTER, r.uleb());
          case 0x0a -> saved.add(s.copy());
          case 0x0b -> {
            if (saved.isEmpty()) {
              throw new IllegalStateException("DW_CFA_restore_state without remember_state");
            }
            State t = saved.remove(saved.size() - 1);
            // The CFA rule is not part of the remembered state in every producer; gcc expects
            // it restored, as libgcc's unwinder does.
            s.cfaRegister = t.cfaRegister;
            s.cfaOffset = t.cfaOffset;
            s.cfaExpression = t.cfaExpression;
            s.rules = t.rules;
            s.values = t.values;
          }
          case 0x0c -> {
            s.cfaRegister = (int) r.uleb();
            s.cfaOffset = r.uleb();
            s.cfaExpression = false;
          }
          case 0x0d -> {
            s.cfaRegister = (int) r.uleb();
            s.cfaExpression = false;
          }
          case 0x0e -> s.cfaOffset = r.uleb();
          case 0x0f -> {
            r.pos += (int) r.uleb();
            s.cfaExpression = true;
          }
          case 0x10, 0x16 -> {
            int reg = (int) r.uleb();
            r.pos += (int) r.uleb();
            set(s, reg, Rule.EXPRESSION, 0);
          }
          case 0x11 -> set(s, (int) r.uleb(), Rule.OFFSET, r.sleb() * c.dataAlign);
          case 0x12 -> {
            s.cfaRegister = (int) r.uleb();
            s.cfaOffset = r.sleb() * c.dataAlign;
            s.cfaExpression = false;
          }
          case 0x13 -> s.cfaOffset = r.sleb() * c.dataAlign;
          case 0x14 -> set(s, (int) r.uleb(), Rule.VAL_OFFSET, r.uleb() * c.dataAlign);
          case 0x15 -> set(s, (int) r.uleb(), Rule.VAL_OFFSET, r.sleb() * c.dataAlign);
          case 0x2e -> r.uleb(); // DW_CFA_GNU_args_size
          case 0x2f -> set(s, (int) r.uleb(), Rule.OFFSET, -r.uleb() * c.dataAlign);
          default -> throw new IllegalStateException("unknown call frame instruction " + op);
        }
      }
      if (advance >= 0) {
        loc += advance;
        if (Long.compareUnsigned(loc, pc) > 0) {
          return; // the rest describes later pcs
        }
      }
    }
  }

  private static void set(State s, int column, Rule rule, long value) {
    if (column >= 0 && column < COLUMNS) {
      s.rules[column] = rule;
      s.values[column] = value;
    }
  }

  private static void restore(State s, int column, State initial) {
    if (column >= 0 && column < COLUMNS) {
      s.rules[column] = initial == null ? Rule.SAME : initial.rules[column];
      s.values[column] = initial == null ? 0 : initial.values[column];
    }
  }

  /** {@link DwarfBytes} with the {@code DW_EH_PE_*} pointer encodings. */
  private static final class Reader extends DwarfBytes {
    final long base;

    Reader(byte[] b, long base) {
      super(b, 0);
      this.base = base;
    }

    /** A pointer in encoding {@code enc}: its format (low nibble) and application (high). */
    long encoded(int enc) {
      if (enc == 0xff) {
        return 0; // DW_EH_PE_omit
      }
      long at = base + pos;
      long v =
          switch (enc & 0x0f) {
            case 0x00, 0x04 -> u64();
            case 0x01 -> uleb();
            case 0x02 -> u16();
            case 0x03 -> u32();
            case 0x09 -> sleb();
            case 0x0a -> (short) u16();
            case 0x0b -> (int) u32();
            case 0x0c -> u64();
            default -> throw new IllegalStateException("pointer encoding " + enc);
          };
      return switch (enc & 0x70) {
        case 0x00 -> v;
        case 0x10 -> at + v; // pcrel
        default -> throw new IllegalStateException("pointer encoding " + enc);
      };
    }
  }
}
