package org.dise.runtime.dise;

import static org.dise.runtime.sink.ParamSpec.atLeast;
import static org.dise.runtime.sink.ParamSpec.choice;
import static org.dise.runtime.sink.ParamSpec.decimal;
import static org.dise.runtime.sink.ParamSpec.integer;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.dise.runtime.sink.ComponentSpec;
import org.dise.runtime.sink.ComponentSpec.Kind;
import org.dise.runtime.sink.ComponentSpec.Problem;
import org.dise.runtime.sink.ParamSpec;
import org.dise.runtime.sink.SinkProvider;
import org.dise.runtime.trigger.Triggers;

/**
 * The one catalogue of sink and trigger components: every component's parameters (name, type,
 * range, default) and what it accepts, described once. Each sink declares its own {@link
 * ComponentSpec} beside its code (in the profiles module, which registers them through {@link
 * SinkProvider#components()}); the triggers' are here, beside the trigger driver. The catalogue
 * collects both, so no default is written twice. The compiler checks declarations and calls against
 * it, the runtime checks a configuration's bindings against it before creating a sink or trigger,
 * the REPL completes from it, and a test keeps the table of spec/acf-language.md equal to {@link
 * #markdownTable()}.
 */
public final class Catalogue {
  private Catalogue() {}

  /** Handler cycles of a map update: hash the key, update one entry (a software handler). */
  public static final long MAP_HANDLER_CYCLES = 40;

  /** The most key parts a map takes. */
  public static final int MAX_KEY_PARTS = 4;

  private static final int INT_MAX = Integer.MAX_VALUE;

  /** Collected on first use: the installed sinks' specs, then the triggers'. */
  private static final class Components {
    static final Map<String, ComponentSpec> ALL = build();

    private Components() {}
  }

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
    return Components.ALL.values();
  }

  public static Optional<ComponentSpec> find(String name) {
    return Optional.ofNullable(Components.ALL.get(name));
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

  /** A trigger default as the catalogue prints it ({@code 25}, not {@code 25.0}). */
  private static String text(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }

  private static void add(
      Map<String, ComponentSpec> m, String name, List<ParamSpec> params, String doc) {
    m.put(
        name,
        new ComponentSpec(name, Kind.TRIGGER, params, null, "", false, Set.of(), 0, doc, null));
  }

  private static Map<String, ComponentSpec> build() {
    Map<String, ComponentSpec> m = new LinkedHashMap<>();
    for (SinkProvider provider : SinkProvider.all()) {
      for (ComponentSpec c : provider.components()) {
        if (!c.isSink() || m.putIfAbsent(c.name(), c) != null) {
          throw new IllegalStateException(
              provider.getClass().getName()
                  + " declares `"
                  + c.name()
                  + "` twice or not as a sink");
        }
      }
    }
    ParamSpec interval =
        atLeast(
            "interval",
            1,
            text(Triggers.DEFAULT_INTERVAL),
            "application instructions per interval");
    ParamSpec counter = integer("counter", 0, INT_MAX, "0", "the HPS counter the trigger drives");
    add(m, "exhaustive", List.of(interval, counter), "every interval sampled");
    add(
        m,
        "periodic",
        List.of(
            interval,
            counter,
            atLeast("period", 1, text(Triggers.DEFAULT_PERIOD), "sample one interval in this many"),
            atLeast("length", 1, "1", "intervals per sample")),
        "every Nth interval");
    add(
        m,
        "random",
        List.of(
            interval,
            counter,
            atLeast("one_in", 1, text(Triggers.DEFAULT_ONE_IN), "sample with probability 1/one_in"),
            atLeast("length", 1, "1", "intervals per sample"),
            integer(
                "seed",
                Long.MIN_VALUE,
                Long.MAX_VALUE,
                text(Triggers.DEFAULT_SEED),
                "random seed")),
        "random intervals, seeded");
    add(
        m,
        "phase_aware",
        List.of(
            interval,
            counter,
            integer("buckets", 1, INT_MAX, text(Triggers.DEFAULT_BUCKETS), "footprint buckets"),
            decimal(
                "threshold",
                0,
                100,
                text(Triggers.DEFAULT_THRESHOLD),
                "similarity threshold, percent"),
            integer("table", 1, INT_MAX, text(Triggers.DEFAULT_TABLE), "phase table entries"),
            choice(
                "policy",
                List.of("first", "third", "centroid", "random"),
                Triggers.DEFAULT_POLICY,
                "representative interval policy"),
            integer(
                "seed", Long.MIN_VALUE, Long.MAX_VALUE, text(Triggers.DEFAULT_SEED), "random seed"),
            choice(
                "predictor", List.of("last", "markov", "oracle"), "last", "next-phase predictor"),
            choice(
                "scaling",
                List.of("nearest", "phase"),
                Triggers.DEFAULT_SCALING,
                "what a sampled interval stands for in estimates"),
            decimal(
                "reach",
                0,
                100,
                text(Triggers.DEFAULT_REACH),
                "nearest scaling: farthest footprint distance, percent, across phases")),
        "phase-aware sampling (the profiling daemon)");
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
