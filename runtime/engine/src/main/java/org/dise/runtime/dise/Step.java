package org.dise.runtime.dise;

import org.dise.runtime.isa.DecodedInsn;

/** One element of an instantiated replacement sequence, ready to execute. */
abstract sealed class Step {
  /** An inserted instruction; {@code target} is the step a taken branch goes to, or -1. */
  static final class Exec extends Step {
    final DecodedInsn insn;
    final int target;

    Exec(DecodedInsn insn, int target) {
      this.insn = insn;
      this.target = target;
    }
  }

  /** {@code T.INSN}. */
  static final class Original extends Step {
    static final Original INSTANCE = new Original();
  }

  /**
   * A call into a sink. Each argument is a constant ({@code reg[i] < 0}) or a register read at the
   * call: an x index (DISE registers included), or {@code FREG_BASE + n}. {@code result} is the x
   * index the handler's result is written to, or -1.
   */
  static final class Call extends Step {
    static final int FREG_BASE = 1000;

    /** {@code T.NEXT_PC}: where the application goes on, as the sequence knows it. */
    static final int NEXT = 2000;

    /** {@code T.TID}: the id of the guest thread on the core when the call runs. */
    static final int TID = 2001;

    final int sink;
    final long[] constants;
    final int[] reg;
    final long[] args;
    final int result;

    Call(int sink, long[] constants, int[] reg, int result) {
      this.sink = sink;
      this.result = result;
      this.constants = constants;
      this.reg = reg;
      this.args = new long[constants.length];
    }
  }
}
