package org.dise.runtime.trigger;

import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.dise.runtime.cpu.BlockObserver;

/**
 * Phase-aware sampling (first paper, Section 4; phase-based remote profiling paper, Section 2.3):
 * the profiling daemon. Online, it looks up the phase the {@link PhaseTracker} predicts for the
 * next interval in the {@link PhaseTable} and samples the interval when that phase has not been
 * sampled and this is its first ({@code first}) or third or later ({@code third}) interval; at the
 * end of the interval the actual phase's count goes up, and a sample counts for the actual phase.
 * With a {@link PhasePlan} from a first pass it samples exactly the plan's representatives (perfect
 * prediction, and the oracle policies {@code centroid} and {@code random}). A sample stands for its
 * phase's instructions over the sampled ones.
 */
public final class PhaseAwareTrigger implements Trigger {
  private final long interval;
  private final PhaseTracker tracker;
  private final PhaseTable table;
  private final int warmup;
  private final Set<Long> planned;
  private final BitSet sampled = new BitSet();
  private final Map<Integer, long[]> perPhase = new HashMap<>();
  private final PhaseTracker.LongList lengths = new PhaseTracker.LongList();

  /**
   * @param policy first or third (online), or with a plan also centroid or random
   * @param plan the first pass's plan, or null to run online on the tracker's predictions
   */
  public PhaseAwareTrigger(
      long interval,
      PhaseTracker tracker,
      PhaseTable table,
      String policy,
      PhasePlan plan,
      long seed) {
    this.interval = Triggers.positive("interval", interval);
    this.tracker = tracker;
    this.table = table;
    if (plan != null) {
      this.planned = plan.representatives(policy, seed);
      this.warmup = 0;
    } else {
      this.planned = null;
      this.warmup =
          switch (policy) {
            case "first" -> 0;
            case "third" -> 2;
            case "centroid", "random" ->
                throw new IllegalArgumentException(
                    "policy " + policy + " is an oracle: it needs a first pass over the program");
            default ->
                throw new IllegalArgumentException(
                    "unknown representative policy '"
                        + policy
                        + "' (first, third, centroid or random)");
          };
    }
  }

  @Override
  public String component() {
    return "phase_aware";
  }

  @Override
  public long interval() {
    return interval;
  }

  @Override
  public boolean sample(long index) {
    boolean s;
    if (planned != null) {
      s = planned.contains(index);
    } else {
      int p = tracker.predictedNext();
      if (p < 0) {
        s = false; // nothing is known before the first interval ends
      } else {
        PhaseTable.Entry e = table.get(p);
        s = !e.sampled && e.count >= warmup;
      }
    }
    sampled.set((int) index, s);
    return s;
  }

  @Override
  public void endInterval(long index, long instructions) {
    int phase = tracker.endInterval();
    PhaseTable.Entry e = table.get(phase);
    e.count++;
    boolean s = sampled.get((int) index);
    if (s) {
      e.sampled = true;
    }
    long[] acc = perPhase.computeIfAbsent(phase, k -> new long[2]);
    acc[0] += instructions;
    if (s) {
      acc[1] += instructions;
    }
    lengths.add(instructions);
  }

  @Override
  public double scale(long index) {
    long[] acc = perPhase.get(tracker.phase(index));
    return acc == null || acc[1] == 0 ? 0 : (double) acc[0] / acc[1];
  }

  @Override
  public PhaseTrace phases() {
    return tracker;
  }

  @Override
  public BlockObserver observer() {
    return tracker;
  }

  public PhaseTracker tracker() {
    return tracker;
  }

  /**
   * The accuracy of the phase predictions this trigger sampled by: 1 with a first pass's plan (the
   * oracle the papers assume, whatever the tracker alongside would have predicted), else the
   * tracker's predictor's.
   */
  public double predictionAccuracy() {
    return planned != null ? 1.0 : tracker.predictionAccuracy();
  }

  /** Whether a first pass's plan, not the tracker's predictions, decides the samples. */
  public boolean oracle() {
    return planned != null;
  }

  /**
   * A phase the optimization center already holds enough of (phase-based remote profiling paper,
   * Section 3.2.5): added to the tracker with its signature and to the phase table with its sampled
   * bit set, so that this device does not sample it. Returns its phase ID.
   */
  public int markKnown(double[] signature) {
    int id = tracker.addKnownPhase(signature);
    table.get(id).sampled = true;
    return id;
  }

  public PhaseTable table() {
    return table;
  }

  /** Phases that no sampled interval represents (their instructions are missing from estimates). */
  public int unsampledPhases() {
    int n = 0;
    for (long[] acc : perPhase.values()) {
      n += acc[1] == 0 ? 1 : 0;
    }
    return n;
  }
}
