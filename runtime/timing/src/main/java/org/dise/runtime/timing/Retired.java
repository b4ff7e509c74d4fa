package org.dise.runtime.timing;

import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.isa.DecodedInsn;

/**
 * One committed instruction as the timing models see it: its address and encoding, its unit, the
 * registers it reads and writes (x registers and DISE registers 1..40, f registers 64..95; 0:
 * none), its memory access, and a control transfer's outcome. One object is filled again for every
 * instruction ({@link #fill}), so the stream allocates nothing.
 */
public final class Retired {
  public long pc;
  public int raw;
  public long imm;
  public int size;
  public byte unit;
  public boolean inserted;

  /**
   * A profile handler's instruction, run on the shadow hart (handler.ShadowHandlers): fetched
   * through the I-cache like the application's, its cycles attributed to the handler.
   */
  public boolean handler;

  public int src1;
  public int src2;
  public int src3;
  public int dst;
  public long addr;
  public int width;
  public boolean taken;
  public long target;

  /** A jal/jalr that writes ra or t0 (a call: the return-address stack pushes). */
  public boolean rdLink;

  /** A jalr through ra or t0 that writes no link (a return: the stack pops). */
  public boolean isReturn;

  /** Fills this record from {@code d}, about to execute on {@code cpu}. */
  public Retired fill(DecodedInsn d, Cpu cpu) {
    int op = d.opcode;
    long[] x = cpu.x;
    pc = d.pc;
    raw = d.raw;
    imm = d.imm;
    size = d.size;
    inserted = d.inserted;
    handler = false;
    byte u = OpTable.UNIT[op];
    unit = u;
    src1 = reg(OpTable.RS1[op], d.rs1);
    src2 = reg(OpTable.RS2[op], d.rs2);
    src3 = reg(OpTable.RS3[op], d.rs3);
    int rd = d.rd;
    dst = rd == DecodedInsn.X0_SINK ? 0 : reg(OpTable.RD[op], rd);
    taken = false;
    switch (u) {
      case OpTable.LOAD, OpTable.STORE -> {
        addr = x[d.rs1] + d.imm;
        width = OpTable.WIDTH[op];
      }
      case OpTable.ATOMIC -> {
        addr = x[d.rs1];
        width = OpTable.WIDTH[op];
      }
      case OpTable.BRANCH -> {
        long a = x[d.rs1];
        long b = x[d.rs2];
        taken =
            switch (d.exec) {
              case BEQ -> a == b;
              case BNE -> a != b;
              case BLT -> a < b;
              case BGE -> a >= b;
              case BLTU -> Long.compareUnsigned(a, b) < 0;
              default -> Long.compareUnsigned(a, b) >= 0; // BGEU
            };
        target = taken ? d.pc + d.imm : d.npc;
      }
      case OpTable.JAL -> {
        taken = true;
        target = d.pc + d.imm;
        int link = d.rdField();
        rdLink = link == 1 || link == 5;
        isReturn = false;
      }
      case OpTable.JALR -> {
        taken = true;
        target = (x[d.rs1] + d.imm) & ~1L;
        int link = d.rdField();
        rdLink = link == 1 || link == 5;
        isReturn = !rdLink && (d.rs1 == 1 || d.rs1 == 5);
      }
      default -> {}
    }
    return this;
  }

  private static int reg(byte kind, int r) {
    return switch (kind) {
      case OpTable.X -> r == DecodedInsn.X0_SINK ? 0 : r;
      case OpTable.F -> 64 + r;
      default -> 0;
    };
  }
}
