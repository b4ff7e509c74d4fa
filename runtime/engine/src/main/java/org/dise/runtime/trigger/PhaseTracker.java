package org.dise.runtime.trigger;

import java.util.ArrayList;
import java.util.List;
import org.dise.runtime.cpu.BlockObserver;

/**
 * The phase tracker (phase-based remote profiling paper, Section 2.3, after Sherwood et al., ISCA
 * 2003): each branch's PC is hashed into one of {@code buckets} counters, which it increments by
 * the instructions run since the previous branch; at the end of an interval the footprint,
 * normalised to the interval's instructions, is compared with the signatures of the phases seen so
 * far by Manhattan distance, and the interval joins the nearest phase under the threshold or starts
 * a new one. A {@link PhasePredictor} predicts the next interval's phase. See spec/sampling.md.
 */
public final class PhaseTracker implements BlockObserver, PhaseTrace {
  private final long[] footprint;
  private final double threshold;

  /** One signature per phase (its first interval's footprint, normalised) [choice]. */
  private final List<double[]> signatures = new ArrayList<>();

  /** Every interval's normalised footprint (for the centroid policy and the tests). */
  private final List<double[]> footprints = new ArrayList<>();

  private final LongList phases = new LongList();
  private final LongList predictions = new LongList();
  private final PhasePredictor predictor;
  private int next = -1;

  /**
   * A tracker with {@code buckets} footprint counters and a similarity threshold in percent: two
   * intervals are in one phase when less than {@code thresholdPercent}% of their instructions would
   * have to move between buckets to make their footprints equal.
   */
  public PhaseTracker(int buckets, double thresholdPercent, PhasePredictor predictor) {
    if (buckets < 1) {
      throw new IllegalArgumentException("buckets must be at least 1, not " + buckets);
    }
    if (!(thresholdPercent >= 0 && thresholdPercent <= 100)) {
      throw new IllegalArgumentException(
          "threshold must be a percentage from 0 to 100, not " + thresholdPercent);
    }
    this.footprint = new long[buckets];
    this.threshold = thresholdPercent;
    this.predictor = predictor;
  }

  @Override
  public void block(long endPc, int instructions) {
    footprint[bucket(endPc)] += instructions;
  }

  /** The footprint bucket of a branch address (a multiplicative hash of its halfword index). */
  int bucket(long pc) {
    long h = (pc >>> 1) * 0x9E3779B97F4A7C15L;
    return (int) Long.remainderUnsigned(h >>> 32, footprint.length);
  }

  /**
   * Ends the current interval: classifies it, records its phase and the prediction that was made
   * for it, and predicts the next one. Returns its phase ID.
   */
  public int endInterval() {
    long total = 0;
    for (long v : footprint) {
      total += v;
    }
    double[] f = new double[footprint.length];
    for (int i = 0; i < f.length; i++) {
      f[i] = total == 0 ? 0 : (double) footprint[i] / total;
    }
    java.util.Arrays.fill(footprint, 0);
    int best = -1;
    double bestDistance = Double.MAX_VALUE;
    for (int p = 0; p < signatures.size(); p++) {
      double d = distance(f, signatures.get(p));
      if (d < bestDistance) {
        bestDistance = d;
        best = p;
      }
    }
    int id = best;
    if (best < 0 || bestDistance >= threshold) {
      id = signatures.size();
      signatures.add(f);
    }
    footprints.add(f);
    phases.add(id);
    predictions.add(next);
    predictor.update(id);
    next = predictor.predict();
    return id;
  }

  /**
   * Manhattan distance of two normalised footprints in percent of the instructions: half the sum of
   * absolute differences (0 for equal footprints, 100 for disjoint ones).
   */
  public static double distance(double[] a, double[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += Math.abs(a[i] - b[i]);
    }
    return 50 * s;
  }

  /**
   * Adds a phase known from elsewhere (the optimization center's feedback, phase-based remote
   * profiling paper, Section 3.2.5) with its signature, before any interval ends; returns its phase
   * ID. Intervals close to it then join it as if this tracker had seen it.
   */
  public int addKnownPhase(double[] signature) {
    if (signature.length != footprint.length) {
      throw new IllegalArgumentException(
          "a signature of "
              + signature.length
              + " buckets does not fit a tracker of "
              + footprint.length);
    }
    signatures.add(signature.clone());
    return signatures.size() - 1;
  }

  /** The number of footprint buckets (the length of a signature). */
  public int buckets() {
    return footprint.length;
  }

  /** The phase predicted for the interval now starting (-1 before the first has ended). */
  public int predictedNext() {
    return next;
  }

  /** Phases found so far. */
  public int phaseCount() {
    return signatures.size();
  }

  /** The normalised footprint of interval {@code index}. */
  public double[] footprint(long index) {
    return footprints.get((int) index).clone();
  }

  /** The normalised footprint of interval {@code index}, not copied: callers must not change it. */
  double[] footprintView(long index) {
    return footprints.get((int) index);
  }

  @Override
  public long intervals() {
    return phases.size();
  }

  @Override
  public int phase(long index) {
    return (int) phases.get((int) index);
  }

  @Override
  public int predicted(long index) {
    return (int) predictions.get((int) index);
  }

  /** The fraction of intervals (after the first) whose phase was predicted correctly. */
  public double predictionAccuracy() {
    int right = 0;
    for (int i = 1; i < phases.size(); i++) {
      right += phases.get(i) == predictions.get(i) ? 1 : 0;
    }
    return phases.size() <= 1 ? 1.0 : (double) right / (phases.size() - 1);
  }

  /** A growable list of longs (no boxing on the tracker's path). */
  public static final class LongList {
    private long[] a = new long[64];
    private int n;

    public void add(long v) {
      if (n == a.length) {
        a = java.util.Arrays.copyOf(a, n * 2);
      }
      a[n++] = v;
    }

    public long get(int i) {
      if (i < 0 || i >= n) {
        throw new IndexOutOfBoundsException(i);
      }
      return a[i];
    }

    public int size() {
      return n;
    }
  }
}
