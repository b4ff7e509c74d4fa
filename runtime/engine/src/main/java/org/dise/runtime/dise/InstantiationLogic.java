package org.dise.runtime.dise;

import java.util.ArrayList;
import java.util.List;
import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.Format;
import org.dise.runtime.isa.Op;
import org.dise.runtime.isa.Operand;

/**
 * The instantiation logic (first paper, Section 3.1): fills the directives of a replacement
 * sequence ({@code T.RS1}, {@code T.IMM}, ...) from the matched instruction and maps DISE registers
 * to their slots. Directives are static, so a sequence is instantiated once per static instruction
 * and kept with it.
 *
 * <p>Inserted instructions carry the original instruction's pc (faults report it). A branch inside
 * the sequence gets an offset no fall-through can produce, and the engine maps "taken" to the step
 * its label names.
 */
public final class InstantiationLogic {
  private InstantiationLogic() {}

  /** Offset given to sequence-local branches and jumps: taken means next pc != npc. */
  static final long LOCAL_BRANCH_OFFSET = 1L << 20;

  /** Instantiates {@code seq} for the matched instruction {@code d}. */
  static Step[] instantiate(ReplacementSequence seq, DecodedInsn d) {
    List<ReplacementInsn> body = seq.body();
    int[] start = new int[body.size() + 1];
    List<List<Step>> parts = new ArrayList<>();
    for (int i = 0; i < body.size(); i++) {
      start[i] = parts.stream().mapToInt(List::size).sum();
      parts.add(expand(body.get(i), d));
    }
    start[body.size()] = parts.stream().mapToInt(List::size).sum();
    List<Step> out = new ArrayList<>();
    for (int i = 0; i < body.size(); i++) {
      for (Step s : parts.get(i)) {
        if (s instanceof Step.Exec e && e.target >= 0) {
          s = new Step.Exec(e.insn, start[e.target]); // template index -> step index
        }
        out.add(s);
      }
    }
    return out.toArray(new Step[0]);
  }

  private static List<Step> expand(ReplacementInsn r, DecodedInsn d) {
    if (r instanceof ReplacementInsn.Original) {
      return List.of(Step.Original.INSTANCE);
    }
    if (r instanceof ReplacementInsn.Call c) {
      long[] constants = new long[c.args().size()];
      int[] reg = new int[c.args().size()];
      for (int i = 0; i < constants.length; i++) {
        ReplacementInsn.CallArg a = c.args().get(i);
        reg[i] = -1;
        if (a.insn()) {
          constants[i] = d.raw & (d.size == 2 ? 0xffffL : 0xffffffffL);
        } else {
          switch (a.slot().kind()) {
            case XREG, DISE -> reg[i] = register(a.slot(), d, false);
            case FREG -> reg[i] = Step.Call.FREG_BASE + (int) a.slot().value();
            case FIELD -> {
              InsnField f = InsnField.values()[(int) a.slot().value()];
              if (f == InsnField.NEXT_PC) {
                reg[i] = Step.Call.NEXT;
              } else if (f == InsnField.TID) {
                reg[i] = Step.Call.TID;
              } else if (f.isRegister()) {
                reg[i] = (int) f.value(d); // a register directive passes the register's value
              } else {
                constants[i] = f.value(d);
              }
            }
            case CONST -> constants[i] = a.slot().value();
            case SYMBOL -> throw unbound(a.slot());
          }
        }
      }
      int result = c.returns() ? register(c.result(), d, true) : -1;
      return List.of(new Step.Call(c.sink(), constants, reg, result));
    }
    if (r instanceof ReplacementInsn.LoadImmediate li) {
      List<Step> out = new ArrayList<>();
      loadImmediate(out, d.pc, register(li.rd(), d, true), immediate(li.value(), d));
      return out;
    }
    ReplacementInsn.Insn t = (ReplacementInsn.Insn) r;
    boolean xDest = t.op().operands().contains(Operand.RD);
    int rd = t.rd() == Slot.NONE && xDest ? DecodedInsn.X0_SINK : register(t.rd(), d, xDest);
    long imm = immediate(t.imm(), d);
    if (t.op().format() == Format.U) {
      imm = (long) (int) (imm << 12);
    }
    if (t.target() >= 0) {
      imm = LOCAL_BRANCH_OFFSET;
    }
    DecodedInsn insn =
        new DecodedInsn(
            d.pc,
            t.op(),
            t.op().match(),
            rd,
            register(t.rs1(), d, false),
            register(t.rs2(), d, false),
            register(t.rs3(), d, false),
            imm,
            t.rm());
    insn.inserted = true;
    return List.of(new Step.Exec(insn, t.target()));
  }

  /** The register index a slot names; a destination x0 writes to the sink. */
  static int register(Slot s, DecodedInsn d, boolean xDest) {
    int r =
        switch (s.kind()) {
          case XREG, FREG, CONST -> (int) s.value();
          case DISE -> Cpu.DISE_REG_BASE + (int) s.value();
          case FIELD -> (int) InsnField.values()[(int) s.value()].value(d);
          case SYMBOL -> throw unbound(s);
        };
    return xDest && r == 0 ? DecodedInsn.X0_SINK : r;
  }

  private static IllegalStateException unbound(Slot s) {
    return new IllegalStateException(s.symbol() + " is not bound to a program");
  }

  private static long immediate(Slot s, DecodedInsn d) {
    if (s.kind() == Slot.Kind.SYMBOL) {
      throw unbound(s);
    }
    return s.kind() == Slot.Kind.FIELD ? InsnField.values()[(int) s.value()].value(d) : s.value();
  }

  /** {@code li}: the usual lui/addiw, then shift-and-add for constants beyond 32 bits. */
  static void loadImmediate(List<Step> out, long pc, int rd, long v) {
    long lo = (v << 52) >> 52;
    if (v == (int) v) {
      long hi = v - lo;
      if (hi != 0) {
        out.add(exec(pc, Op.LUI, rd, 0, (int) hi));
        if (lo != 0) {
          out.add(exec(pc, Op.ADDIW, rd, rd, lo));
        }
      } else {
        out.add(exec(pc, Op.ADDI, rd, 0, lo));
      }
      return;
    }
    long hi = (v >> 12) + (lo < 0 ? 1 : 0);
    int shift = 12 + Long.numberOfTrailingZeros(hi);
    loadImmediate(out, pc, rd, hi >> (shift - 12));
    out.add(exec(pc, Op.SLLI, rd, rd, shift));
    if (lo != 0) {
      out.add(exec(pc, Op.ADDI, rd, rd, lo));
    }
  }

  private static Step exec(long pc, Op op, int rd, int rs1, long imm) {
    DecodedInsn insn = new DecodedInsn(pc, op, op.match(), rd, rs1, 0, 0, imm, 0);
    insn.inserted = true;
    return new Step.Exec(insn, -1);
  }
}
