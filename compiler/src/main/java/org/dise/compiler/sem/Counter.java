package org.dise.compiler.sem;

import org.dise.compiler.diag.Span;

/** An HPS counter (Section 3.3): index, width in bits, initial value; name may be empty. */
public record Counter(int index, String name, int width, long init, Span span) {}
