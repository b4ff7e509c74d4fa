package org.dise.runtime.sink;

import org.dise.runtime.isa.DecodedInsn;

/** Dynamic outcomes of control transfers, read from the registers before they execute. */
final class Branches {
  private Branches() {}

  /** Whether a conditional branch will be taken with the current register values. */
  static boolean taken(DecodedInsn d, long[] x) {
    return d.taken(x);
  }

  /** Where a jal or jalr goes with the current register values (the callee of a call). */
  /** The x registers {@link #taken} and {@link #jumpTarget} read for {@code d} (bit r: x[r]). */
  static long operands(DecodedInsn d) {
    return (1L << d.rs1) | (1L << d.rs2);
  }

  static long jumpTarget(DecodedInsn d, long[] x) {
    return switch (d.exec) {
      case JAL -> d.pc + d.imm;
      case JALR -> (x[d.rs1] + d.imm) & ~1L;
      default -> d.target();
    };
  }

  static String hex(long a) {
    return "0x" + Long.toHexString(a);
  }
}
