package org.dise.compiler.ast;

import java.util.Optional;
import org.dise.compiler.diag.Span;

/** An argument: {@code name = value} or a positional value. */
public record Arg(Optional<Name> name, Expr value, Span span) implements Node {}
