package org.dise.runtime.sink;

import static org.dise.runtime.sink.ParamSpec.atLeast;
import static org.dise.runtime.sink.ParamSpec.bool;
import static org.dise.runtime.sink.ParamSpec.choice;
import static org.dise.runtime.sink.ParamSpec.decimal;
import static org.dise.runtime.sink.ParamSpec.integer;
import static org.dise.runtime.sink.ParamSpec.powerOfTwo;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.dise.runtime.sink.ComponentSpec.Arity;
import org.dise.runtime.sink.ComponentSpec.Kind;
import org.dise.runtime.sink.ComponentSpec.Problem;

/**
 * The one catalogue of sink and trigger components: every component's parameters (name, type,
 * range, default) and what it accepts, described once. The compiler checks declarations and calls
 * against it, the runtime checks a configuration's bindings against it before creating a sink or
 * trigger, the REPL completes from it, and a test keeps the table of spec/acf-language.md equal to
 * {@link #markdownTable()}.
 */
public final class Catalogue {
  private Catalogue() {}

  /** Handler cycles of a map update: hash the key, update one entry (a software handler). */
  public static final long MAP_HANDLER_CYCLES = 40;

  /** The most key parts a map takes. */
  public static final int MAX_KEY_PARTS = 4;

  private static final int INT_MAX = Integer.MAX_VALUE;
  private static final Arity ANY = new Arity(0, INT_MAX, false, false);

  private static final Map<String, ComponentSpec> COMPONENTS = build();

  /**
   * Components that existed and were removed, with what to write instead: an ACF that names one
   * gets that hint rather than "unknown component".
   */
  public static final Map<String, String> REMOVED =
      Map.of(
          "keyed_counter",
          "`keyed_counter` was replaced by the aggregation maps: declare `sink s = count_map();` and"
              + " write `call(s, T.PC)` (or any key: registers, directives, constants)");

  /** Every component, in documentation order. */
  public static Collection<ComponentSpec> all() {
    return COMPONENTS.values();
  }

  public static Optional<ComponentSpec> find(String name) {
    return Optional.ofNullable(COMPONENTS.get(name));
  }

  /** The sink components' names. */
  public static List<String> sinkNames() {
    return all().stream().filter(ComponentSpec::isSink).map(ComponentSpec::name).toList();
  }

  /** The components that take tagged instructions. */
  public static List<String> taggedNames() {
    return all().stream().filter(ComponentSpec::tagged).map(ComponentSpec::name).toList();
  }

