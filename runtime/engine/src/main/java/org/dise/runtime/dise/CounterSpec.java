package org.dise.runtime.dise;

/** An HPS counter's configuration (Section 3.3): index, width in bits, initial value. */
public record CounterSpec(int index, int width, long init) {}
