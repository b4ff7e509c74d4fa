package org.dise.runtime.trigger;

import java.util.HashMap;
import java.util.Map;

/**
 * Predicts the phase of the next interval (phase-based remote profiling paper, Section 2.3, after
 * Sherwood et al. 2003): {@code last} predicts that the current phase continues; {@code markov} is
 * the run-length Markov predictor, which remembers what followed each (phase, run length) pair and
 * falls back to the last phase.
 */
public final class PhasePredictor {
  /** Run lengths above this are one state of the Markov predictor [choice]. */
  static final int MAX_RUN = 32;

  private final boolean markov;
  private final Map<Long, Integer> table = new HashMap<>();
  private int last = -1;
  private int run;

  private PhasePredictor(boolean markov) {
    this.markov = markov;
  }

  /** The predictor of this name: {@code last} or {@code markov}. */
  public static PhasePredictor named(String name) {
    return switch (name) {
      case "last" -> new PhasePredictor(false);
      case "markov" -> new PhasePredictor(true);
      default ->
          throw new IllegalArgumentException(
              "unknown phase predictor '" + name + "' (last, markov or oracle)");
    };
  }

  /** The phase of the interval that just ended. */
  void update(int phase) {
    if (markov && last >= 0) {
      table.put(key(last, run), phase);
    }
    if (phase == last) {
      run = Math.min(run + 1, MAX_RUN);
    } else {
      last = phase;
      run = 1;
    }
  }

  int predict() {
    if (markov) {
      Integer p = table.get(key(last, run));
      if (p != null) {
        return p;
      }
    }
    return last;
  }

  private static long key(int phase, int run) {
    return ((long) phase << 32) | run;
  }
}
