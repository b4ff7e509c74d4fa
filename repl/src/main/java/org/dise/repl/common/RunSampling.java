package org.dise.repl.common;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.trigger.TriggerSpec;
import org.dise.runtime.trigger.Triggers;

/**
 * Sampling with an external trigger, one family of {@link RunOptions} ({@code acf run --sampling}
 * and its tuning options, spec/sampling.md); null for each option not given.
 *
 * @param strategy {@code --sampling}: exhaustive, periodic:N, random:P[:SEED], phase[:POLICY]
 * @param interval {@code --interval}: application instructions per interval (K, M, G suffixes)
 * @param threshold {@code --threshold}: the phase tracker's similarity threshold
 * @param predictor {@code --predictor}: last, markov or oracle
 * @param scaling {@code --scaling}: nearest or phase
 * @param shadowExhaustive {@code --shadow-exhaustive}: also the exact profile, for the errors
 */
public record RunSampling(
    String strategy,
    String interval,
    String threshold,
    String predictor,
    String scaling,
    boolean shadowExhaustive) {
  private boolean tuned() {
    return interval != null || threshold != null || predictor != null || scaling != null;
  }

  /** Whether any sampling option was given. */
  boolean any() {
    return strategy != null || tuned() || shadowExhaustive;
  }

  /** The options without the productions: sampling needs them, and a well-formed interval. */
  void validate(boolean profiled) {
    if (!profiled && any()) {
      throw new UserError(given(true) + " --acf or --config", ExitStatus.USAGE);
    }
    if (interval != null) {
      interval(interval);
    }
  }

  /**
   * {@code --interval}'s value in application instructions, checked as a trigger's interval is (the
   * catalogue's range: at least 1): the one check of every command that takes it ({@code acf run},
   * its point runs, {@code acf sweep}), before the productions are read.
   *
   * @throws UserError (usage) {@code sampling: } and what is wrong
   */
  public static long interval(String given) {
    try {
      TriggerSpec spec =
          RunService.tune(TriggerSpec.parse("exhaustive"), "interval", given, "--interval");
      Triggers.check(spec);
      return spec.interval();
    } catch (IllegalArgumentException e) {
      throw new UserError("sampling: " + e.getMessage(), ExitStatus.USAGE);
    }
  }

  /**
   * The options against a point run, which has no sampling strategy (RunPoints refuses one): {@code
   * --interval} is a simulation point's length ({@code simpoints}), checked as a trigger's; the
   * options that tune a strategy are refused as in a whole run without one.
   */
  void validatePoints(boolean simpoints) {
    if (interval != null && simpoints) {
      interval(interval);
    }
    if ((interval != null && !simpoints)
        || threshold != null
        || predictor != null
        || scaling != null) {
      throw new UserError(given(false, !simpoints) + NO_STRATEGY, ExitStatus.USAGE);
    }
  }

  private static final String NO_STRATEGY =
      " a sampling strategy (--sampling, or a trigger declared in the ACF)";

  /** The interval of a simulation point ({@code --interval}, else {@code fallback}), checked. */
  public long pointInterval(long fallback) {
    return interval == null ? fallback : interval(interval);
  }

  /** "--interval needs" or "--interval and --threshold need": the sampling options given. */
  private String given(boolean withStrategy) {
    return given(withStrategy, true);
  }

  private String given(boolean withStrategy, boolean withInterval) {
    List<String> names = new ArrayList<>();
    if (withStrategy && strategy != null) {
      names.add("--sampling");
    }
    if (withInterval && interval != null) {
      names.add("--interval");
    }
    if (threshold != null) {
      names.add("--threshold");
    }
    if (predictor != null) {
      names.add("--predictor");
    }
    if (scaling != null) {
      names.add("--scaling");
    }
    if (shadowExhaustive) {
      names.add("--shadow-exhaustive");
    }
    String last = names.remove(names.size() - 1);
    return names.isEmpty() ? last + " needs" : String.join(", ", names) + " and " + last + " need";
  }

  /**
   * The sampling strategy: --sampling over the ACF's trigger declaration, with --interval,
   * --threshold, --predictor and --scaling applied; null when there is none.
   *
   * @throws UserError (usage) when a parameter is wrong or tuning has no strategy to tune
   */
  public TriggerSpec trigger(ProductionSet productions, Path origin) {
    if (productions == null) {
      return null; // validate(false) refused every sampling option
    }
    TriggerSpec spec;
    String from = "sampling: ";
    try {
      if (strategy != null) {
        spec = TriggerSpec.parse(strategy);
        // The ACF's interval still applies (every trigger has one); its other parameters
        // belong to its own strategy.
        if (productions.triggers().size() == 1
            && productions.triggers().get(0).params().containsKey("interval")) {
          spec = spec.with("interval", productions.triggers().get(0).params().get("interval"));
        }
      } else if (RunService.declared(productions, String.valueOf(origin)) != null) {
        spec = RunService.declared(productions, String.valueOf(origin));
        from = origin + ": trigger " + productions.triggers().get(0).name() + ": ";
      } else if (tuned() || shadowExhaustive) {
        throw new UserError(given(false) + NO_STRATEGY, ExitStatus.USAGE);
      } else {
        return null;
      }
      if (interval != null) {
        spec = RunService.tune(spec, "interval", interval, "--interval");
      }
      if (threshold != null) {
        spec = spec.with("threshold", threshold);
      }
      if (predictor != null) {
        spec = spec.with("predictor", predictor);
      }
      if (scaling != null) {
        spec = spec.with("scaling", scaling);
      }
    } catch (IllegalArgumentException e) {
      throw new UserError(from + e.getMessage(), ExitStatus.USAGE);
    }
    return RunService.checkTrigger(spec, from); // every parameter, before the run
  }

  /** The options as summary.json's request records them. */
  public Map<String, Object> summary() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("sampling", strategy);
    m.put("interval", interval);
    m.put("threshold", threshold);
    m.put("predictor", predictor);
    m.put("scaling", scaling);
    m.put("shadow_exhaustive", shadowExhaustive);
    return m;
  }
}
