package org.dise.compiler.ast;

import java.util.Optional;
import org.dise.compiler.diag.Span;

/** A parameter of an {@code acf} block: {@code name: type = default}. */
public record Param(Name name, Name type, Optional<Expr> defaultValue, Span span) implements Node {}
