package org.dise.runtime.profiles.sink;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.dise.runtime.cpu.plan.GuestState;
import org.dise.runtime.elf.CallFrameInfo;
import org.dise.runtime.elf.ElfFile;
import org.dise.runtime.elf.LinkMap;
import org.dise.runtime.elf.Symbol;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.Decoder;
import org.dise.runtime.isa.Op;
import org.dise.runtime.isa.OpClass;
import org.dise.runtime.mem.Memory;

/**
 * Recovers the guest's call stack from its own registers and memory, as a sampling profiler does at
 * an interrupt: each frame is unwound with the call frame information ({@code .eh_frame}) of the
 * object that holds its pc, and where an object has none, by the return address register (the
 * innermost frame: a leaf) or the frame pointer ({@code s0}, gcc's frame record at {@code s0 - 16})
 * (spec/profiles.md, "Calling context").
 */
public final class GuestUnwinder {
  /** How one stack was recovered. */
  public enum Method {
    /** Every frame by call frame information, down to the outermost ({@code _start}). */
    CFI,
    /** Down to the outermost frame, some frames by prologue analysis or the frame pointer. */
    MIXED,
    /**
     * Stopped before the outermost frame (no rule, an unreadable slot): rooted where it stopped.
     */
    INCOMPLETE
  }

  /**
   * One recovered frame: the entry of its function, the address it returns to in its caller (-1 for
   * the outermost), and the stack pointer at its call (its CFA).
   */
  public record Frame(long function, long returnAddress, long sp) {}

  /** The recovered frames, the outermost first, and how. */
  public record Stack(List<Frame> frames, Method method) {}

  /** Deeper stacks are cut here (a corrupt chain must not loop). */
  static final int MAX_FRAMES = 4096;

  private final Map<ElfFile, CallFrameInfo> cfi = new IdentityHashMap<>();

  private static final int RA = 1;
  private static final int SP = 2;
  private static final int FP = 8;

