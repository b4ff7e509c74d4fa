package org.dise.runtime.sink;

import org.dise.runtime.isa.DecodedInsn;

/**
 * A sink fed by instructions that productions tag at decode ({@code tag(sink)}) rather than by
 * {@code call}: after a tagged instruction retires, its record (pc, result value, effective
 * address) is handed over, as the profiling co-processor's sample buffer receives it (Zilles and
 * Sohi, Section 3.1). The main pipeline pays no replacement cost for tagging; what the sink costs
 * the main processor (interrupts to copy results) it reports itself.
 */
public interface TaggedSink extends Sink {
  /**
   * One retired tagged instruction. {@code value} is the result it wrote (a load's value, an
   * integer or FP result as raw bits), a store's data (the bytes written, zero-extended), or a
   * control transfer's actual next pc; {@code address} the effective address of a memory access (0
   * otherwise); {@code now} the application instructions retired so far, the main processor's
   * clock.
   */
  void retire(DecodedInsn insn, long value, long address, long now);

  /** Interrupts of the main processor so far. */
  long interrupts();

  /** Main-processor cycles those interrupts cost. */
  long interruptCycles();

  /**
   * The main-processor cycles of the interrupts raised since the last call (0: none), for a timing
   * model that charges each where it happens (spec/timing.md); unlike {@link #interruptCycles} it
   * does not end the run's buffering.
   */
  default long takeInterruptCycles() {
    return 0;
  }
}
