package org.dise.compiler.ast;

import java.util.Optional;
import org.dise.compiler.diag.Span;

/**
 * A conditional-control micro-instruction (Section 3.3): {@code inc_N}, {@code dec_N}, or {@code
 * set_N(src)}; also written {@code inc(c)}, {@code set(c, src)} with a named counter.
 */
public record MicroOp(Kind kind, CounterRef counter, Optional<Expr> source, Span span)
    implements Node {
  public enum Kind {
    INC,
    DEC,
    SET;

    public String word() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }
}
