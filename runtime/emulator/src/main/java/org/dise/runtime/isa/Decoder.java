package org.dise.runtime.isa;

/**
 * Decodes one instruction word into a {@link DecodedInsn}, using the match/mask table in {@link
 * Isa}. Compressed instructions are expanded to their base instruction's operands here, so the
 * interpreter never sees a compressed form.
 */
public final class Decoder {
  private Decoder() {}

  /** True when the low 16 bits start a 32-bit instruction (otherwise it is compressed). */
  public static boolean isLong(int lowHalf) {
    return (lowHalf & 3) == 3;
  }

  /**
   * Decodes the instruction at {@code pc} whose bits are {@code raw} (for a compressed instruction
   * only the low 16 bits are used).
   *
   * @throws IllegalInstructionException for a reserved or unknown encoding
   */
  public static DecodedInsn decode(long pc, int raw) {
    if (isLong(raw)) {
      return decode32(pc, raw);
    }
    return decode16(pc, raw & 0xffff);
  }

  private static DecodedInsn decode32(long pc, int raw) {
    Op op = Isa.lookup32(raw);
    if (op == null) {
      throw new IllegalInstructionException(raw, 4, "unknown instruction");
    }
    int rd = (raw >>> 7) & 31;
    int rs1 = (raw >>> 15) & 31;
    int rs2 = (raw >>> 20) & 31;
    int rs3 = raw >>> 27;
    int rm = (raw >>> 12) & 7;
    long imm =
        switch (op.format()) {
          case I, FENCE -> raw >> 20;
          case I_SHIFT64 -> (raw >>> 20) & 0x3f;
          case I_SHIFT32 -> (raw >>> 20) & 0x1f;
          case S -> ((raw >> 25) << 5) | ((raw >>> 7) & 0x1f);
          case B ->
              ((raw >> 31) << 12)
                  | (((raw >>> 7) & 1) << 11)
                  | (((raw >>> 25) & 0x3f) << 5)
                  | (((raw >>> 8) & 0xf) << 1);
          case U -> raw & 0xfffff000;
          case J ->
              ((raw >> 31) << 20)
                  | (((raw >>> 12) & 0xff) << 12)
                  | (((raw >>> 20) & 1) << 11)
                  | (((raw >>> 21) & 0x3ff) << 1);
          case CSR, CSR_I -> (raw >>> 20) & 0xfff;
          default -> 0;
        };
    if (op.format() == Format.AMO) {
      rm = (raw >>> 25) & 3; // aq/rl
    } else if (op.format() == Format.FENCE) {
      rm = (raw >>> 20) & 0xff; // pred/succ
    }
    return new DecodedInsn(pc, op, raw, xDest(op, rd), rs1, rs2, rs3, imm, rm);
  }

  /** Integer destinations of x0 go to the sink register; f destinations are left alone. */
  private static int xDest(Op op, int rd) {
    return rd == 0 && op.operands().contains(Operand.RD) ? DecodedInsn.X0_SINK : rd;
  }

  private static int bits(int raw, int hi, int lo) {
    return (raw >>> lo) & ((1 << (hi - lo + 1)) - 1);
  }

  private static int bit(int raw, int b) {
    return (raw >>> b) & 1;
  }

  private static long sext(int value, int width) {
    int shift = 32 - width;
    return (value << shift) >> shift;
  }

  /**
   * The offset of a compressed load or store of rs1' (formats CL and CS): uimm[5:3|2|6] for a word,
   * uimm[5:3|7:6] for a doubleword.
   */
  private static int clsOffset(boolean word, int raw) {
    int low = bits(raw, 12, 10) << 3;
    return word ? low | (bit(raw, 6) << 2) | (bit(raw, 5) << 6) : low | (bits(raw, 6, 5) << 6);
  }

