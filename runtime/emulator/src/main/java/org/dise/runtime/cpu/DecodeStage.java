package org.dise.runtime.cpu;

import org.dise.runtime.cpu.plan.Plan;
import org.dise.runtime.isa.DecodedInsn;

/**
 * The customisation hook of the decode stage, where the DISE/HPS engine sits (the first paper,
 * Sections 3.1-3.3). The engine folds the static part of its patterns once per decoded instruction;
 * only instructions it tags reach {@link #execute}, so untagged code runs at full speed.
 */
public interface DecodeStage {
  /**
   * Called once for each newly decoded instruction: the data to keep with it in the decode cache
   * ({@link DecodedInsn#dise}), or null when no production can ever match it.
   */
  Object attach(DecodedInsn d);

  /**
   * Called each time a tagged instruction reaches decode. Decides on the replacement, runs the
   * micro-ops, and executes the original instruction and/or its replacement sequence through {@link
   * Cpu#executeOne}; returns the address to continue at.
   */
  long execute(DecodedInsn d, Cpu cpu);

  /**
   * The hart switched from guest thread {@code from} to thread {@code to} ({@link
   * Cpu#setThreadId}), between two instructions. The engine is the core's and stays; what it keeps
   * per thread follows.
   */
  default void threadSwitched(Cpu cpu, int from, int to) {}

  /**
   * The current flag vector as a one-bit mask ({@code 1L << vector}): a tagged instruction whose
   * {@link DecodedInsn#diseMask} lacks the bit does nothing now and runs without the hook. The cpu
   * asks once, when the stage is installed, and keeps a copy that the dispatcher and translated
   * code read: a stage whose vector changes must tell it ({@link Cpu#setVectorBit}) at once.
   */
  default long vectorBit() {
    return -1L;
  }

  /**
   * The integer registers {@link #execute} may write when it runs {@code d} (bit r: {@code x[r]},
   * DISE registers included), so that translated code reloads only those it holds in locals; asked
   * once per tagged instruction when a unit is translated. All, unless the stage knows better.
   */
  default long registersWritten(DecodedInsn d) {
    return -1L;
  }

  /**
   * Whether {@link #execute} on {@code d} always comes down to a prologue and the original
   * instruction run once after it, under every flag vector that lets one of its productions match:
   * micro-ops, sink calls that write no register, and {@code T.INSN} last (or a null match). Then
   * translated code calls {@link #before} and runs {@code d} inline as untagged code, instead of
   * leaving its registers to {@link #execute} and {@link Cpu#executeOne}. Asked once per tagged
   * instruction when a unit is translated; false unless the stage knows better.
   */
  default boolean splitsOriginal(DecodedInsn d) {
    return false;
  }

  /**
   * The prologue of a tagged instruction for which {@link #splitsOriginal} holds: everything {@link
   * #execute} would do before running {@code d} itself, which the caller runs next. Writes no x
   * register and retires no instruction.
   */
  default void before(DecodedInsn d, Cpu cpu) {
    throw new UnsupportedOperationException("this decode stage does not split " + d);
  }

  /**
   * What the stage does at tagged instruction {@code d}, as data ({@link Plan}): micro-ops, sink
   * calls, inserted instructions and {@code T.INSN}, under each flag vector, for translated code to
   * run inline instead of calling {@link #execute} (or, when {@link #splitsOriginal} holds and the
   * plan is a prologue, {@link #before}); null to have it call them. Asked once per tagged
   * instruction when a unit is translated; running the plan must do exactly what the stage would
   * (spec/emulator.md, "Plans"). The translator may still call the stage for a plan it cannot run
   * inline (an inserted instruction that touches memory, say).
   */
  default Plan plan(DecodedInsn d) {
    return null;
  }
}
