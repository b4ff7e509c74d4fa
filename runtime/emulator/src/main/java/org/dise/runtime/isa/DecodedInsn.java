package org.dise.runtime.isa;

/**
 * One pre-decoded static instruction, as held in the decode cache. Fields are public and final
 * because the interpreter reads them on every executed instruction; {@link #dise} is the slot where
 * the DISE engine attaches its per-static-instruction data (the folded static part of every
 * pattern).
 */
public final class DecodedInsn {
  /** Integer register index that absorbs writes to x0, so execution need not test rd == 0. */
  public static final int X0_SINK = 32;

  public final long pc;

  /** Address of the next sequential instruction. */
  public final long npc;

  /** The instruction as encoded (a compressed form stays compressed here). */
  public final Op op;

  /** The base instruction that executes. */
  public final Op exec;

  /** {@code exec.ordinal()}, one of the {@link Opcodes} constants, for the interpreter's switch. */
  public final int opcode;

  public final int raw;
  public final int size;

  /** Destination: an x register index (x0 mapped to {@link #X0_SINK}) or an f register. */
  public final int rd;

  public final int rs1;
  public final int rs2;
  public final int rs3;

  /** Sign-extended immediate; the CSR number for CSR instructions; shift amount for shifts. */
  public final long imm;

  /** Rounding-mode field for FP instructions, aq/rl bits for atomics, fence bits for fences. */
  public final int rm;

  /** Per-static-instruction data of the DISE/HPS engine; null when no pattern can match. */
  public Object dise;

  /**
   * With {@link #dise}: the flag vectors (bit v for vector v, see {@code ConditionalsTable}) under
   * which a production matches this instruction. Under any other vector the engine would do nothing
   * with it, so it runs as a plain instruction inside blocks and translated code.
   */
  public long diseMask = -1L;

  /**
   * True for an instruction DISE inserts (a replacement's instruction or an injected codeword),
   * which is not fetched from memory: a timing model does not fetch it through the I-cache.
   */
  public boolean inserted;

  public DecodedInsn(long pc, Op op, int raw, int rd, int rs1, int rs2, int rs3, long imm, int rm) {
    this.pc = pc;
    this.op = op;
    this.exec = op.base();
    this.opcode = exec.ordinal();
    this.raw = raw;
    this.size = op.size();
    this.npc = pc + size;
    this.rd = rd;
    this.rs1 = rs1;
    this.rs2 = rs2;
    this.rs3 = rs3;
    this.imm = imm;
    this.rm = rm;
  }

  /** The architectural rd field (0 for x0, never the sink index). */
  public int rdField() {
    return rd == X0_SINK ? 0 : rd;
  }

  /**
   * Whether this conditional branch is taken with integer registers {@code x} as they are before it
   * executes; false for any other instruction.
   */
  public boolean taken(long[] x) {
    long a = x[rs1];
    long b = x[rs2];
    return switch (exec) {
      case BEQ -> a == b;
      case BNE -> a != b;
      case BLT -> a < b;
      case BGE -> a >= b;
      case BLTU -> Long.compareUnsigned(a, b) < 0;
      case BGEU -> Long.compareUnsigned(a, b) >= 0;
      default -> false;
    };
  }

  /** Static target of a direct branch or jal, or -1 when the target is not static. */
  public long target() {
    return switch (exec) {
      case BEQ, BNE, BLT, BGE, BLTU, BGEU, JAL -> pc + imm;
      default -> -1L;
    };
  }

  /** The operation class with calls and returns told apart (T.OPCLASS). */
  public OpClass opClass() {
    if (exec == Op.JAL || exec == Op.JALR) {
      int d = rdField();
      if (d == 1 || d == 5) {
        return OpClass.PROC_CALL;
      }
      if (exec == Op.JALR && d == 0 && (rs1 == 1 || rs1 == 5)) {
        return OpClass.RETURN;
      }
      return OpClass.JUMP;
    }
    return op.opClass();
  }

  @Override
  public String toString() {
    return String.format("%x: %s", pc, Disassembler.format(this, null));
  }
}
