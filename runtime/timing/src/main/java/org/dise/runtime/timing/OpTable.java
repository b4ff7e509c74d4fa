package org.dise.runtime.timing;

import org.dise.runtime.isa.Op;
import org.dise.runtime.isa.OpClass;
import org.dise.runtime.isa.Operand;

/**
 * What the timing models need of each base instruction, by {@link Op} ordinal: its functional unit,
 * which of its register fields it reads and writes (x or f), and a memory access's width.
 */
final class OpTable {
  private OpTable() {}

  // Units.
  static final byte ALU = 0;
  static final byte MUL = 1;
  static final byte DIV = 2;
  static final byte LOAD = 3;
  static final byte STORE = 4;
  static final byte ATOMIC = 5;
  static final byte BRANCH = 6;
  static final byte JAL = 7;
  static final byte JALR = 8;
  static final byte FP_ADD = 9;
  static final byte FP_MUL = 10;
  static final byte FP_DIV = 11;
  static final byte FP_SQRT = 12;

  /** ecall, fence, CSR accesses, codewords: wait for everything before them. */
  static final byte SERIAL = 13;

  // Register kinds of a field.
  static final byte NONE = 0;
  static final byte X = 1;
  static final byte F = 2;

  static final byte[] UNIT;
  static final byte[] RS1;
  static final byte[] RS2;
  static final byte[] RS3;
  static final byte[] RD;
  static final byte[] WIDTH;

  static {
    Op[] ops = Op.values();
    UNIT = new byte[ops.length];
    RS1 = new byte[ops.length];
    RS2 = new byte[ops.length];
    RS3 = new byte[ops.length];
    RD = new byte[ops.length];
    WIDTH = new byte[ops.length];
    for (Op op : ops) {
      int i = op.ordinal();
      UNIT[i] = unit(op);
      for (Operand o : op.operands()) {
        switch (o) {
          case RS1, MEM, AMO_ADDR -> RS1[i] = X;
          case RS2 -> RS2[i] = X;
          case FRS1 -> RS1[i] = F;
          case FRS2 -> RS2[i] = F;
          case FRS3 -> RS3[i] = F;
          case RD -> RD[i] = X;
          case FRD -> RD[i] = F;
          default -> {}
        }
      }
      if (op.format() == org.dise.runtime.isa.Format.CSR) {
        RS1[i] = X;
      }
      String m = op.mnemonic();
      if (UNIT[i] == LOAD || UNIT[i] == STORE || UNIT[i] == ATOMIC) {
        WIDTH[i] = (byte) width(m, UNIT[i] == ATOMIC);
      }
    }
  }

  private static byte unit(Op op) {
    String m = op.mnemonic();
    OpClass c = op.opClass();
    return switch (c) {
      case BRANCH -> BRANCH;
      case JUMP, PROC_CALL, RETURN -> op.base() == Op.JAL ? JAL : JALR;
      case LOAD -> LOAD;
      case STORE -> STORE;
      case ATOMIC -> ATOMIC;
      case MULDIV -> m.startsWith("mul") ? MUL : DIV;
      case FP -> {
        if (m.startsWith("fdiv")) {
          yield FP_DIV;
        }
        if (m.startsWith("fsqrt")) {
          yield FP_SQRT;
        }
        if (m.startsWith("fmul") || m.contains("madd") || m.contains("msub")) {
          yield FP_MUL;
        }
        yield FP_ADD;
      }
      case ALU -> ALU;
      default -> SERIAL;
    };
  }

  private static int width(String m, boolean atomic) {
    if (atomic) {
      return m.endsWith(".w") || m.contains(".w.") ? 4 : 8;
    }
    if (m.startsWith("c.")) {
      m = m.substring(2);
      if (m.endsWith("sp")) {
        m = m.substring(0, m.length() - 2);
      }
    }
    return switch (m.charAt(m.length() - (m.endsWith("u") ? 2 : 1))) {
      case 'b' -> 1;
      case 'h' -> 2;
      case 'w' -> 4;
      default -> 8;
    };
  }
}
