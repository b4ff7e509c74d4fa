package org.dise.compiler.sem;

import java.util.List;
import java.util.Optional;
import org.dise.compiler.diag.Span;

/**
 * A resolved production: its pattern, its conditional control (empty means {@code null}) and its
 * replacement (empty means {@code null}: the match fails, the micro-ops still run; Section 3.3).
 */
public record CheckedProduction(String name, Pattern pattern, List<CheckedMicroOp> control,
    Optional<CheckedReplacement> replacement, Span span) {
  public CheckedProduction {
    control = List.copyOf(control);
  }
}
