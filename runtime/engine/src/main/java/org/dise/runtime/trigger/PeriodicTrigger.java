package org.dise.runtime.trigger;

/**
 * Periodic sampling (phase-based remote profiling paper, Section 3.2: "gather a profile every Nth
 * interval"): intervals are taken in groups of {@code length}, and the first group of every {@code
 * period} groups is sampled, so a sample stands for {@code period} times its counts.
 */
public final class PeriodicTrigger extends IntervalTrigger {
  private final long period;
  private final long length;

  public PeriodicTrigger(long interval, long period, long length) {
    super("periodic", interval);
    this.period = Triggers.positive("period", period);
    this.length = Triggers.positive("length", length);
  }

  @Override
  public boolean sample(long index) {
    return (index / length) % period == 0;
  }

  /** Application instructions of each interval that ended. */
  private final PhaseTracker.LongList lengths = new PhaseTracker.LongList();

  @Override
  public void endInterval(long index, long instructions) {
    lengths.add(instructions);
  }

  /**
   * {@code period}, except in a cycle (a sampled group and the groups up to the next sample) that
   * the run did not finish: there the sample stands for the cycle's instructions over its own, so a
   * sample near the end is not counted as if the program had run on [choice].
   */
  @Override
  public double scale(long index) {
    long cycle = length * period;
    long first = index / cycle * cycle;
    if (first + cycle <= lengths.size()) {
      return period;
    }
    long all = 0;
    long sampled = 0;
    for (long i = first; i < lengths.size(); i++) {
      long n = lengths.get((int) i);
      all += n;
      sampled += sample(i) ? n : 0;
    }
    return sampled == 0 ? period : (double) all / sampled;
  }
}
