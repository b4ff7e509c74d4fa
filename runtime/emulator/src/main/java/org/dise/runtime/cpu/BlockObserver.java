package org.dise.runtime.cpu;

/**
 * Sees the retired branch stream: what hardware that watches it needs (the phase tracker of the
 * phase-based remote profiling paper, Section 2.3). {@link #block} is called once per retired
 * branch or jump of the application, with its address and the application instructions since the
 * previous one (itself included), however execution was split into blocks, parts of blocks,
 * translated code and instructions the decode stage ran; inserted instructions are not seen.
 * Installed with {@link Cpu#setBlockObserver}; the emulator pays nothing in translated code, and
 * one null test per interpreted block, when none is installed.
 */
public interface BlockObserver {
  void block(long endPc, int instructions);
}
