package org.dise.compiler.ast;

import org.dise.compiler.diag.Span;

/** A reference to an HPS counter: its index ({@code 0}) or a name (declared or a parameter). */
public sealed interface CounterRef extends Node {
  record Index(long index, Span span) implements CounterRef {}

  record Named(Name name) implements CounterRef {
    @Override
    public Span span() {
      return name.span();
    }
  }
}
