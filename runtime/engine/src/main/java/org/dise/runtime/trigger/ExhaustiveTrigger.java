package org.dise.runtime.trigger;

/**
 * Samples every interval (phase-based remote profiling paper, Section 3.2: the "exhaustive" policy,
 * the exact profile the other policies are measured against).
 */
public final class ExhaustiveTrigger implements Trigger {
  private final long interval;

  public ExhaustiveTrigger(long interval) {
    this.interval = Triggers.positive("interval", interval);
  }

  @Override
  public String component() {
    return "exhaustive";
  }

  @Override
  public long interval() {
    return interval;
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