  private static DecodedInsn decode16(long pc, int raw) {
    Op op = Isa.lookup16(raw);
    if (op == null) {
      throw new IllegalInstructionException(raw, 2, "unknown compressed instruction");
    }
    int rdFull = bits(raw, 11, 7);
    int rs2Full = bits(raw, 6, 2);
    int rdP = bits(raw, 4, 2) + 8; // rd' / rs2'
    int rs1P = bits(raw, 9, 7) + 8; // rs1' / rd'
    int ciImm6 = (bit(raw, 12) << 5) | bits(raw, 6, 2);
    int rd = 0;
    int rs1 = 0;
    int rs2 = 0;
    long imm = 0;
    switch (op) {
      case C_ADDI4SPN -> {
        imm =
            (bits(raw, 12, 11) << 4)
                | (bits(raw, 10, 7) << 6)
                | (bit(raw, 6) << 2)
                | (bit(raw, 5) << 3);
        if (imm == 0) {
          throw reserved(raw);
        }
        rd = rdP;
        rs1 = 2;
      }
      case C_FLD, C_LD, C_LW -> { // CL: rd' = memory at rs1' + the offset
        imm = clsOffset(op == Op.C_LW, raw);
        rd = rdP;
        rs1 = rs1P;
      }
      case C_FSD, C_SD, C_SW -> { // CS: rs2' to memory at rs1' + the offset
        imm = clsOffset(op == Op.C_SW, raw);
        rs2 = rdP;
        rs1 = rs1P;
      }
      case C_NOP -> {
        rd = 0;
        rs1 = 0;
      }
      case C_ADDI -> {
        rd = rdFull;
        rs1 = rdFull;
        imm = sext(ciImm6, 6);
      }
      case C_ADDIW -> {
        if (rdFull == 0) {
          throw reserved(raw);
        }
        rd = rdFull;
        rs1 = rdFull;
        imm = sext(ciImm6, 6);
      }
      case C_LI -> {
        rd = rdFull;
        rs1 = 0;
        imm = sext(ciImm6, 6);
      }
      case C_ADDI16SP -> {
        int v =
            (bit(raw, 12) << 9)
                | (bit(raw, 6) << 4)
                | (bit(raw, 5) << 6)
                | (bits(raw, 4, 3) << 7)
                | (bit(raw, 2) << 5);
        if (v == 0) {
          throw reserved(raw);
        }
        rd = 2;
        rs1 = 2;
        imm = sext(v, 10);
      }
      case C_LUI -> {
        if (ciImm6 == 0) {
          throw reserved(raw);
        }
        rd = rdFull;
        imm = sext(ciImm6 << 12, 18);
      }
      case C_SRLI, C_SRAI -> {
        rd = rs1P;
        rs1 = rs1P;
        imm = ciImm6;
      }
      case C_ANDI -> {
        rd = rs1P;
        rs1 = rs1P;
        imm = sext(ciImm6, 6);
      }
      case C_SUB, C_XOR, C_OR, C_AND, C_SUBW, C_ADDW -> {
        rd = rs1P;
        rs1 = rs1P;
        rs2 = rdP;
      }
      case C_J -> {
        int v =
            (bit(raw, 12) << 11)
                | (bit(raw, 11) << 4)
                | (bits(raw, 10, 9) << 8)
                | (bit(raw, 8) << 10)
                | (bit(raw, 7) << 6)
                | (bit(raw, 6) << 7)
                | (bits(raw, 5, 3) << 1)
                | (bit(raw, 2) << 5);
        rd = 0;
        imm = sext(v, 12);
      }
      case C_BEQZ, C_BNEZ -> {
        int v =
            (bit(raw, 12) << 8)
                | (bits(raw, 11, 10) << 3)
                | (bits(raw, 6, 5) << 6)
                | (bits(raw, 4, 3) << 1)
                | (bit(raw, 2) << 5);
        rs1 = rs1P;
        rs2 = 0;
        imm = sext(v, 9);
      }
      case C_SLLI -> {
        rd = rdFull;
        rs1 = rdFull;
        imm = ciImm6;
      }
      case C_FLDSP, C_LDSP, C_LWSP -> { // CI: rd = memory at sp + the offset
        if (op != Op.C_FLDSP && rdFull == 0) {
          throw reserved(raw);
        }
        rd = rdFull;
        rs1 = 2;
        imm =
            op == Op.C_LWSP
                ? (bit(raw, 12) << 5) | (bits(raw, 6, 4) << 2) | (bits(raw, 3, 2) << 6)
                : (bit(raw, 12) << 5) | (bits(raw, 6, 5) << 3) | (bits(raw, 4, 2) << 6);
      }
      case C_JR -> {
        if (rdFull == 0) {
          throw reserved(raw);
        }
        rd = 0;
        rs1 = rdFull;
      }
      case C_JALR -> {
        rd = 1;
        rs1 = rdFull;
      }
      case C_MV -> {
        rd = rdFull;
        rs1 = 0;
        rs2 = rs2Full;
      }
      case C_ADD -> {
        rd = rdFull;
        rs1 = rdFull;
        rs2 = rs2Full;
      }
      case C_EBREAK -> {}
      case C_FSDSP, C_SDSP, C_SWSP -> { // CSS: rs2 to memory at sp + the offset
        rs1 = 2;
        rs2 = rs2Full;
        imm =
            op == Op.C_SWSP
                ? (bits(raw, 12, 9) << 2) | (bits(raw, 8, 7) << 6)
                : (bits(raw, 12, 10) << 3) | (bits(raw, 9, 7) << 6);
      }
      default -> throw new IllegalInstructionException(raw, 2, "unhandled compressed form");
    }
    boolean fpDest = op == Op.C_FLD || op == Op.C_FLDSP;
    int dest = (!fpDest && rd == 0) ? DecodedInsn.X0_SINK : rd;
    return new DecodedInsn(pc, op, raw, dest, rs1, rs2, 0, imm, 7);
  }

  private static IllegalInstructionException reserved(int raw) {
    return new IllegalInstructionException(raw, 2, "reserved compressed encoding");
  }
}
