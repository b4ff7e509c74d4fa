package org.dise.runtime.dise;

import java.util.List;
import org.dise.runtime.isa.Op;

/** One replacement-table entry of a replacement sequence (Sections 3.1 and 3.5). */
public sealed interface ReplacementInsn {
  /** {@code T.INSN}: the original instruction. */
  record Original() implements ReplacementInsn {}

  /**
   * {@code call(sink, args...)}: {@code sink} indexes the production set's sinks; {@code result} is
   * the register {@code $drN = call(...)} writes the handler's result into ({@link Slot#NONE} when
   * the call returns nothing).
   */
  record Call(int sink, List<CallArg> args, Slot result) implements ReplacementInsn {
    public Call {
      args = List.copyOf(args);
    }

    public Call(int sink, List<CallArg> args) {
      this(sink, args, Slot.NONE);
    }

    public boolean returns() {
      return result != Slot.NONE;
    }
  }

  /**
   * A RISC-V base instruction. {@code rd}, {@code rs1}, {@code rs2}, {@code rs3} and {@code imm}
   * fill the decoded fields; {@code target} is the sequence index a branch or jump goes to, -1 when
   * it has no label (a {@code jalr} leaves the sequence).
   */
  record Insn(Op op, Slot rd, Slot rs1, Slot rs2, Slot rs3, Slot imm, int rm, int target)
      implements ReplacementInsn {}

  /** {@code li rd, value}: expanded by the instantiation logic into lui/addiw/slli/addi. */
  record LoadImmediate(Slot rd, Slot value) implements ReplacementInsn {}

  /** An argument of a call: a slot, or {@code T.INSN} (the raw instruction word). */
  record CallArg(Slot slot, boolean insn) {}
}
