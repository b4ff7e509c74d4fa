package org.dise.runtime.cpu.plan;

import org.dise.runtime.isa.DecodedInsn;

/**
 * The decode stage's cost accounts, which code run from a plan keeps as the stage itself would
 * (replacements, inserted instructions, handler calls and their cycles; spec/cost-model.md). Each
 * step is its own small method so that translated code calling it stays inlinable.
 */
public interface Accounts {
  /** Counts one replacement ({@link PlanOp.Replaced}). */
  void replaced();

  /** Counts one inserted instruction that ran ({@link PlanOp.Insert}). */
  void insertedOne();

  /**
   * Counts {@code n} inserted instructions that ran, as {@code n} calls of {@link #insertedOne}
   * (translated code counts a straight-line run of them at once; spec/emulator.md, "Per-site
   * accounting").
   */
  default void inserted(int n) {
    for (int i = 0; i < n; i++) {
      insertedOne();
    }
  }

  /**
   * Counts a handler call about to record ({@link PlanOp.Call} without a result, {@link
   * PlanOp.Site}) and returns the application instructions retired so far, which the handler is
   * told; {@link #called} follows the record.
   */
  long callStart();

  /** Charges a call of sink {@code sink} after it recorded. */
  void called(int sink);

  /**
   * Counts and charges a call of sink {@code sink} applied to a {@link SiteSlot} ({@link
   * PlanOp.Slot}): the handler call, the sink's call and its cycles, as {@link #callStart} and
   * {@link #called} together (a slot is not told the instruction count).
   */
  void slotCalled(int sink);

  /**
   * Charges a call of sink {@code sink} whose result goes to a register, before it records, and
   * returns the application instructions retired so far.
   */
  long callReturningStart(int sink);

  /**
   * Counts one replacement of {@code d}, as {@link #replaced}, and tells a timing model of its
   * decode stall (the interpreter's {@link PlanOp.Replaced} while one listens; translated code
   * never runs under a timing model).
   */
  default void replacing(DecodedInsn d) {
    replaced();
  }

  /**
   * Tells a timing model that sink {@code sink}'s handler ran for {@code d} with {@code args} (the
   * interpreter calls it after a {@link PlanOp.Call}'s accounts, only while a timing model
   * listens).
   */
  default void timeHandler(int sink, long[] args, DecodedInsn d) {}

  /**
   * {@link PlanOp.Tag}: hands the retired record of {@code d} to the sinks of {@code sinks} (bit i:
   * sink i), after it ran; {@code next} is where the application goes on, {@code address} and
   * {@code stored} were read before it ran.
   */
  default void retireTagged(long sinks, DecodedInsn d, long next, long address, long stored) {
    throw new UnsupportedOperationException("these accounts take no tagged instructions");
  }

  /**
   * The tally translated code adds one to per run of a case of shape {@code shape}, in place of the
   * case's accounts calls, which these accounts then fold into their figures when read; null (the
   * default) keeps the calls (spec/emulator.md, "Per-site accounting").
   */
  default Tally tally(Tally.Shape shape) {
    return null;
  }

  /**
   * The application instructions retired so far, as {@link #callStart} returns them, counting
   * nothing (a tallied case's interval counter reads it). Accounts that hand out tallies implement
   * it.
   */
  default long retired() {
    throw new UnsupportedOperationException("these accounts hand out no tallies");
  }
}
