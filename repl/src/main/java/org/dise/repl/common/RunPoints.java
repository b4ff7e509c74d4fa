package org.dise.repl.common;

import java.nio.file.Path;
import org.dise.runtime.dise.ProductionSet;

/**
 * Runs with the productions on for part of the program only, one family of {@link RunOptions}
 * ({@code acf run --fast-forward N}, {@code --simpoints FILE --weights FILE}); null for each option
 * not given.
 *
 * @param fastForward application instructions run at full speed before the productions go on
 * @param simpoints SimPoint's simulation points
 * @param weights SimPoint's weights, with {@code simpoints}
 */
public record RunPoints(Long fastForward, Path simpoints, Path weights) {
  /** Whether this is a point run. */
  public boolean any() {
    return fastForward != null || simpoints != null || weights != null;
  }

  /** The options against the run's others: point runs need productions and no trigger. */
  void validate(boolean profiled, RunSampling sampling) {
    if (!profiled) {
      throw new UserError(given() + " --acf or --config", ExitStatus.USAGE);
    }
    if (sampling.strategy() != null || sampling.shadowExhaustive()) {
      throw noTrigger();
    }
    if ((simpoints == null) != (weights == null)) {
      throw new UserError("--simpoints and --weights go together", ExitStatus.USAGE);
    }
    if (fastForward != null && simpoints != null) {
      throw new UserError("--fast-forward and --simpoints exclude each other", ExitStatus.USAGE);
    }
    sampling.validatePoints(simpoints != null);
  }

  /** The productions read: they may not declare a trigger either. */
  void validateTriggers(ProductionSet productions) {
    if (!productions.triggers().isEmpty()) {
      throw noTrigger();
    }
  }

  private UserError noTrigger() {
    return new UserError(
        given()
            + " no sampling trigger (--sampling, or a trigger declared in"
            + " the ACF): the productions are on exactly where the points say",
        ExitStatus.USAGE);
  }

  private String given() {
    return simpoints != null
        ? "--simpoints needs"
        : fastForward != null ? "--fast-forward needs" : "--weights needs";
  }
}
