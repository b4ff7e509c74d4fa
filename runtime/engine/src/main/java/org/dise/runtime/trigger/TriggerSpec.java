package org.dise.runtime.trigger;

import java.util.LinkedHashMap;
import java.util.Map;
import org.dise.runtime.sink.SinkParams;

/**
 * A sampling strategy to run: a trigger component of the catalog (spec/acf-language.md, Section 7)
 * with its parameters as text, from an ACF's {@code trigger} declaration or from {@code acf run
 * --sampling}. Parameters not given take the defaults of spec/sampling.md.
 */
public record TriggerSpec(String component, Map<String, String> params) {
  public TriggerSpec {
    params = Map.copyOf(params);
  }

  public static TriggerSpec of(TriggerBinding b) {
    return new TriggerSpec(b.component(), b.params());
  }

  /**
   * Parses {@code exhaustive}, {@code periodic:N}, {@code random:P[:SEED]} or {@code
   * phase[:POLICY]}.
   *
   * @throws IllegalArgumentException with a sentence saying what is wrong
   */
  public static TriggerSpec parse(String text) {
    String[] f = text.split(":", -1);
    Map<String, String> p = new LinkedHashMap<>();
    switch (f[0]) {
      case "exhaustive" -> {
        arity(text, f, 1, 1);
        return new TriggerSpec("exhaustive", p);
      }
      case "periodic" -> {
        arity(text, f, 2, 2);
        p.put("period", f[1]);
        return new TriggerSpec("periodic", p);
      }
      case "random" -> {
        arity(text, f, 2, 3);
        p.put("one_in", f[1]);
        if (f.length > 2) {
          p.put("seed", f[2]);
        }
        return new TriggerSpec("random", p);
      }
      case "phase", "phase_aware" -> {
        arity(text, f, 1, 2);
        if (f.length > 1) {
          p.put("policy", f[1]);
        }
        return new TriggerSpec("phase_aware", p);
      }
      default ->
          throw new IllegalArgumentException(
              "unknown sampling strategy '"
                  + text
                  + "' (exhaustive, periodic:N, random:P[:SEED] or phase[:POLICY])");
    }
  }

  private static void arity(String text, String[] f, int min, int max) {
    if (f.length < min || f.length > max) {
      throw new IllegalArgumentException(
          "sampling strategy '"
              + text
              + "': expected "
              + switch (f[0]) {
                case "exhaustive" -> "no arguments";
                case "periodic" -> "periodic:N";
                case "random" -> "random:P or random:P:SEED";
                default -> "phase or phase:POLICY";
              });
    }
  }

  /**
   * The phase-aware strategy at {@code interval} instructions a phase interval, with {@code policy}
   * and {@code predictor} (spec/sampling.md); the threshold is left to {@link #with} or its
   * default.
   */
  public static TriggerSpec phaseAware(long interval, String policy, String predictor) {
    return new TriggerSpec(
        "phase_aware",
        Map.of("interval", Long.toString(interval), "policy", policy, "predictor", predictor));
  }

  /** This spec with {@code name} set to {@code value} (a command-line option over the ACF). */
  public TriggerSpec with(String name, String value) {
    Map<String, String> p = new LinkedHashMap<>(params);
    p.put(name, value);
    return new TriggerSpec(component, p);
  }

  /** A parameter as a number; {@code K}, {@code M}, {@code G} suffixes multiply by 10^3, 6, 9. */
  public long number(String name, long fallback) {
    String v = params.get(name);
    return v == null ? fallback : Triggers.parseCount(name, v);
  }

  public double decimal(String name, double fallback) {
    String v = params.get(name);
    if (v == null) {
      return fallback;
    }
    Double d = SinkParams.parsed(v, Double::valueOf);
    if (d == null) {
      throw new IllegalArgumentException(name + " must be a number, not '" + v + "'");
    }
    return d;
  }

  public String text(String name, String fallback) {
    return params.getOrDefault(name, fallback);
  }

  public long interval() {
    return number("interval", Triggers.DEFAULT_INTERVAL);
  }

  public boolean phaseAware() {
    return component.equals("phase_aware");
  }

  /** True when this strategy needs a first pass over the program (an oracle). */
  public boolean needsFirstPass() {
    return phaseAware()
        && (text("predictor", "last").equals("oracle")
            || ORACLE_POLICIES.contains(text("policy", Triggers.DEFAULT_POLICY)));
  }

  private static final java.util.Set<String> ORACLE_POLICIES =
      java.util.Set.of("centroid", "random");

  /**
   * Every parameter of the strategy, with the catalogue's default where none is given (spec order):
   * what a run records beside its results (summary.json, experiment CSVs), so that a result says
   * which settings produced it even after a default changes.
   */
  public Map<String, String> settings() {
    return Triggers.component(component).map(c -> c.withDefaults(params)).orElse(params);
  }

  /** How the strategy reads on a command line ({@code periodic:10}, {@code phase:third}). */
  public String describe() {
    return switch (component) {
      case "periodic" -> "periodic:" + params.getOrDefault("period", "10");
      case "random" ->
          "random:" + params.getOrDefault("one_in", "10") + ":" + params.getOrDefault("seed", "1");
      case "phase_aware" -> "phase:" + text("policy", Triggers.DEFAULT_POLICY);
      default -> component;
    };
  }
}
