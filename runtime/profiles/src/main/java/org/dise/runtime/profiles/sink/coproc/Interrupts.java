package org.dise.runtime.profiles.sink.coproc;

/**
 * The interrupts a profiler makes the main processor take: how many, their cycles, and the cycles
 * not yet handed to a timing model ({@code TaggedSink.takeInterruptCycles}), which charges them to
 * the profiled core once.
 */
final class Interrupts {
  private long count;
  private long cycles;
  private long untaken;

  /** One interrupt of {@code c} main-processor cycles. */
  void charge(long c) {
    count++;
    cycles += c;
    untaken += c;
  }

  long count() {
    return count;
  }

  long cycles() {
    return cycles;
  }

  /** The cycles charged since the last call. */
  long take() {
    long c = untaken;
    untaken = 0;
    return c;
  }
}
