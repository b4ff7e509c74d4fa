package org.dise.runtime.trigger;

/**
 * Samples every interval (phase-based remote profiling paper, Section 3.2: the "exhaustive" policy,
 * the exact profile the other policies are measured against).
 */
public final class ExhaustiveTrigger extends IntervalTrigger {

  public ExhaustiveTrigger(long interval) {
    super("exhaustive", interval);
  }

  @Override
  public boolean sample(long index) {
    return true;
  }

  @Override
  public double scale(long index) {
    return 1;
  }
}
