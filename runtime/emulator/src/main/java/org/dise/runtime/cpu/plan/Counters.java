package org.dise.runtime.cpu.plan;

/**
 * The counters a plan's {@link PlanOp.Count} micro-ops act on (the HPS counters of the first paper,
 * Section 3.3): the stage's, held by the translated unit as a constant.
 */
public interface Counters {
  /** {@code inc_c}. */
  void inc(int c);

  /** {@code dec_c}. */
  void dec(int c);

  /** {@code set_c(v)}. */
  void set(int c, long v);

  /** The value of counter register {@code i} (a {@code set_c(HPS_Ri)} source). */
  long register(int i);
}
