package org.dise.runtime.trigger;

import java.util.SplittableRandom;

/**
 * Random sampling (phase-based remote profiling paper, Section 3.2: "gather a profile for interval
 * i with a probability of 1/N"): each group of {@code length} intervals is sampled with probability
 * 1/{@code oneIn}, drawn from a generator seeded with {@code seed}, so the same seed samples the
 * same intervals. A sample stands for {@code oneIn} times its counts.
 */
public final class RandomTrigger extends IntervalTrigger {
  private final long oneIn;
  private final long length;
  private final SplittableRandom random;
  private long group = -1;
  private boolean groupSampled;

  public RandomTrigger(long interval, long oneIn, long length, long seed) {
    super("random", interval);
    this.oneIn = Triggers.positive("one_in", oneIn);
    this.length = Triggers.positive("length", length);
    this.random = new SplittableRandom(seed);
  }

  @Override
  public boolean sample(long index) {
    long g = index / length;
    while (group < g) { // one draw per group, in order, whatever asks
      group++;
      groupSampled = random.nextLong(oneIn) == 0;
    }
    return groupSampled;
  }

  @Override
  public double scale(long index) {
    return oneIn;
  }
}
