package org.dise.runtime.trigger;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;

/**
 * What a first pass over the program knows about every interval's phase: the oracle that the
 * papers' evaluation assumes (phase-based remote profiling paper, Section 3.2.1: perfect phase
 * prediction, and the {@code centroid} and {@code random} representative policies, which need
 * future knowledge). Picks one representative interval per phase.
 */
public final class PhasePlan {
  private final int[] phases;
  private final double[][] footprints;

  /** The plan of a tracker that saw a whole first pass. */
  public PhasePlan(PhaseTracker tracker) {
    int n = (int) tracker.intervals();
    phases = new int[n];
    footprints = new double[n][];
    for (int i = 0; i < n; i++) {
      phases[i] = tracker.phase(i);
      footprints[i] = tracker.footprint(i);
    }
  }

  public int intervals() {
    return phases.length;
  }

  public int phase(long index) {
    return index < phases.length ? phases[(int) index] : -1;
  }

  /**
   * The interval each phase is sampled at under {@code policy}: {@code first} its first interval,
   * {@code third} its third (its last when it has fewer: the oracle never leaves a phase out)
   * [choice], {@code centroid} the interval nearest the mean of its footprints, {@code random} one
   * of its intervals drawn with {@code seed}.
   */
  public TreeSet<Long> representatives(String policy, long seed) {
    Map<Integer, List<Integer>> members = new HashMap<>();
    for (int i = 0; i < phases.length; i++) {
      members.computeIfAbsent(phases[i], k -> new ArrayList<>()).add(i);
    }
    SplittableRandom random = new SplittableRandom(seed);
    TreeSet<Long> out = new TreeSet<>();
    List<Integer> ids = new ArrayList<>(members.keySet());
    ids.sort(null);
    for (int p : ids) {
      List<Integer> m = members.get(p);
      int pick =
          switch (policy) {
            case "first" -> m.get(0);
            case "third" -> m.get(Math.min(2, m.size() - 1));
            case "random" -> m.get(random.nextInt(m.size()));
            case "centroid" -> centroid(m);
            default ->
                throw new IllegalArgumentException(
                    "unknown representative policy '"
                        + policy
                        + "' (first, third, centroid or random)");
          };
      out.add((long) pick);
    }
    return out;
  }

  private int centroid(List<Integer> m) {
    double[] mean = new double[footprints[m.get(0)].length];
    for (int i : m) {
      for (int b = 0; b < mean.length; b++) {
        mean[b] += footprints[i][b] / m.size();
      }
    }
    int best = m.get(0);
    double bestD = Double.MAX_VALUE;
    for (int i : m) {
      double d = PhaseTracker.distance(footprints[i], mean);
      if (d < bestD) {
        bestD = d;
        best = i;
      }
    }
    return best;
  }
}
