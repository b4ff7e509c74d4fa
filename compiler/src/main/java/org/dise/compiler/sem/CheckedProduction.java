package org.dise.compiler.sem;

import java.util.List;
import java.util.Optional;
import org.dise.compiler.diag.Span;

/**
 * A resolved production: its pattern, its conditional control (empty means {@code null}), its
 * replacement (empty means {@code null}: the match fails, the micro-ops still run; Section 3.3) and
 * the sink it tags matched instructions for (the co-processor's decode-stage filter), if any.
 */
public record CheckedProduction(
    String name,
    Pattern pattern,
    List<CheckedMicroOp> control,
    Optional<CheckedReplacement> replacement,
    Optional<String> tag,
    Span span) {
  public CheckedProduction {
    control = List.copyOf(control);
  }

  /** A production that tags for no sink. */
  public CheckedProduction(
      String name,
      Pattern pattern,
      List<CheckedMicroOp> control,
      Optional<CheckedReplacement> replacement,
      Span span) {
    this(name, pattern, control, replacement, Optional.empty(), span);
  }
}
