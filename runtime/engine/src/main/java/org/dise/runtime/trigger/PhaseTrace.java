package org.dise.runtime.trigger;

/**
 * The phase-ID trace a phase tracker keeps (phase-based remote profiling paper, Section 2.3): for
 * every completed interval, the phase it was classified into and the phase the predictor had
 * predicted for it. Written as {@code phases.csv} and used to scale a sampled profile.
 */
public interface PhaseTrace {
  /** Intervals classified so far. */
  long intervals();

  /** The phase ID of interval {@code index}. */
  int phase(long index);

  /** The phase ID predicted for interval {@code index} before it ran (-1 for the first). */
  int predicted(long index);
}
