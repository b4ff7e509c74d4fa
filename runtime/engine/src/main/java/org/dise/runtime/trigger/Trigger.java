package org.dise.runtime.trigger;

/**
 * An external trigger source (first paper, Section 3.4): at every interval boundary it decides
 * whether the next interval is profiled, and the driver injects {@code on_trig_inst} or {@code
 * off_trig_inst} into the decode stream accordingly, where the productions of equations (1) and (2)
 * turn the codeword into the sampling flag. Implementations: exhaustive, periodic, random,
 * phase-aware.
 */
public interface Trigger {
  /** The component name a binding uses ({@code periodic}, {@code phase_aware}, ...). */
  String component();

  /** The interval length, in application instructions. */
  long interval();

  /**
   * Whether interval {@code index} (0-based) is sampled; called once at its start, after {@link
   * #endInterval} of the interval before it.
   */
  boolean sample(long index);

  /** Called at the end of interval {@code index} (the last interval may be shorter). */
  default void endInterval(long index, long instructions) {}

  /**
   * How much sampled interval {@code index} stands for in a whole-program estimate, asked at the
   * end of the run: 1 for exhaustive, N for periodic, P for random, and for phase-aware sampling
   * the application instructions of its phase over those of its sampled intervals.
   */
  double scale(long index);

  /** The phase-ID trace, when this trigger tracks phases; null otherwise. */
  default PhaseTrace phases() {
    return null;
  }

  /**
   * What this trigger needs to see of the executed code (the phase tracker's branch footprint), or
   * null when it needs nothing; see {@link org.dise.runtime.cpu.BlockObserver}.
   */
  default org.dise.runtime.cpu.BlockObserver observer() {
    return null;
  }
}
