package org.dise.compiler.ast;

import org.dise.compiler.diag.Span;

/** A node of the ACF syntax tree: an immutable record with the span it was written at. */
public sealed interface Node
    permits AcfFile, Name, Comment, Item, Param, Arg, Expr, CounterRef, MicroOp, ReplStmt, Operand {
  Span span();
}
