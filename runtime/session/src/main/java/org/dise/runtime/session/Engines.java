package org.dise.runtime.session;

import org.dise.runtime.dise.DiseEngine;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.dise.ProfilingEngine;

/**
 * The one place an engine is built for a production set (issue 26: "one class builds engines").
 * Every front end, bench, experiment and sampling pass asks here, so a change of back end, of the
 * budget check or of how sinks are found is made once.
 */
public final class Engines {
  private Engines() {}

  /** Why {@code --engine generated} is refused. */
  public static final String RETIRED_ENGINE =
      "the generated engine was retired: the interpreted engine, whose replacements are emitted"
          + " into translated code, ran faster on every benchmark (docs/benchmarks.md); use"
          + " --engine interpreted or leave --engine out";

  /** The name of the one engine there is (the tables, with replacements emitted inline). */
  public static final String INTERPRETED = "interpreted";

  /**
   * Checks an engine's name ({@code --engine KIND}): only {@value #INTERPRETED} is left.
   *
   * @throws IllegalArgumentException for a retired or unknown kind, saying which there is
   */
  public static String named(String name) {
    if (name.equals("generated")) {
      throw new IllegalArgumentException(RETIRED_ENGINE);
    }
    if (!name.equals(INTERPRETED)) {
      throw new IllegalArgumentException(
          "'" + name + "' is not an engine; the engine is interpreted");
    }
    return name;
  }

  /**
   * The engine for {@code set}; a refusal (the budget, a sink's parameters) names {@code origin}.
   */
  public static DiseEngine build(ProductionSet set, String origin) {
    try {
      return new DiseEngine(set);
    } catch (IllegalArgumentException e) {
      throw new SessionError(origin + ": " + e.getMessage());
    }
  }

  /** As {@link #build(ProductionSet, String)}, typed as what a run needs. */
  public static ProfilingEngine profiling(ProductionSet set, String origin) {
    return build(set, origin);
  }
}
