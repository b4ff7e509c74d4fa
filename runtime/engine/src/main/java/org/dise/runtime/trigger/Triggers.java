package org.dise.runtime.trigger;

import static org.dise.runtime.sink.ParamSpec.atLeast;
import static org.dise.runtime.sink.ParamSpec.choice;
import static org.dise.runtime.sink.ParamSpec.decimal;
import static org.dise.runtime.sink.ParamSpec.integer;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.dise.runtime.sink.ComponentSpec;
import org.dise.runtime.sink.ComponentSpec.Kind;
import org.dise.runtime.sink.ParamSpec;

/**
 * Creates the trigger a {@link TriggerSpec} names, with the defaults the papers give or that
 * spec/sampling.md documents as choices (first paper, Sections 3.4 and 4).
 */
public final class Triggers {
  private Triggers() {}

  /** The papers' interval: 10 million application instructions. */
  public static final long DEFAULT_INTERVAL = 10_000_000;

  /** The papers' footprint: 32 buckets. */
  public static final int DEFAULT_BUCKETS = 32;

  /** The papers' phase table: 20 entries. */
  public static final int DEFAULT_TABLE = 20;

  /** The papers' representative policy. */
  public static final String DEFAULT_POLICY = "third";

  /**
   * What a sampled interval stands for: the intervals nearest to it by footprint [choice]; see
   * {@link PhaseAwareTrigger.Scaling}.
   */
  public static final String DEFAULT_SCALING = "nearest";

  /**
   * Nearest scaling: an interval of a phase without samples is represented by a sample of another
   * phase only when their footprints are less than 50% apart [choice]: nearer than that, the sample
   * is expected to describe it better than leaving it out does; farther, worse.
   */
  public static final double DEFAULT_REACH = 50;

  /** Similarity threshold, percent of an interval's instructions [choice]. */
  public static final double DEFAULT_THRESHOLD = 25;

  /** Periodic: every 10th interval [choice]. */
  public static final long DEFAULT_PERIOD = 10;

  /** Random: one interval in 10 [choice]. */
  public static final long DEFAULT_ONE_IN = 10;

  public static final long DEFAULT_SEED = 1;

  /**
   * The trigger components with their parameters and defaults, declared here beside the triggers
   * (the catalogue collects them after the sinks'), in documentation order.
   */
  public static List<ComponentSpec> components() {
    return Specs.ALL;
  }

  /** The trigger component named {@code name}, if there is one. */
  public static Optional<ComponentSpec> component(String name) {
    return Specs.ALL.stream().filter(c -> c.name().equals(name)).findFirst();
  }

  /** Built on first use. */
  private static final class Specs {
    static final List<ComponentSpec> ALL = build();

    private Specs() {}

    private static List<ComponentSpec> build() {
      List<ComponentSpec> m = new ArrayList<>();
      ParamSpec interval =
          atLeast("interval", 1, text(DEFAULT_INTERVAL), "application instructions per interval");
      ParamSpec counter =
          integer("counter", 0, Integer.MAX_VALUE, "0", "the HPS counter the trigger drives");
      add(m, "exhaustive", List.of(interval, counter), "every interval sampled");
      add(
          m,
          "periodic",
          List.of(
              interval,
              counter,
              atLeast("period", 1, text(DEFAULT_PERIOD), "sample one interval in this many"),
              atLeast("length", 1, "1", "intervals per sample")),
          "every Nth interval");
      add(
          m,
          "random",
          List.of(
              interval,
              counter,
              atLeast("one_in", 1, text(DEFAULT_ONE_IN), "sample with probability 1/one_in"),
              atLeast("length", 1, "1", "intervals per sample"),
              integer("seed", Long.MIN_VALUE, Long.MAX_VALUE, text(DEFAULT_SEED), "random seed")),
          "random intervals, seeded");
      add(
          m,
          "phase_aware",
          List.of(
              interval,
              counter,
              integer("buckets", 1, Integer.MAX_VALUE, text(DEFAULT_BUCKETS), "footprint buckets"),
              decimal(
                  "threshold", 0, 100, text(DEFAULT_THRESHOLD), "similarity threshold, percent"),
              integer("table", 1, Integer.MAX_VALUE, text(DEFAULT_TABLE), "phase table entries"),
              choice(
                  "policy",
                  List.of("first", "third", "centroid", "random"),
                  DEFAULT_POLICY,
                  "representative interval policy"),
              integer("seed", Long.MIN_VALUE, Long.MAX_VALUE, text(DEFAULT_SEED), "random seed"),
              choice(
                  "predictor", List.of("last", "markov", "oracle"), "last", "next-phase predictor"),
              choice(
                  "scaling",
                  List.of("nearest", "phase"),
                  DEFAULT_SCALING,
                  "what a sampled interval stands for in estimates"),
              decimal(
                  "reach",
                  0,
                  100,
                  text(DEFAULT_REACH),
                  "nearest scaling: farthest footprint distance, percent, across phases")),
          "phase-aware sampling (the profiling daemon)");
      return List.copyOf(m);
    }

    /** A trigger default as the catalogue prints it ({@code 25}, not {@code 25.0}). */
    private static String text(double v) {
      return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

    private static void add(
        List<ComponentSpec> m, String name, List<ParamSpec> params, String doc) {
      m.add(new ComponentSpec(name, Kind.TRIGGER, params, null, "", false, Set.of(), 0, doc, null));
    }
  }