  /**
   * The stack at {@code guest}'s state just before the instruction at {@code pc} executes; null
   * when the hart does not know its objects (a machine built without a link map).
   */
  public Stack unwind(GuestState guest, long pc) {
    LinkMap objects = guest.linkMap();
    if (objects == null) {
      return null;
    }
    Memory mem = guest.memory();
    long[] regs = new long[32];
    System.arraycopy(guest.x(), 0, regs, 0, 32);
    regs[0] = 0;
    boolean[] known = new boolean[32];
    java.util.Arrays.fill(known, true);
    List<Frame> inner = new ArrayList<>(); // innermost first
    boolean mixed = false;
    boolean outermost = false;
    long callerPc = pc;
    for (int depth = 0; depth < MAX_FRAMES; depth++) {
      // A caller's pc is a return address: look up the call before it.
      long lookup = depth == 0 ? callerPc : callerPc - 1;
      LinkMap.LoadedObject o = objects.objectAt(lookup).orElse(null);
      CallFrameInfo.Row row = null;
      if (o != null) {
        CallFrameInfo info = cfi.computeIfAbsent(o.elf(), CallFrameInfo::of);
        row = info.rowAt(lookup - o.bias());
      }
      long function = functionOf(objects, lookup, row, o);
      long cfa;
      long ret;
      long[] next = regs.clone();
      long[] step;
      boolean[] nextKnown = known.clone();
      if (row != null && !row.cfaExpression() && row.cfaRegister() < 32) {
        if (!known[row.cfaRegister()]) {
          break;
        }
        cfa = regs[row.cfaRegister()] + row.cfaOffset();
        boolean ok = true;
        for (int r = 1; r < 32; r++) {
          switch (row.rules()[r]) {
            case SAME -> {}
            case UNDEFINED, EXPRESSION -> nextKnown[r] = false;
            case OFFSET -> {
              Long v = read(mem, cfa + row.values()[r]);
              if (v == null) {
                ok = false;
              } else {
                next[r] = v;
                nextKnown[r] = true;
              }
            }
            case VAL_OFFSET -> {
              next[r] = cfa + row.values()[r];
              nextKnown[r] = true;
            }
            case REGISTER -> {
              int from = (int) row.values()[r];
              next[r] = from < 32 ? regs[from] : 0;
              nextKnown[r] = from < 32 && known[from];
            }
          }
        }
        int rc = row.returnColumn();
        if (rc >= 32 || row.rules()[rc] == CallFrameInfo.Rule.UNDEFINED) {
          inner.add(new Frame(function, -1, cfa));
          outermost = true; // _start marks the outermost frame so
          break;
        }
        if (!ok || !nextKnown[rc]) {
          inner.add(new Frame(function, -1, cfa));
          break;
        }
        ret = next[rc];
      } else if ((step = prologue(objects, mem, callerPc, depth == 0, regs, known)) != null) {
        // No CFI (gcc 12 for riscv64 emits none without -g or -fasynchronous-unwind-tables):
        // the frame read from the function's own prologue, as gdb does without CFI.
        mixed = true;
        cfa = step[0];
        ret = step[1];
        if (step[2] != NONE) {
          next[FP] = step[2];
          nextKnown[FP] = true;
        }
        nextKnown[RA] = false;
      } else if (known[FP] && Long.compareUnsigned(regs[FP], regs[SP]) > 0) {
        // No symbol either: gcc's frame record, the return address at s0 - 8, the caller's s0
        // at s0 - 16 (a build with -fno-omit-frame-pointer).
        mixed = true;
        cfa = regs[FP];
        Long r = read(mem, cfa - 8);
        Long f = read(mem, cfa - 16);
        if (r == null || f == null) {
          inner.add(new Frame(function, -1, cfa));
          break;
        }
        ret = r;
        next[FP] = f;
        nextKnown[RA] = false;
      } else {
        inner.add(new Frame(function, -1, regs[SP]));
        break;
      }
      // A frame must not sit below the one it returns from, and a chain must move.
      if (ret == 0 || Long.compareUnsigned(cfa, regs[SP]) < 0 || (cfa == regs[SP] && depth > 0)) {
        inner.add(new Frame(function, -1, cfa));
        break;
      }
      inner.add(new Frame(function, ret, cfa));
      next[SP] = cfa;
      nextKnown[SP] = true;
      regs = next;
      known = nextKnown;
      callerPc = ret;
    }
    List<Frame> frames = new ArrayList<>(inner.size());
    for (int i = inner.size() - 1; i >= 0; i--) {
      frames.add(inner.get(i));
    }
    Method m = !outermost ? Method.INCOMPLETE : mixed ? Method.MIXED : Method.CFI;
    return new Stack(frames, m);
  }

  private static final long NONE = Long.MIN_VALUE;

  /** The most instructions a prologue analysis decodes from a function's entry. */
  static final int PROLOGUE_LIMIT = 8192;

