package org.dise.compiler.sem;

import java.util.List;
import org.dise.compiler.diag.Span;

/** One active ACF: the main file's top-level productions, or one {@code use} of a block. */
public record CheckedAcf(String name, List<CheckedProduction> productions, Span span) {
  public CheckedAcf {
    productions = List.copyOf(productions);
  }
}
