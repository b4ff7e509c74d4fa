package org.dise.runtime.cpu;

import org.dise.runtime.isa.DecodedInsn;

/**
 * Sees every instruction the hart commits, application and inserted alike, with the DISE events
 * between them: what a timing model needs (spec/timing.md). {@link #retire} is called just before
 * the instruction executes, so that its source registers are still in {@link Cpu#x} and {@link
 * Cpu#f} (the observer derives the effective address and a branch's outcome from them); it must not
 * change the cpu's state. Installed with {@link Cpu#setRetireObserver}, which turns translation
 * off: the interpreter tests one local flag per instruction for it, translated code never, so a run
 * without an observer pays nothing measurable (docs/benchmarks.md).
 */
public interface RetireObserver {
  /** {@code d} is about to execute; {@link DecodedInsn#inserted} says whether DISE inserted it. */
  void retire(DecodedInsn d, Cpu cpu);

  /** The decode stage replaced {@code d} with a sequence (the replacement's decode stall). */
  default void replaced(DecodedInsn d, long stallCycles) {}

  /**
   * A replacement called handler {@code sink} (named {@code name}, declared to cost {@code cycles})
   * with these argument values: the model charges the core for it.
   */
  default void handler(int sink, String name, long cycles, long[] args) {}

  /**
   * {@link #handler(int, String, long, long[])} with the event it was called for: the replaced
   * instruction {@code original}, about to execute on {@code cpu} (its source registers still
   * there), after {@code applicationInstructions} application instructions. A model that runs the
   * handler's code passes it the event from these; the default forgets them.
   */
  default void handler(
      int sink,
      String name,
      long cycles,
      long[] args,
      DecodedInsn original,
      Cpu cpu,
      long applicationInstructions) {
    handler(sink, name, cycles, args);
  }

  /**
   * Sink {@code sink} (a profiling co-processor) interrupted the main processor, which spends
   * {@code cycles} on it (spec/engine.md, "Interrupts"): the model charges the core.
   */
  default void interrupt(int sink, String name, long cycles) {}
}
