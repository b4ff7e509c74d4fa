package org.dise.compiler.ast;

import org.dise.compiler.diag.Span;

/** A {@code //} or {@code /* *}{@code /} comment, kept so that the formatter can print it back. */
public record Comment(String text, Span span) implements Node {}
