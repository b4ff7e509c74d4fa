package org.dise.compiler.sem;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The runtime components that sinks and triggers bind to, with their parameters' types. The
 * runtime implements them (later issues); the front end checks names and types against this
 * catalog, which a caller may replace.
 */
public final class Components {
  /** The type of a component parameter. */
  public enum Type { INT, STRING, BOOL, NAME }

  /**
   * A sink or trigger component, its parameters, and the least value of the integer parameters
   * that have one (checked where the component is declared).
   */
  public record Spec(String name, boolean isSink, Map<String, Type> params,
      Map<String, Long> minimums) {
    public Spec {
      minimums = Map.copyOf(minimums);
    }

    public Spec(String name, boolean isSink, Map<String, Type> params) {
      this(name, isSink, params, Map.of());
    }
  }

  private final Map<String, Spec> specs = new LinkedHashMap<>();

  public Components add(Spec spec) {
    specs.put(spec.name(), spec);
    return this;
  }

  public Optional<Spec> find(String name) {
    return Optional.ofNullable(specs.get(name));
  }

  public Map<String, Spec> all() {
    return Map.copyOf(specs);
  }

  private static Map<String, Type> sinkParams(Object... extra) {
    Map<String, Type> m = new LinkedHashMap<>();
    m.put("cost", Type.INT);
    m.put("capacity", Type.INT);
    for (int i = 0; i < extra.length; i += 2) {
      m.put((String) extra[i], (Type) extra[i + 1]);
    }
    return m;
  }

  /** The profiling co-processor's parameters (Zilles and Sohi), then {@code extra}. */
  private static Object[] coproc(Object... extra) {
    Object[] base = {"buffer", Type.INT, "service_cycles", Type.INT, "interrupt_cycles",
        Type.INT, "copy_cycles", Type.INT, "slots", Type.INT, "hash_bits", Type.INT, "seed",
        Type.INT, "timer_cycles", Type.INT, "random_tagging", Type.BOOL, "tag_adapt", Type.INT};
    Object[] out = java.util.Arrays.copyOf(base, base.length + extra.length);
    System.arraycopy(extra, 0, out, base.length, extra.length);
    return out;
  }

  private static Map<String, Type> triggerParams(Object... extra) {
    Map<String, Type> m = new LinkedHashMap<>();
    m.put("interval", Type.INT);
    m.put("counter", Type.INT);
    for (int i = 0; i < extra.length; i += 2) {
      m.put((String) extra[i], (Type) extra[i + 1]);
    }
    return m;
  }

  /**
   * The catalog of spec/acf-language.md, section "Standard library model": sinks of the three
   * profile types of Fig. 6 and the other papers, and the triggers of Sections 3.4 and 4.
   */
  public static Components standard() {
    Components c = new Components();
    c.add(new Spec("region_counter", true, sinkParams()));
    c.add(new Spec("method_counter", true, sinkParams()));
    c.add(new Spec("call_pair_counter", true, sinkParams()));
    c.add(new Spec("path_counter", true, sinkParams()));
    c.add(new Spec("keyed_counter", true, sinkParams("key", Type.NAME)));
    c.add(new Spec("burst_trace", true, sinkParams("streams", Type.BOOL, "min_length", Type.INT,
        "max_length", Type.INT, "coverage_pct", Type.INT),
        Map.of("capacity", 1L, "min_length", 2L, "max_length", 2L, "coverage_pct", 1L)));
    c.add(new Spec("bbv", true, sinkParams("buckets", Type.INT, "interval", Type.INT),
        Map.of("interval", 1L, "buckets", 0L)));
    c.add(new Spec("rap_tree", true, sinkParams("epsilon_ppm", Type.INT, "branching", Type.INT,
        "range_bits", Type.INT, "hot_ppm", Type.INT, "merge_ratio_pct", Type.INT,
        "first_merge", Type.INT, "exact", Type.BOOL, "code", Type.BOOL, "stream", Type.NAME)));
    c.add(new Spec("value_profile", true, sinkParams(coproc("confidence", Type.INT,
        "reselect_every", Type.INT, "reselect_pct", Type.INT, "values", Type.INT,
        "replace_max", Type.INT, "fail_threshold", Type.INT, "thrash_factor", Type.INT,
        "high_pct", Type.INT, "low_pct", Type.INT, "max_copies", Type.INT,
        "min_invariance_pct", Type.INT, "interval", Type.INT, "resample_timers", Type.INT,
        "counter_bits", Type.INT, "exact", Type.BOOL))));
    c.add(new Spec("edge_profile", true, sinkParams(coproc("values", Type.INT,
        "replace_max", Type.INT, "fail_threshold", Type.INT, "interval", Type.INT,
        "exact", Type.BOOL))));
    c.add(new Spec("sampled_value_profile", true, sinkParams("period", Type.INT,
        "interrupt_cycles", Type.INT, "min_invariance_pct", Type.INT, "jitter", Type.BOOL)));
    c.add(new Spec("watchpoint", true, sinkParams("address", Type.INT, "length", Type.INT),
        Map.of("length", 1L)));
    c.add(new Spec("exhaustive", false, triggerParams()));
    c.add(new Spec("periodic", false, triggerParams("period", Type.INT, "length", Type.INT)));
    c.add(new Spec("random", false,
        triggerParams("one_in", Type.INT, "length", Type.INT, "seed", Type.INT)));
    c.add(new Spec("phase_aware", false, triggerParams("buckets", Type.INT,
        "threshold", Type.INT, "table", Type.INT, "policy", Type.NAME, "seed", Type.INT,
        "predictor", Type.NAME)));
    return c;
  }
}
