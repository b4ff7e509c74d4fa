package org.dise.runtime.cpu;

/**
 * What a guest thread keeps while another one runs on the hart: the architectural state a context
 * switch saves (integer and FP registers, fcsr, pc). The DISE-private registers, the decode cache
 * and the engine are the core's and are not switched (spec/emulator.md, "Threads").
 */
public final class HartContext {
  public final long[] x = new long[32];
  public final long[] f = new long[32];
  public int fflags;
  public int frm;
  public long pc;
}
