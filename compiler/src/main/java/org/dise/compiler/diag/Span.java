package org.dise.compiler.diag;

/**
 * A half-open range of characters {@code [start, end)} in one source file.
 *
 * <p>Spans never take part in equality: two AST nodes are equal when they say the same thing,
 * wherever they were written. That is what makes {@code parse(print(parse(x))) == parse(x)} a plain
 * {@code equals}.
 */
public record Span(SourceFile file, int start, int end) {
  /** A span for nodes that the compiler synthesises (built-ins, defaults). */
  public static final Span NONE = new Span(new SourceFile("<builtin>", ""), 0, 0);

  public int line() {
    return file.line(start);
  }

  public int column() {
    return file.column(start);
  }

  public Span to(Span other) {
    return new Span(file, Math.min(start, other.start), Math.max(end, other.end));
  }

  public boolean isNone() {
    return this == NONE;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Span;
  }

  @Override
  public int hashCode() {
    return 0;
  }

  @Override
  public String toString() {
    return file.name() + ":" + line() + ":" + column();
  }
}
