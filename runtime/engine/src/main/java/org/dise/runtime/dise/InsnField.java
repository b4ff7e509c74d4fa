package org.dise.runtime.dise;

import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.Op;

/**
 * A static field of the decoded instruction {@code T} (first paper, Section 3.1): what patterns
 * compare and what instantiation directives fill in. Dynamic values exist only in replacement code,
 * which executes.
 */
public enum InsnField {
  OP,
  OPCLASS,
  PC,
  TARGET,
  RS1,
  RS2,
  RS3,
  RD,
  IMM,
  SIZE,
  CSR,
  /**
   * The pc the application goes on at: only a call argument after {@code T.INSN} (configuration
   * version 3), where it tells a taken branch from one that fell through.
   */
  NEXT_PC,
  /**
   * The guest thread running the instruction ({@code Cpu.threadId}): only a call argument, read
   * when the call runs (configuration version 4 onwards, as the last field).
   */
  TID;

  /**
   * Whether the field names a register (RS1, RS2, RS3, RD): as a call argument it passes the
   * integer register's value at the call, as the same directive in an instruction reads it.
   */
  public boolean isRegister() {
    return this == RS1 || this == RS2 || this == RS3 || this == RD;
  }

  /** The field's value for {@code d}; OP and OPCLASS are compared by name, never read. */
  public long value(DecodedInsn d) {
    return switch (this) {
      case PC -> d.pc;
      case TARGET -> Math.max(0, d.target());
      case RS1 -> d.rs1;
      case RS2 -> d.rs2;
      case RS3 -> d.rs3;
      case RD -> d.rdField();
      case IMM -> d.imm;
      case SIZE -> d.size;
      case CSR -> isCsr(d.exec) ? d.imm : 0;
      case OP -> d.op.ordinal();
      case OPCLASS -> d.opClass().ordinal();
      case NEXT_PC -> d.npc; // the fall-through; a call reads the dynamic one (Step.Call.NEXT)
      case TID -> 0; // dynamic: a call reads the running thread's (Step.Call.TID)
    };
  }

  private static boolean isCsr(Op op) {
    return switch (op) {
      case CSRRW, CSRRS, CSRRC, CSRRWI, CSRRSI, CSRRCI -> true;
      default -> false;
    };
  }
}
