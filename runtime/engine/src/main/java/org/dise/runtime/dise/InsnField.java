package org.dise.runtime.dise;

import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.Op;

/**
 * A static field of the decoded instruction {@code T} (first paper, Section 3.1): what patterns
 * compare and what instantiation directives fill in. Dynamic values exist only in replacement
 * code, which executes.
 */
public enum InsnField {
  OP, OPCLASS, PC, TARGET, RS1, RS2, RS3, RD, IMM, SIZE, CSR;

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
    };
  }

  private static boolean isCsr(Op op) {
    return switch (op) {
      case CSRRW, CSRRS, CSRRC, CSRRWI, CSRRSI, CSRRCI -> true;
      default -> false;
    };
  }
}
