package org.dise.runtime.timing;

import java.util.Locale;

/**
 * Energy from a core's measured events, priced per event with the first paper's StrongARM figures
 * (Section 5.4, Fig. 14(b): power over rate for programs of one instruction type each; parameters
 * {@code energy.*}, spec/timing.md "Energy"). Every instruction costs an integer instruction's
 * energy (IREG) or, if floating point, an emulated one's (FPREG); an L1 miss of a load or a fetch
 * adds what IMEM-R costs beyond IREG, an L1 D miss of a store what IMEM-W does; a bubble cycle
 * (replacement stall, modelled handler, refill) costs an IREG cycle; a sent byte the wireless
 * card's energy. No miss rate is assumed: the misses are the model's.
 */
public record EventEnergy(
    double iregJ, double imemReadJ, double imemWriteJ, double fpJ, double byteJ) {

  /** The prices of {@code config}'s {@code energy.*} parameters (nJ there, joules here). */
  public static EventEnergy of(TimingConfig config) {
    return new EventEnergy(
        config.decimal("energy.ireg_nj") * 1e-9,
        config.decimal("energy.imem_r_nj") * 1e-9,
        config.decimal("energy.imem_w_nj") * 1e-9,
        config.decimal("energy.fp_nj") * 1e-9,
        config.decimal("energy.byte_nj") * 1e-9);
  }

  /** A core's energy by what it was spent on (joules). */
  public record Breakdown(
      double integer, double fp, double readMisses, double writeMisses, double bubbles) {
    public double total() {
      return integer + fp + readMisses + writeMisses + bubbles;
    }

    /** The floating-point instructions' share of the total. */
    public double fpShare() {
      double t = total();
      return t == 0 ? 0 : fp / t;
    }
  }

  /** The energy of what {@code r} measured. */
  public Breakdown of(TimingReport r) {
    long n = r.instructions();
    return new Breakdown(
        (n - r.fp()) * iregJ,
        r.fp() * fpJ,
        (r.l1dReadMisses() + r.l1iMisses()) * (imemReadJ - iregJ),
        r.l1dWriteMisses() * (imemWriteJ - iregJ),
        r.bubbleCycles() * iregJ);
  }

  /** Sending {@code bytes} bytes. */
  public double transmit(long bytes) {
    return bytes * byteJ;
  }

  /**
   * Energy profiling adds: the profiled core's over the application core's, plus sending {@code
   * bytes} of profile.
   */
  public double profiling(TimingReport application, TimingReport profiled, long bytes) {
    return of(profiled).total() - of(application).total() + transmit(bytes);
  }

  /** One line for reports. */
  public String describe(TimingReport application, TimingReport profiled) {
    Breakdown a = of(application);
    Breakdown p = of(profiled);
    double extra = p.total() - a.total();
    return String.format(
        Locale.ROOT,
        "energy (StrongARM, Fig. 14(b) per event) application %.4g J (%.2f nJ/insn, FP %.1f%%),"
            + " with profiling %.4g J (+%.2f%%)",
        a.total(),
        application.instructions() == 0 ? 0 : a.total() / application.instructions() * 1e9,
        100 * a.fpShare(),
        p.total(),
        a.total() == 0 ? 0 : 100 * extra / a.total());
  }
}
