package org.dise.runtime.cpu.plan;

import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.Op;
import org.dise.runtime.isa.OpClass;
import org.dise.runtime.isa.Operand;

/**
 * The retired record of a tagged instruction (Zilles and Sohi, Section 3.1: "PC, register values,
 * memory address"): what the plan interpreter reads around its execution for a {@link PlanOp.Tag}
 * and the engine hands the co-processor sinks.
 */
public final class Retirement {
  private Retirement() {}

  /** The effective address of a memory access, read before it executes (0 otherwise). */
  public static long address(DecodedInsn d, GuestState cpu) {
    return switch (d.exec.opClass()) {
      case LOAD, STORE -> cpu.x()[d.rs1] + d.imm;
      case ATOMIC -> cpu.x()[d.rs1];
      default -> 0;
    };
  }

  /**
   * A store's data, read before it executes (0 for other instructions): the bytes it writes,
   * zero-extended, so that {@code sb} of 0x101 and of 0x201 record the same value, as memory sees
   * them, and {@code fsw} records its single, not the NaN-boxed register.
   */
  public static long stored(DecodedInsn d, GuestState cpu) {
    if (d.exec.opClass() != OpClass.STORE) {
      return 0;
    }
    long v = d.exec.operands().contains(Operand.FRS2) ? cpu.f()[d.rs2] : cpu.x()[d.rs2];
    return switch (d.exec) {
      case SB -> v & 0xffL;
      case SH -> v & 0xffffL;
      case SW, FSW -> v & 0xffff_ffffL;
      default -> v;
    };
  }

  /**
   * The result after it executed: a control transfer's next pc, a store's data ({@code stored}),
   * the register it wrote, or 0.
   */
  public static long value(DecodedInsn d, GuestState cpu, long next, long stored) {
    OpClass c = d.opClass();
    if (c == OpClass.BRANCH || c == OpClass.JUMP || c == OpClass.PROC_CALL || c == OpClass.RETURN) {
      return next;
    }
    if (c == OpClass.STORE) {
      return stored;
    }
    Op e = d.exec;
    if (e.operands().contains(Operand.FRD)) {
      return cpu.f()[d.rd];
    }
    if (e.operands().contains(Operand.RD)) {
      return d.rd == DecodedInsn.X0_SINK ? 0 : cpu.x()[d.rd];
    }
    return 0;
  }
}
