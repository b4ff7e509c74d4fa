package org.dise.runtime.dise;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.dise.runtime.sink.ComponentSpec;
import org.dise.runtime.sink.ComponentSpec.Problem;
import org.dise.runtime.sink.ParamSpec;
import org.dise.runtime.sink.SinkProvider;
import org.dise.runtime.trigger.Triggers;

/**
 * The one catalogue of sink and trigger components: every component's parameters (name, type,
 * range, default) and what it accepts, described once. Each sink declares its own {@link
 * ComponentSpec} beside its code (in the profiles module, which registers them through {@link
 * SinkProvider#components()}); the triggers declare theirs in {@link Triggers#components()}. The
 * catalogue collects both, so no default is written twice. The compiler checks declarations and
 * calls against it, the runtime checks a configuration's bindings against it before creating a sink
 * or trigger, the REPL completes from it, and a test keeps the table of spec/acf-language.md equal
 * to {@link #markdownTable()}.
 */
public final class Catalogue {
  private Catalogue() {}

  /** Handler cycles of a map update: hash the key, update one entry (a software handler). */
  public static final long MAP_HANDLER_CYCLES = 40;

  /** The most key parts a map takes. */
  public static final int MAX_KEY_PARTS = 4;

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
    for (ComponentSpec c : Triggers.components()) {
      m.put(c.name(), c);
    }
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
