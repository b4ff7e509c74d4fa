package org.dise.runtime.cpu;

/**
 * Sees every executed basic block: what hardware that watches the retired branch stream (the
 * phase tracker of the phase-based remote profiling paper, Section 2.3) needs. A block ends at a
 * branch or jump (or earlier, at the block size limit, a page end or a system call), so {@code
 * endPc} is the branch's address and {@code instructions} the instructions since the previous
 * branch. Only installed when a phase tracker runs; the emulator pays nothing otherwise.
 */
public interface BlockObserver {
  void block(long endPc, int instructions);
}
