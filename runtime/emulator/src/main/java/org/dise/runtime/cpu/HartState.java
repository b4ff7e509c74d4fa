package org.dise.runtime.cpu;

/**
 * The architectural state of one hart: integer and floating-point registers (with the DISE-private
 * registers after the integer ones), the FP status, the pc and the LR/SC reservation. {@link Cpu}
 * extends it with the machinery that runs instructions on it; what a guest thread keeps while
 * another runs is a {@link HartContext}.
 */
public class HartState {
  /** Index of DISE-private register {@code $dr0} in {@link #x} (Section 3.1). */
  public static final int DISE_REG_BASE = 33;

  /** How many DISE-private registers replacement code may name ({@code $dr0..$dr7}). */
  public static final int DISE_REGS = 8;

  /**
   * Integer registers; index 32 absorbs writes to x0 (see {@link
   * org.dise.runtime.isa.DecodedInsn#X0_SINK}); the DISE-private registers follow, so inserted
   * instructions address them like any register.
   */
  public final long[] x = new long[DISE_REG_BASE + DISE_REGS];

  /** Floating-point registers as raw 64-bit patterns (singles NaN-boxed). */
  public final long[] f = new long[32];

  public final Fpu fpu = new Fpu();
  public long pc;

  /** The address an lr reserved, or -1 (sc fails). */
  long reservation = -1;

  HartState() {}

  /** Saves the running thread's registers, pc and FP state into {@code c}. */
  public void saveContext(HartContext c) {
    System.arraycopy(x, 0, c.x, 0, 32);
    System.arraycopy(f, 0, c.f, 0, 32);
    c.fflags = fpu.fflags;
    c.frm = fpu.frm;
    c.pc = pc;
  }

  /**
   * Loads a thread's registers, pc and FP state. The LR/SC reservation is dropped, as a context
   * switch does on hardware, so that a thread preempted between lr and sc sees its sc fail.
   */
  public void loadContext(HartContext c) {
    System.arraycopy(c.x, 0, x, 0, 32);
    System.arraycopy(c.f, 0, f, 0, 32);
    fpu.fflags = c.fflags;
    fpu.frm = c.frm;
    pc = c.pc;
    reservation = -1;
  }

  /** fcsr: the rounding mode and the accrued exception flags (for a signal frame). */
  public int fcsr() {
    return (fpu.frm << 5) | fpu.fflags;
  }

  public void setFcsr(int v) {
    fpu.fflags = v & 0x1f;
    fpu.frm = (v >>> 5) & 7;
  }
}
