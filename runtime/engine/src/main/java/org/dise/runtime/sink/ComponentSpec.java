package org.dise.runtime.sink;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * A sink or trigger component as the catalogue describes it (spec/acf-language.md, "Components"):
 * its parameters, and what it accepts: {@code call(sink, args...)} with how many arguments, whether
 * a call returns a value into a register, whether productions may {@code tag(sink)}, and which
 * instruction classes may feed it. The compiler, the runtime and the REPL all read this.
 *
 * @param name the component as an ACF names it ({@code count_map})
 * @param kind sink or trigger
 * @param params the parameters in documentation order
 * @param calls the arguments a call takes, or null when the component takes no calls
 * @param returns what {@code $drN = call(sink, ...)} writes, or "" when a call returns nothing
 * @param tagged whether productions may tag instructions for it ({@code tag(sink)})
 * @param classes the instruction classes ({@code T.OPCLASS} names) whose events it uses; empty for
 *     any
 * @param defaultCost handler cycles a call is charged when the binding gives no {@code cost}
 * @param doc one line saying what it is
 * @param check a cross-parameter check over the binding's parameters (text): the offending
 *     parameter and the problem, or empty
 */
public record ComponentSpec(
    String name,
    Kind kind,
    List<ParamSpec> params,
    Arity calls,
    String returns,
    boolean tagged,
    Set<String> classes,
    long defaultCost,
    String doc,
    Function<Map<String, String>, Optional<Problem>> check) {
  /** What a component is. */
  public enum Kind {
    SINK,
    TRIGGER
  }

  /**
   * The argument counts a call takes. {@code keys} says the arguments are a map's key parts (and
   * the last one the value, when {@code value}).
   */
  public record Arity(int min, int max, boolean keys, boolean value) {
    /** Any number of arguments: the sink reads the matched instruction. */
    public static final Arity ANY = new Arity(0, Integer.MAX_VALUE, false, false);

    public String describe() {
      if (keys) {
        return (value ? "1 to 4 key parts, then the value" : "1 to 4 key parts");
      }
      if (min == 0 && max == Integer.MAX_VALUE) {
        return "any arguments (it reads the matched instruction)";
      }
      return min == max
          ? min + " argument" + (min == 1 ? "" : "s")
          : min + " to " + max + " arguments";
    }
  }

  /** A refused parameter value: which parameter (or "" for the binding) and why. */
  public record Problem(String param, String message) {}

  public ComponentSpec {
    params = List.copyOf(params);
    classes = Set.copyOf(classes);
  }

  /**
   * A sink that reads the matched instruction, as most profile sinks do: any arguments, a call
   * returns nothing, no tagging, and no handler cycles unless the binding gives a {@code cost}. Its
   * parameters are {@code cost}, then {@code params}.
   */
  public static ComponentSpec instructionSink(
      String name, Set<String> classes, String doc, ParamSpec... params) {
    List<ParamSpec> all = new java.util.ArrayList<>();
    all.add(ParamSpec.cost(0));
    all.addAll(List.of(params));
    return new ComponentSpec(name, Kind.SINK, all, Arity.ANY, "", false, classes, 0, doc, null);
  }

  /**
   * A sink that productions may {@code tag(sink)} (a co-processor, a sampler, a RAP tree): its
   * {@code calls}, or null when it takes only tags; a call returns nothing, and no handler cycles
   * are charged unless the binding gives a {@code cost}, which is among its {@code params}.
   */
  public static ComponentSpec taggedSink(
      String name, Arity calls, Set<String> classes, String doc, List<ParamSpec> params) {
    return new ComponentSpec(name, Kind.SINK, params, calls, "", true, classes, 0, doc, null);
  }

  /** This component with {@code check} as its cross-parameter check. */
  public ComponentSpec withCheck(Function<Map<String, String>, Optional<Problem>> check) {
    return new ComponentSpec(
        name, kind, params, calls, returns, tagged, classes, defaultCost, doc, check);
  }

  public boolean isSink() {
    return kind == Kind.SINK;
  }

  /** The parameter {@code name}, if the component has it. */
  public Optional<ParamSpec> param(String name) {
    Optional<ParamSpec> p = params.stream().filter(q -> q.name().equals(name)).findFirst();
    return p.isEmpty() && isSink() && name.equals(HANDLER.name()) ? Optional.of(HANDLER) : p;
  }

  /**
   * Every sink's {@code handler}: the RISC-V code a timing model runs for each call
   * (spec/timing.md, "Handlers as real code"): {@code "FILE.c"} (function {@code handler}), {@code
   * "FILE.c:FUNCTION"} or {@code "FILE.elf:SYMBOL"}. Without it the library's handler for the
   * component runs, or the sink's {@code cost} is charged where there is none. Not listed among the
   * parameters: it is every sink's, as {@code cost} is.
   */
  public static final ParamSpec HANDLER =
      new ParamSpec(
          "handler",
          ParamSpec.Type.NAME,
          0,
          0,
          false,
          List.of(),
          "",
          "the handler code a timing model runs per call: \"FILE.c\", \"FILE.c:FUNCTION\" or"
              + " \"FILE.elf:SYMBOL\"");

  /** Parameter names, in documentation order. */
  public List<String> paramNames() {
    return params.stream().map(ParamSpec::name).toList();
  }

  /**
   * Every problem of a binding's parameters (as text): unknown names, values out of range, and the
   * cross-parameter check; empty when the binding is good.
   */
  public List<Problem> problems(Map<String, String> given) {
    List<Problem> out = new java.util.ArrayList<>();
    for (Map.Entry<String, String> e : given.entrySet()) {
      Optional<ParamSpec> p = param(e.getKey());
      if (p.isEmpty()) {
        out.add(
            new Problem(
                e.getKey(),
                "`"
                    + name
                    + "` has no parameter `"
                    + e.getKey()
                    + "` (it has "
                    + String.join(", ", paramNames())
                    + ")"));
        continue;
      }
      p.get().problem(e.getValue()).ifPresent(m -> out.add(new Problem(e.getKey(), m)));
    }
    if (out.isEmpty() && check != null) {
      check.apply(given).ifPresent(out::add);
    }
    return out;
  }

  /** The parameters with every default filled in where the binding gives none. */
  public Map<String, String> withDefaults(Map<String, String> given) {
    Map<String, String> out = new LinkedHashMap<>();
    for (ParamSpec p : params) {
      String v = given.getOrDefault(p.name(), p.dflt());
      if (!v.isEmpty()) {
        out.put(p.name(), v);
      }
    }
    return out;
  }
}
