package org.dise.runtime.trigger;

/**
 * Periodic sampling (phase-based remote profiling paper, Section 3.2: "gather a profile every
 * Nth interval"): intervals are taken in groups of {@code length}, and the first group of every
 * {@code period} groups is sampled, so a sample stands for {@code period} times its counts.
 */
public final class PeriodicTrigger implements Trigger {
  private final long interval;
  private final long period;
  private final long length;

  public PeriodicTrigger(long interval, long period, long length) {
    this.interval = Triggers.positive("interval", interval);
    this.period = Triggers.positive("period", period);
    this.length = Triggers.positive("length", length);
  }

  @Override
  public String component() {
    return "periodic";
  }

  @Override
  public long interval() {
    return interval;
  }

  @Override
  public boolean sample(long index) {
    return (index / length) % period == 0;
  }

  @Override
  public double scale(long index) {
    return period;
  }
}
