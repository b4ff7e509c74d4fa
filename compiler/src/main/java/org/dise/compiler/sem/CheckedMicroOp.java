package org.dise.compiler.sem;

import java.util.Optional;
import org.dise.compiler.ast.MicroOp;
import org.dise.compiler.diag.Span;

/** {@code inc_N}, {@code dec_N} or {@code set_N(src)} with the counter index resolved. */
public record CheckedMicroOp(MicroOp.Kind kind, int counter, Optional<Source> source, Span span) {
  /** The value {@code set_N} copies: an HPS register or a constant. */
  public sealed interface Source {
    record Register(int index, String name) implements Source {}

    record Constant(long value) implements Source {}
  }
}