  /**
   * Checks a binding as a configuration carries it (text parameters) against the catalogue.
   *
   * @throws IllegalArgumentException naming the component, the parameter and the problem
   */
  public static ComponentSpec require(
      String what, String name, String component, Map<String, String> params) {
    ComponentSpec spec =
        find(component)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        what
                            + " `"
                            + name
                            + "` is bound to `"
                            + component
                            + "`, which is not a component"
                            + (REMOVED.containsKey(component)
                                ? ": " + REMOVED.get(component)
                                : " (the "
                                    + what
                                    + "s are "
                                    + String.join(
                                        ", ",
                                        all().stream()
                                            .filter(c -> c.isSink() == what.equals("sink"))
                                            .map(ComponentSpec::name)
                                            .toList())
                                    + ")")));
    List<Problem> problems = spec.problems(params);
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(what + " `" + name + "`: " + problems.get(0).message());
    }
    return spec;
  }

  private static ParamSpec cost(long dflt) {
    return atLeast("cost", 0, Long.toString(dflt), "handler cycles charged per call");
  }

  private static List<ParamSpec> with(List<ParamSpec> base, ParamSpec... more) {
    List<ParamSpec> out = new ArrayList<>(base);
    out.addAll(List.of(more));
    return out;
  }

  /** The profiling co-processor's parameters (Zilles and Sohi; spec/engine.md). */
  private static List<ParamSpec> coproc() {
    return List.of(
        cost(0),
        integer("buffer", 1, 1 << 20, "32", "sample buffer entries"),
        integer("service_cycles", 1, INT_MAX, "20", "co-processor cycles per sample"),
        integer("interrupt_cycles", 0, INT_MAX, "400", "main-processor cycles per interrupt"),
        integer("copy_cycles", 0, INT_MAX, "20", "main-processor cycles per slot copied"),
        integer("slots", 1, 1 << 16, "64", "slots of the associative and data arrays"),
        integer("hash_bits", 1, 24, "14", "log2 of the PC filter's exclusion table"),
        integer("seed", Long.MIN_VALUE, Long.MAX_VALUE, "1", "seed of the co-processor's LFSR"),
        atLeast("timer_cycles", 1, "1000000", "cycles between co-processor timer ticks"),
        bool("random_tagging", "true", "tag retirements at random, at an adaptive rate"),
        atLeast("tag_adapt", 1, "64", "admissions before random tagging's rate doubles"));
  }

  private static Optional<Problem> rapCheck(Map<String, String> p) {
    long branching = Long.parseLong(p.getOrDefault("branching", "4"));
    long capacity = Long.parseLong(p.getOrDefault("capacity", "0"));
    if (capacity != 0 && capacity < 1 + branching) {
      return Optional.of(
          new Problem(
              "capacity",
              "capacity must be 0 (unbounded) or at least 1 +"
                  + " branching ("
                  + (1 + branching)
                  + ") nodes, got "
                  + capacity));
    }
    return Optional.empty();
  }

  private static Optional<Problem> burstCheck(Map<String, String> p) {
    long min = Long.parseLong(p.getOrDefault("min_length", "10"));
    long max = Long.parseLong(p.getOrDefault("max_length", "40"));
    if (min > max) {
      return Optional.of(
          new Problem(
              "min_length", "min_length (" + min + ") must not exceed max_length (" + max + ")"));
    }
    return Optional.empty();
  }

  private static Optional<Problem> histCheck(Map<String, String> p) {
    String kind = p.getOrDefault("kind", "log2");
    if (kind.equals("log2")) {
      for (String k : List.of("lo", "hi", "step")) {
        if (p.containsKey(k)) {
          return Optional.of(
              new Problem(
                  k,
                  k + " is for `kind = linear`; a log2 histogram has" + " power-of-two buckets"));
        }
      }
      return Optional.empty();
    }
    for (String k : List.of("lo", "hi", "step")) {
      if (!p.containsKey(k)) {
        return Optional.of(
            new Problem(
                "",
                "a linear histogram needs lo, hi and step (missing "
                    + k
                    + "): write `hist_map(kind = linear, lo = -64, hi = 64, step = 8)`"));
      }
    }
    long lo = Long.parseLong(p.get("lo"));
    long hi = Long.parseLong(p.get("hi"));
    long step = Long.parseLong(p.get("step"));
    if (hi <= lo) {
      return Optional.of(new Problem("hi", "hi (" + hi + ") must be greater than lo (" + lo + ")"));
    }
    long width = hi - lo;
    if (width < 0) {
      return Optional.of(new Problem("hi", "lo .. hi spans more than 2^63 values"));
    }
    if (width / step > 100_000) {
      return Optional.of(
          new Problem(
              "step", "step " + step + " makes " + width / step + " buckets; at most 100000"));
    }
    return Optional.empty();
  }

  private static void add(
      Map<String, ComponentSpec> m,
      String name,
      Kind kind,
      List<ParamSpec> params,
      Arity calls,
      String returns,
      boolean tagged,
      Set<String> classes,
      long cost,
      String doc,
      Function<Map<String, String>, Optional<Problem>> check) {
    m.put(
        name,
        new ComponentSpec(name, kind, params, calls, returns, tagged, classes, cost, doc, check));
  }

  private static Map<String, ComponentSpec> build() {
    Map<String, ComponentSpec> m = new LinkedHashMap<>();
    Kind s = Kind.SINK;
    add(
        m,
        "region_counter",
        s,
        List.of(cost(0)),
        ANY,
        "",
        false,
        Set.of(),
        0,
        "hot code regions: per branch pc, count and instructions since the previous one",
        null);
    add(
        m,
        "method_counter",
        s,
        List.of(cost(0)),
        ANY,
        "",
        false,
        Set.of("proc_call", "branch"),
        0,
        "hot methods: invocations per callee plus taken backward branches",
        null);
    add(
        m,
        "call_pair_counter",
        s,
        List.of(cost(0)),
        ANY,
        "",
        false,
        Set.of("proc_call"),
        0,
        "hot call pairs: per (caller function, callee)",
        null);
    add(
        m,
        "path_counter",
        s,
        List.of(cost(0)),
        ANY,
        "",
        false,
        Set.of("proc_call", "return", "branch", "jump"),
        0,
        "Ball-Larus hot paths per function",
        null);
    add(
        m,
        "calling_context",
        s,
        List.of(
            cost(0),
            integer(
                "max_depth", 1, INT_MAX, "1024", "frames kept apart; deeper ones share a context")),
        ANY,
        "",
        false,
        Set.of("proc_call", "return", "jump"),
        0,
        "calling contexts: full stacks with their instructions and cycles",
        null);
    add(
        m,
        "bbv",
        s,
        List.of(
            cost(0),
            atLeast("interval", 1, "10000000", "application instructions per interval"),
            integer("buckets", 0, INT_MAX, "0", "hash blocks into this many buckets (0: none)")),
        ANY,
        "",
        false,
        Set.of(),
        0,
        "SimPoint basic block vectors per interval",
        null);
    add(
        m,
        "burst_trace",
        s,
        List.of(
            cost(0),
            integer("capacity", 1, INT_MAX, "262144", "trace entries kept"),
            bool("streams", "true", "find hot data streams in the trace"),
            integer("min_length", 2, INT_MAX, "10", "shortest stream"),
            integer("max_length", 2, INT_MAX, "40", "longest stream"),
            integer("coverage_pct", 1, 100, "90", "share of the trace the streams cover")),
        ANY,
        "",
        false,
        Set.of(),
        0,
        "bursty trace of data references; hot data streams",
        Catalogue::burstCheck);
    add(
        m,
        "rap_tree",
        s,
        List.of(
            cost(0),
            integer("capacity", 0, INT_MAX, "0", "node capacity (0: unbounded)"),
            integer("epsilon_ppm", 1, 1_000_000, "10000", "RAP's epsilon, parts per million"),
            powerOfTwo("branching", 2, 256, "4", "branching factor"),
            integer("range_bits", 1, 64, "64", "width of the profiled values"),
            integer("hot_ppm", 1, 1_000_000, "100000", "hot range threshold, parts per million"),
            integer("merge_ratio_pct", 100, INT_MAX, "200", "merge interval ratio q, percent"),
            atLeast("first_merge", 1, "1024", "events before the first merge batch"),
            bool("exact", "true", "keep an exact profile for the percent error"),
            bool("code", "false", "name ranges by the functions at their ends"),
            choice(
                "stream",
                List.of("value", "address", "pc"),
                "value",
                "what a tagged instruction contributes")),
        new Arity(1, 1, false, false),
        "",
        true,
        Set.of(),
        0,
        "Range Adaptive Profiling tree of values, addresses or pcs",
        Catalogue::rapCheck);
    add(
        m,
        "value_profile",
        s,
        with(
            coproc(),
            atLeast("confidence", 1, "64", "samples before a slot's values are trusted"),
            atLeast("reselect_every", 1, "16", "samples between re-selections"),
            integer("reselect_pct", 0, 100, "60", "share that triggers re-selection"),
            integer("values", 1, 64, "4", "values per slot"),
            integer("replace_max", 0, INT_MAX, "255", "replacement randomisation bound"),
            integer(
                "fail_threshold", 1, INT_MAX, "", "failed inserts before thrashing (2 x slots)"),
            atLeast("thrash_factor", 1, "4", "thrashing factor"),
            integer("high_pct", 0, 100, "90", "invariance above which a value is kept"),
            integer("low_pct", 0, 100, "10", "invariance below which a value is dropped"),
            integer("max_copies", 0, INT_MAX, "3", "copies of a pc's record kept"),
            integer("min_invariance_pct", 0, 100, "10", "least invariance reported"),
            integer("interval", 1, Long.MAX_VALUE, "", "samples between copy-outs (32 x slots)"),
            integer("resample_timers", 1, INT_MAX, "16", "timer ticks between re-samplings"),
            integer("counter_bits", 4, 32, "16", "width of the value counters"),
            bool("exact", "true", "keep an exact profile for the error")),
        null,
        "",
        true,
        Set.of(),
        0,
        "co-processor load value profile (tag only)",
        null);
    add(
        m,
        "edge_profile",
        s,
        with(
            coproc(),
            integer("values", 1, 64, "4", "targets per slot"),
            integer("replace_max", 0, INT_MAX, "255", "replacement randomisation bound"),
            integer("fail_threshold", 1, INT_MAX, "", "failed inserts before thrashing (slots)"),
            integer("interval", 1, Long.MAX_VALUE, "", "samples between copy-outs (16 x slots)"),
            bool("exact", "true", "keep an exact profile for the error")),
        null,
        "",
        true,
        Set.of("branch", "jump", "proc_call", "return"),
        0,
        "co-processor edge profile of branches (tag only)",
        null);
    add(
        m,
        "sampled_value_profile",
        s,
        List.of(
            cost(0),
            atLeast("period", 1, "100", "one sample per this many tagged instructions"),
            integer("interrupt_cycles", 0, Long.MAX_VALUE, "400", "cycles per sample's interrupt"),
            integer("min_invariance_pct", 0, 100, "10", "least invariance reported"),
            bool("jitter", "true", "randomise the distance between samples (mean: period)")),
        new Arity(0, 1, false, false),
        "",
        true,
        Set.of(),
        0,
        "interrupt-driven sampled value profile",
        null);
    add(
        m,
        "watchpoint",
        s,
        List.of(
            cost(0),
            integer("address", Long.MIN_VALUE, Long.MAX_VALUE, "0", "first watched byte"),
            atLeast("length", 1, "1", "watched bytes")),
        ANY,
        "",
        false,
        Set.of("store"),
        0,
        "logging store watchpoint",
        null);
    add(
        m,
        "count_map",
        s,
        List.of(cost(MAP_HANDLER_CYCLES)),
        new Arity(1, MAX_KEY_PARTS, true, false),
        "the key's count after the call",
        false,
        Set.of(),
        MAP_HANDLER_CYCLES,
        "count per key tuple",
        null);
    for (String op : List.of("sum", "min", "max", "avg")) {
      add(
          m,
          op + "_map",
          s,
          List.of(cost(MAP_HANDLER_CYCLES)),
          new Arity(2, MAX_KEY_PARTS + 1, true, true),
          "the key's " + op + " after the call",
          false,
          Set.of(),
          MAP_HANDLER_CYCLES,
          op + " of the value per key tuple",
          null);
    }
    add(
        m,
        "hist_map",
        s,
        List.of(
            cost(MAP_HANDLER_CYCLES),
            choice(
                "kind", List.of("log2", "linear"), "log2", "power-of-two or equal-width buckets"),
            integer(
                "lo",
                Long.MIN_VALUE,
                Long.MAX_VALUE,
                "",
                "linear: least value of the first bucket"),
            integer(
                "hi",
                Long.MIN_VALUE,
                Long.MAX_VALUE,
                "",
                "linear: values from hi up share the last bucket"),
            atLeast("step", 1, "", "linear: bucket width")),
        new Arity(2, MAX_KEY_PARTS + 1, true, true),
        "the bucket's count after the call",
        false,
        Set.of(),
        MAP_HANDLER_CYCLES,
        "histogram of the value (signed) per key tuple",
        Catalogue::histCheck);
    add(
        m,
        "state_map",
        s,
        List.of(
            cost(MAP_HANDLER_CYCLES),
            integer(
                "missing",
                Long.MIN_VALUE,
                Long.MAX_VALUE,
                "0",
                "what a call returns for a key never stored")),
        new Arity(2, MAX_KEY_PARTS + 1, true, true),
        "the value stored for the key before the call (`missing` the first time)",
        false,
        Set.of(),
        MAP_HANDLER_CYCLES,
        "per-key state: stores the value, returns the previous",
        null);
    Kind t = Kind.TRIGGER;
    ParamSpec interval =
        atLeast("interval", 1, "10000000", "application instructions per" + " interval");
    ParamSpec counter = integer("counter", 0, INT_MAX, "0", "the HPS counter the trigger drives");
    add(
        m,
        "exhaustive",
        t,
        List.of(interval, counter),
        null,
        "",
        false,
        Set.of(),
        0,
        "every interval sampled",
        null);
    add(
        m,
        "periodic",
        t,
        List.of(
            interval,
            counter,
            atLeast("period", 1, "10", "sample one interval in this many"),
            atLeast("length", 1, "1", "intervals per sample")),
        null,
        "",
        false,
        Set.of(),
        0,
        "every Nth interval",
        null);
    add(
        m,
        "random",
        t,
        List.of(
            interval,
            counter,
            atLeast("one_in", 1, "10", "sample with probability 1/one_in"),
            atLeast("length", 1, "1", "intervals per sample"),
            integer("seed", Long.MIN_VALUE, Long.MAX_VALUE, "1", "random seed")),
        null,
        "",
        false,
        Set.of(),
        0,
        "random intervals, seeded",
        null);
    add(
        m,
        "phase_aware",
        t,
        List.of(
            interval,
            counter,
            integer("buckets", 1, INT_MAX, "32", "footprint buckets"),
            decimal("threshold", 0, 100, "25", "similarity threshold, percent"),
            integer("table", 1, INT_MAX, "20", "phase table entries"),
            choice(
                "policy",
                List.of("first", "third", "centroid", "random"),
                "third",
                "representative interval policy"),
            integer("seed", Long.MIN_VALUE, Long.MAX_VALUE, "1", "random seed"),
            choice(
                "predictor", List.of("last", "markov", "oracle"), "last", "next-phase predictor"),
            choice(
                "scaling",
                List.of("nearest", "phase"),
                "nearest",
                "what a sampled interval stands for in estimates"),
            decimal(
                "reach",
                0,
                100,
                "50",
                "nearest scaling: farthest footprint distance, percent, across phases")),
        null,
        "",
        false,
        Set.of(),
        0,
        "phase-aware sampling (the profiling daemon)",
        null);
    return m;
  }

  /**
   * The component table of spec/acf-language.md, generated: one row per component with its
   * parameters (range and default), what calls it takes and what it accepts.
   */
  public static String markdownTable() {
    StringBuilder sb = new StringBuilder();
    sb.append("| component | kind | parameters (range, default) | accepts |\n");
    sb.append("|---|---|---|---|\n");
    for (ComponentSpec c : all()) {
      List<String> ps = new ArrayList<>();
      for (ParamSpec p : c.params()) {
        ps.add(
            "`" + p.name() + "` (" + p.range() + (p.dflt().isEmpty() ? "" : ", " + p.dflt()) + ")");
      }
      List<String> acc = new ArrayList<>();
      if (c.calls() != null) {
        acc.add("calls: " + c.calls().describe());
      }
      if (!c.returns().isEmpty()) {
        acc.add("`$drN = call(...)` returns " + c.returns());
      }
      if (c.tagged()) {
        acc.add("`tag()`");
      }
      if (!c.classes().isEmpty()) {
        acc.add("instruction classes " + String.join(", ", c.classes().stream().sorted().toList()));
      }
      sb.append("| `")
          .append(c.name())
          .append("` | ")
          .append(c.isSink() ? "sink" : "trigger")
          .append(" | ")
          .append(ps.isEmpty() ? "-" : String.join(", ", ps))
          .append(" | ")
          .append(acc.isEmpty() ? "-" : String.join("; ", acc))
          .append(" |\n");
    }
    return sb.toString();
  }
}
