package org.dise.compiler.sem;

import org.dise.compiler.diag.Span;

/** An HPS register, the source of {@code set_N} (Section 3.4: HPS_R0 holds 0, HPS_R1 holds 1). */
public record HpsRegister(int index, String name, long init, Span span) {}