  /**
   * The trigger of {@code spec}; {@code plan} is the first pass's phase plan, needed when {@link
   * TriggerSpec#needsFirstPass} says so (null otherwise).
   *
   * @throws IllegalArgumentException naming the parameter that is wrong
   */
  public static Trigger create(TriggerSpec spec, PhasePlan plan) {
    long interval = spec.interval();
    long seed = spec.number("seed", DEFAULT_SEED);
    return switch (spec.component()) {
      case "exhaustive" -> new ExhaustiveTrigger(interval);
      case "periodic" ->
          new PeriodicTrigger(
              interval, spec.number("period", DEFAULT_PERIOD), spec.number("length", 1));
      case "random" ->
          new RandomTrigger(
              interval, spec.number("one_in", DEFAULT_ONE_IN), spec.number("length", 1), seed);
      case "phase_aware" -> {
        PhaseTracker tracker = tracker(spec);
        PhaseTable table = new PhaseTable((int) spec.number("table", DEFAULT_TABLE), seed);
        if (spec.needsFirstPass() && plan == null) {
          throw new IllegalArgumentException(
              "phase-aware sampling with policy "
                  + spec.text("policy", DEFAULT_POLICY)
                  + " and predictor "
                  + spec.text("predictor", "last")
                  + " needs a first pass over the program");
        }
        yield new PhaseAwareTrigger(
            interval,
            tracker,
            table,
            spec.text("policy", DEFAULT_POLICY),
            spec.needsFirstPass() ? plan : null,
            seed,
            PhaseAwareTrigger.Scaling.named(spec.text("scaling", DEFAULT_SCALING)),
            spec.decimal("reach", DEFAULT_REACH));
      }
      default ->
          throw new IllegalArgumentException(
              "unknown trigger component '"
                  + spec.component()
                  + "' (exhaustive, periodic, random, phase_aware)");
    };
  }

  /**
   * Checks every parameter of {@code spec} without running anything.
   *
   * @throws IllegalArgumentException naming the parameter that is wrong
   */
  public static void check(TriggerSpec spec) {
    java.util.Set<String> known =
        switch (spec.component()) {
          case "exhaustive" -> java.util.Set.of("interval", "counter");
          case "periodic" -> java.util.Set.of("interval", "counter", "period", "length");
          case "random" -> java.util.Set.of("interval", "counter", "one_in", "length", "seed");
          case "phase_aware" ->
              java.util.Set.of(
                  "interval",
                  "counter",
                  "buckets",
                  "threshold",
                  "table",
                  "policy",
                  "seed",
                  "predictor",
                  "scaling",
                  "reach");
          default -> java.util.Set.of();
        };
    for (String p : spec.params().keySet()) {
      if (!known.isEmpty() && !known.contains(p)) {
        throw new IllegalArgumentException(
            spec.component()
                + " has no parameter '"
                + p
                + "'"
                + (Set.of("threshold", "predictor", "scaling", "reach").contains(p)
                    ? " (it is for phase)"
                    : ""));
      }
    }
    if (spec.phaseAware()) {
      String policy = spec.text("policy", DEFAULT_POLICY);
      if (!java.util.Set.of("first", "third", "centroid", "random").contains(policy)) {
        throw new IllegalArgumentException(
            "unknown representative policy '" + policy + "' (first, third, centroid or random)");
      }
      String predictor = spec.text("predictor", "last");
      if (!predictor.equals("oracle")) {
        PhasePredictor.named(predictor);
      }
      new PhaseTable((int) spec.number("table", DEFAULT_TABLE), 0);
      tracker(spec);
    }
    // The catalogue's ranges (what acf check reports at line and column for an ACF's
    // trigger); counts such as 10M are read as the numbers they stand for.
    component(spec.component())
        .ifPresent(
            c -> {
              java.util.Map<String, String> text = new java.util.LinkedHashMap<>();
              spec.params()
                  .forEach(
                      (k, v) ->
                          text.put(
                              k,
                              c.param(k)
                                      .filter(
                                          p -> p.type() == org.dise.runtime.sink.ParamSpec.Type.INT)
                                      .isPresent()
                                  ? numberText(spec, k, v)
                                  : v));
              java.util.List<org.dise.runtime.sink.ComponentSpec.Problem> problems =
                  c.problems(text);
              if (!problems.isEmpty()) {
                throw new IllegalArgumentException(problems.get(0).message());
              }
            });
    if (!spec.needsFirstPass()) {
      create(spec, null);
    }
  }

  /** A count parameter as a plain number ({@code 10M} as 10000000); refuses one that is not. */
  private static String numberText(TriggerSpec spec, String key, String v) {
    return Long.toString(spec.number(key, 0));
  }

  /** A phase tracker with the spec's buckets, threshold and predictor. */
  public static PhaseTracker tracker(TriggerSpec spec) {
    String predictor = spec.text("predictor", "last");
    return new PhaseTracker(
        (int) spec.number("buckets", DEFAULT_BUCKETS),
        spec.decimal("threshold", DEFAULT_THRESHOLD),
        PhasePredictor.named(predictor.equals("oracle") ? "last" : predictor));
  }

  static long positive(String name, long v) {
    if (v < 1) {
      throw new IllegalArgumentException(name + " must be at least 1, not " + v);
    }
    return v;
  }

  /** A count such as {@code 1000000}, {@code 1M} or {@code 500K}. */
  public static long parseCount(String name, String v) {
    String s = v.trim();
    long mult = 1;
    if (!s.isEmpty()) {
      switch (Character.toUpperCase(s.charAt(s.length() - 1))) {
        case 'K' -> mult = 1_000;
        case 'M' -> mult = 1_000_000;
        case 'G' -> mult = 1_000_000_000;
        default -> {}
      }
      if (mult != 1) {
        s = s.substring(0, s.length() - 1);
      }
    }
    try {
      return Math.multiplyExact(Long.parseLong(s), mult);
    } catch (NumberFormatException | ArithmeticException e) {
      throw new IllegalArgumentException(
          name + " must be a whole number (suffix K, M or G" + " allowed), not '" + v + "'");
    }
  }
}
