package org.dise.runtime.profiles.sampling;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.LinkedHashMap;
import java.util.Map;
import org.dise.runtime.Machine;
import org.dise.runtime.dise.ProfilingEngine;
import org.dise.runtime.dise.TriggerDriver;
import org.dise.runtime.metrics.Accuracy;
import org.dise.runtime.trigger.ExhaustiveTrigger;
import org.dise.runtime.trigger.PhasePlan;
import org.dise.runtime.trigger.PhaseTracker;
import org.dise.runtime.trigger.Trigger;
import org.dise.runtime.trigger.TriggerSpec;
import org.dise.runtime.trigger.Triggers;

/**
 * One sampled run of a program with everything the papers measure around it (phase-based remote
 * profiling paper, Section 3.2): when asked (shadow exhaustive) or when the strategy is an oracle,
 * a first pass runs the same program under the exhaustive trigger with its output discarded, giving
 * the exact profile and every interval's phase; then the sampled pass runs, and its profile is
 * scaled into a whole-program estimate and compared with the exact one. The first pass is not
 * charged to the sampled run's costs. See spec/sampling.md.
 */
public final class SamplingRun {
  private SamplingRun() {}

  /** Makes a fresh machine (the program loaded, nothing run) and engine for each pass. */
  public interface Setup {
    Machine machine();

    ProfilingEngine engine();

    /** Told when a pass starts ({@code "first pass"} or {@code "sampled run"}), for progress. */
    default void started(String pass, TriggerDriver driver) {}

    /**
     * What hears of the sampled pass's interval boundaries: {@code estimator}, or a listener that
     * calls it first and then does more (a device's profile buffer).
     */
    default TriggerDriver.Listener listener(ProfileEstimator estimator) {
      return estimator;
    }

    /**
     * The first pass's standard input: empty by default; a setup whose program reads its input
     * gives the same input again, so that both passes run the same program.
     */
    default InputStream firstPassInput() {
      return InputStream.nullInputStream();
    }
  }

  /** What a first pass knows: the exact profile of every sink and the phase plan (or null). */
  public record FirstPass(
      Map<String, Map<String, Long>> exact, PhasePlan plan, Machine.Outcome outcome) {}

  /** One sink's accuracy: the papers' count error and hot-set error, as fractions. */
  /**
   * One sink's accuracy: count error, the papers' top-15% hot set error, and the hot set error of
   * the entries carrying 90% of the weight ({@link Accuracy#hotWeightSetError}).
   */
  public record SinkAccuracy(
      String sink, double countError, double hotError, double hotWeightError) {
    public SinkAccuracy(String sink, double countError, double hotError) {
      this(sink, countError, hotError, Double.NaN);
    }
  }

  /** The sampled pass and its figures; {@code exact} and {@code accuracy} need a first pass. */
  public record Result(
      Machine machine,
      ProfilingEngine engine,
      TriggerDriver driver,
      Machine.Outcome outcome,
      Map<String, Map<String, Double>> estimate,
      Map<String, Map<String, Long>> exact,
      Map<String, SinkAccuracy> accuracy) {
    public double sampledFraction() {
      return driver.sampledFraction();
    }

    public Trigger trigger() {
      return driver.trigger();
    }

    /** The first sink's accuracy (the one a summary shows), or null without a first pass. */
    public SinkAccuracy primary() {
      return accuracy == null || accuracy.isEmpty() ? null : accuracy.values().iterator().next();
    }
  }

  /**
   * The first pass: the exhaustive trigger at {@code spec}'s interval, with a phase tracker of
   * {@code spec}'s parameters when it is phase-aware; the guest's output is discarded and its input
   * is {@link Setup#firstPassInput}.
   */
  public static FirstPass firstPass(Setup setup, TriggerSpec spec, long maxInsns) {
    Machine m = setup.machine();
    m.kernel().setStdio(0, setup.firstPassInput(), null);
    m.kernel().setStdio(1, null, OutputStream.nullOutputStream());
    m.kernel().setStdio(2, null, OutputStream.nullOutputStream());
    ProfilingEngine engine = setup.engine();
    engine.install(m.cpu());
    PhaseTracker tracker = spec.phaseAware() ? Triggers.tracker(spec) : null;
    TriggerDriver driver =
        new TriggerDriver(m, engine, new ExhaustiveTrigger(spec.interval()), tracker);
    ProfileEstimator sink = new ProfileEstimator(engine.sinks(), m.symbols());
    setup.started("first pass", driver);
    Machine.Outcome out = driver.run(maxInsns);
    return new FirstPass(sink.snapshot(), tracker == null ? null : new PhasePlan(tracker), out);
  }

  /**
   * The first pass a sweep's run of {@code spec} compares with: the sweep's {@code exhaustive} one,
   * except for a strategy that needs its own phases (an oracle of this threshold), which gets a
   * first pass of its own carrying the exhaustive pass's exact profile.
   */
  public static FirstPass firstPassFor(Setup setup, TriggerSpec spec, FirstPass exhaustive) {
    if (!spec.needsFirstPass()) {
      return exhaustive;
    }
    FirstPass own = firstPass(setup, spec, -1);
    return new FirstPass(exhaustive.exact(), own.plan(), own.outcome());
  }

  /**
   * Runs {@code spec} on a fresh machine; {@code first} is a first pass already made (reused by
   * sweeps), or null to make one when {@code shadow} asks or the strategy needs it.
   */
  public static Result run(
      Setup setup, TriggerSpec spec, boolean shadow, FirstPass first, long maxInsns) {
    if (first == null && (shadow || spec.needsFirstPass())) {
      first = firstPass(setup, spec, maxInsns);
    }
    Trigger trigger = Triggers.create(spec, first == null ? null : first.plan());
    Machine m = setup.machine();
    ProfilingEngine engine = setup.engine();
    engine.install(m.cpu());
    TriggerDriver driver = new TriggerDriver(m, engine, trigger, null);
    ProfileEstimator estimator = new ProfileEstimator(engine.sinks(), m.symbols());
    driver.setListener(setup.listener(estimator));
    setup.started("sampled run", driver);
    Machine.Outcome out = driver.run(maxInsns);
    Map<String, Map<String, Double>> estimate = estimator.estimate(trigger);
    Map<String, SinkAccuracy> accuracy = null;
    if (first != null) {
      accuracy = new LinkedHashMap<>();
      for (Map.Entry<String, Map<String, Double>> e : estimate.entrySet()) {
        Map<String, Long> exact = first.exact().getOrDefault(e.getKey(), Map.of());
        accuracy.put(
            e.getKey(),
            new SinkAccuracy(
                e.getKey(),
                Accuracy.countError(exact, e.getValue()),
                Accuracy.hotSetError(exact, e.getValue()),
                Accuracy.hotWeightSetError(exact, e.getValue())));
      }
    }
    return new Result(
        m, engine, driver, out, estimate, first == null ? null : first.exact(), accuracy);
  }
}
