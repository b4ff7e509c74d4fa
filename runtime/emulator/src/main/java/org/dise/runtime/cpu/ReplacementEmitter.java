package org.dise.runtime.cpu;

import org.dise.runtime.isa.DecodedInsn;

/**
 * A decode stage's whole replacement of one tagged instruction as JVM bytecode, emitted inline into
 * the translated unit that holds it (issue 14): counter micro-ops, inserted instructions, calls
 * into sinks (a returning one's result written to a register) and {@code T.INSN}, before and after
 * it. Where a {@link PrologueEmitter} only covers a prologue that writes no register, this covers
 * sequences that write registers (DISE registers, as the sequence names them) and go on after
 * {@code T.INSN}. The unit holds the registers of {@link #registersRead} and {@link
 * #registersWritten} in its locals, so inserted instructions run on them as the unit's own code
 * does (spec/emulator.md, "Replacements emitted as bytecode").
 */
public interface ReplacementEmitter {
  /**
   * Emits what {@link DecodeStage#execute} does for the instruction, under whatever flag vector the
   * emitted code finds ({@link Unit#loadVector}). Every path through the code runs {@link
   * Unit#original} exactly once, after the micro-ops; the code after it must be empty when {@link
   * #runsAfterOriginal} is false. The code must leave the operand stack as it found it and may use
   * no JVM local.
   */
  void emit(Unit unit);

  /**
   * The integer registers the emitted code reads (bit r: {@code x[r]}, DISE registers included).
   */
  long registersRead();

  /** The integer registers the emitted code writes (never the original instruction's). */
  long registersWritten();

  /** Whether any code follows {@code T.INSN}. */
  boolean runsAfterOriginal();

  /** The translated unit as the emitted replacement sees it. */
  interface Unit extends PrologueEmitter.Unit {
    /**
     * Runs inserted instruction {@code e} (an integer computation: {@code rd = f(rs1, rs2, imm)})
     * on the unit's registers, as the unit runs its own.
     */
    void value(DecodedInsn e);

    /** Pushes whether conditional branch {@code e} is taken (an int) on the unit's registers. */
    void condition(DecodedInsn e);

    /** Pops a long into integer register {@code reg} (a DISE register included). */
    void storeX(int reg);

    /**
     * Stores to {@code Cpu.x} the registers of {@code mask} the unit holds (for code reading x).
     */
    void store(long mask);

    /** Counts one inserted instruction as retired, in the unit's count and the cpu's. */
    void retire();

    /**
     * {@code T.INSN}: the instruction itself, run as the unit's own code, with the count and pc
     * brought up to date around it; then the flag vector is read again.
     */
    void original();

    /**
     * After {@link #original}: pushes where the application goes on ({@code T.NEXT_PC}), the
     * instruction's next pc (a transfer's target when it was taken).
     */
    void loadNext();
  }
}
