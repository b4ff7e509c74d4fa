package org.dise.runtime.cpu;

/** Why {@link Cpu#run} returned. */
public enum StopReason {
  /** The guest called exit or exit_group. */
  EXITED,
  /** The step budget of this call ran out; the guest can continue. */
  STEP_LIMIT,
  /** The guest faulted; {@link Cpu#fault()} says how. */
  FAULT,
  /** A breakpoint address was reached (before executing it). */
  BREAKPOINT,
  /** Another thread asked the hart to stop. */
  INTERRUPTED,
  /** Every guest thread is blocked and none can wake another (the kernel says which, and where). */
  DEADLOCK,
  /**
   * Every thread of this process waits for another process (a child to exit, a pipe to fill): the
   * process tree runs the others and comes back.
   */
  BLOCKED
}