  /**
   * One frame from the code of the function holding {@code pc} (its symbol's entry to {@code pc}
   * decoded in address order), for code without CFI: {CFA, return address, caller's s0 or {@link
   * #NONE}}, or null when the code does not say. gcc's riscv64 prologue lowers {@code sp} ({@code
   * addi sp, sp, -N}, and for a large frame {@code add sp, sp, t0} with t0 built by {@code
   * lui}/{@code addi}) and stores {@code ra} and {@code s0} relative to it; its epilogue reloads
   * them and raises {@code sp} just before the return or tail call. So the scan keeps {@code sp}'s
   * distance below the CFA; a raise since the last control transfer means an epilogue is under way,
   * and after that transfer the code in address order runs with the full frame again.
   */
  private static long[] prologue(
      LinkMap objects, Memory mem, long pc, boolean innermost, long[] regs, boolean[] known) {
    long lookup = innermost ? pc : pc - 1;
    Symbol sym = objects.symbols().lookup(lookup).orElse(null);
    if (sym == null || !known[SP]) {
      return null;
    }
    long below = 0; // sp = CFA - below
    long frame = 0; // the most the prologue lowered sp
    long raSlot = NONE; // the slot's offset from the CFA
    long fpSlot = NONE;
    boolean released = false; // sp raised since the last transfer: an epilogue is under way
    long[] value = new long[33];
    boolean[] constant = new boolean[33];
    constant[0] = true;
    long a = sym.address();
    for (int n = 0; Long.compareUnsigned(a, pc) < 0 && n < PROLOGUE_LIMIT; n++) {
      DecodedInsn d = decode(mem, a);
      if (d == null) {
        return null;
      }
      long adjust = 0;
      boolean spWritten = false;
      if (d.exec == Op.ADDI && d.rd == SP && d.rs1 == SP) {
        adjust = d.imm;
        spWritten = true;
      } else if ((d.exec == Op.ADD || d.exec == Op.SUB) && d.rd == SP && d.rs1 == SP) {
        if (!constant[d.rs2]) {
          return null; // a frame of unknown size (alloca)
        }
        adjust = d.exec == Op.ADD ? value[d.rs2] : -value[d.rs2];
        spWritten = true;
      } else if (d.exec == Op.SD && d.rs1 == SP && !released) {
        if (d.rs2 == RA && raSlot == NONE && below > 0) {
          raSlot = d.imm - below;
        } else if (d.rs2 == FP && fpSlot == NONE && below > 0) {
          fpSlot = d.imm - below;
        }
      } else if (d.op.opClass() == OpClass.BRANCH || d.exec == Op.JAL || d.exec == Op.JALR) {
        if (released) {
          below = frame; // the code after an epilogue's return runs in the full frame
          released = false;
        }
      } else if (d.rd == SP) {
        return null; // sp set some other way (mv sp, s0 after alloca)
      }
      if (spWritten) {
        below -= adjust;
        if (adjust < 0) {
          frame = Math.max(frame, below);
        } else if (adjust > 0) {
          released = true;
        }
      }
      // Constants in registers, for a large frame's size.
      if (d.exec == Op.LUI) {
        value[d.rd] = d.imm;
        constant[d.rd] = true;
      } else if ((d.exec == Op.ADDI || d.exec == Op.ADDIW) && constant[d.rs1]) {
        long v = value[d.rs1] + d.imm;
        value[d.rd] = d.exec == Op.ADDIW ? (int) v : v;
        constant[d.rd] = true;
      } else if (d.exec == Op.ADD && constant[d.rs1] && constant[d.rs2] && d.rd != SP) {
        value[d.rd] = value[d.rs1] + value[d.rs2];
        constant[d.rd] = true;
      } else if (d.op.opClass() != OpClass.STORE && d.op.opClass() != OpClass.BRANCH) {
        constant[d.rd] = false;
      }
      constant[0] = true;
      value[0] = 0;
      a += d.size;
    }
    if (below < 0) {
      return null;
    }
    long cfa = regs[SP] + below;
    if (below == 0 || released || raSlot == NONE) {
      // A leaf that keeps ra in its register, or an epilogue that has reloaded it.
      return innermost && known[RA] ? new long[] {cfa, regs[RA], NONE} : null;
    }
    Long ret = read(mem, cfa + raSlot);
    if (ret == null) {
      return null;
    }
    Long fp = fpSlot == NONE ? null : read(mem, cfa + fpSlot);
    return new long[] {cfa, ret, fp == null ? NONE : fp};
  }

  private static DecodedInsn decode(Memory mem, long a) {
    try {
      byte[] lo = mem.read(a, 2);
      int raw = (lo[0] & 0xff) | (lo[1] & 0xff) << 8;
      if (Decoder.isLong(raw)) {
        byte[] hi = mem.read(a + 2, 2);
        raw |= ((hi[0] & 0xff) | (hi[1] & 0xff) << 8) << 16;
      }
      return Decoder.decode(a, raw);
    } catch (RuntimeException e) {
      return null; // unmapped, or not an instruction
    }
  }

  /** The entry of the function holding {@code pc}: its symbol's, else its FDE's, else the pc. */
  private static long functionOf(
      LinkMap objects, long pc, CallFrameInfo.Row row, LinkMap.LoadedObject o) {
    Symbol s = objects.symbols().lookup(pc).orElse(null);
    if (s != null) {
      return s.address();
    }
    if (row != null && o != null) {
      return row.function() + o.bias();
    }
    return pc;
  }

  private static Long read(Memory mem, long addr) {
    try {
      return mem.read64(addr);
    } catch (RuntimeException e) {
      return null; // an unmapped or unreadable slot ends the walk
    }
  }
}
