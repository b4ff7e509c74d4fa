package org.dise.runtime.trigger;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
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
 * prediction, and the oracle policies {@code centroid} and {@code random}). What a sample stands
 * for in a whole-program estimate is the {@link Scaling}.
 */
public final class PhaseAwareTrigger extends IntervalTrigger {
  /**
   * What a sampled interval stands for in a whole-program estimate; the papers say only that a
   * phase's representative approximates the phase (spec/sampling.md, "Whole-program estimates").
   */
  public enum Scaling {
    /**
     * Every interval is represented by the sampled interval of its own phase whose footprint is
     * nearest to its own, or, when its phase has no sample, by the nearest sampled interval of any
     * phase if that is within the {@code reach} [choice, the default]: phases that {@code third}
     * never samples are still represented, and a phase sampled more than once (after mispredictions
     * or table evictions) is split among its samples.
     */
    NEAREST,
    /**
     * A sample stands for its phase's instructions over the phase's sampled ones; phases never
     * sampled are missing from the estimate.
     */
    PHASE;

    public static Scaling named(String name) {
      return switch (name) {
        case "nearest" -> NEAREST;
        case "phase" -> PHASE;
        default ->
            throw new IllegalArgumentException("unknown scaling '" + name + "' (nearest or phase)");
      };
    }
  }

  private final PhaseTracker tracker;
  private final PhaseTable table;
  private final int warmup;
  private final Set<Long> planned;
  private final BitSet sampled = new BitSet();
  private final Map<Integer, long[]> perPhase = new HashMap<>();
  private final PhaseTracker.LongList lengths = new PhaseTracker.LongList();
  private final Scaling scaling;
  private final double reach;
  private final Set<Integer> known = new HashSet<>();

  /** Per interval, what it stands for (NEAREST), computed when first asked after a boundary. */
  private double[] nearestScale;

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
      long seed,
      Scaling scaling,
      double reach) {
    super("phase_aware", interval);
    this.scaling = scaling;
    if (!(reach >= 0 && reach <= 100)) {
      throw new IllegalArgumentException("reach must be a percentage from 0 to 100, not " + reach);
    }
    this.reach = reach;
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
    nearestScale = null;
  }

  @Override
  public double scale(long index) {
    if (scaling == Scaling.NEAREST) {
      if (nearestScale == null) {
        nearestScale = nearestScales();
      }
      return index < nearestScale.length ? nearestScale[(int) index] : 0;
    }
    long[] acc = perPhase.get(tracker.phase(index));
    return acc == null || acc[1] == 0 ? 0 : (double) acc[0] / acc[1];
  }

  /**
   * {@link Scaling#NEAREST}: each interval's instructions go to the sampled interval nearest to it
   * by footprint distance, within its own phase when that phase has a sample, else among all
   * samples if the nearest is closer than {@code reach}; a sample's scale is what it was given over
   * its own instructions. Intervals of phases known from the optimization center are left out (the
   * center holds their profile).
   */
  private double[] nearestScales() {
    int n = lengths.size();
    double[] given = new double[n];
    Map<Integer, List<Integer>> byPhase = new HashMap<>();
    List<Integer> all = new ArrayList<>();
    for (int i = sampled.nextSetBit(0); i >= 0 && i < n; i = sampled.nextSetBit(i + 1)) {
      byPhase.computeIfAbsent(tracker.phase(i), k -> new ArrayList<>()).add(i);
      all.add(i);
    }
    if (all.isEmpty()) {
      return given;
    }
    for (int i = 0; i < n; i++) {
      if (sampled.get(i)) {
        given[i] += lengths.get(i);
        continue;
      }
      int phase = tracker.phase(i);
      if (known.contains(phase)) {
        continue;
      }
      List<Integer> own = byPhase.get(phase);
      List<Integer> candidates = own != null ? own : all;
      double[] f = tracker.footprintView(i);
      int best = candidates.get(0);
      double bestDistance = Double.MAX_VALUE;
      for (int j : candidates) {
        double d = PhaseTracker.distance(f, tracker.footprintView(j));
        if (d < bestDistance) {
          bestDistance = d;
          best = j;
        }
      }
      if (own != null || bestDistance < reach) {
        given[best] += lengths.get(i);
      }
    }
    for (int i = 0; i < n; i++) {
      given[i] = sampled.get(i) && lengths.get(i) > 0 ? given[i] / lengths.get(i) : 0;
    }
    return given;
  }

  /** What a sampled interval stands for in estimates. */
  public Scaling scaling() {
    return scaling;
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
    known.add(id);
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
