package org.dise.runtime.cpu.plan;

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
   * Counts a handler call about to record ({@link PlanOp.Call} without a result, {@link
   * PlanOp.Site}) and returns the application instructions retired so far, which the handler is
   * told; {@link #called} follows the record.
   */
  long callStart();

  /** Charges a call of sink {@code sink} after it recorded. */
  void called(int sink);

  /**
   * Charges a call of sink {@code sink} whose result goes to a register, before it records, and
   * returns the application instructions retired so far.
   */
  long callReturningStart(int sink);
}
