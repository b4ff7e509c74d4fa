package org.dise.runtime.sink;

import org.dise.runtime.cpu.plan.GuestState;
import org.dise.runtime.cpu.plan.ReturningHandler;
import org.dise.runtime.isa.DecodedInsn;

/**
 * A sink whose handler returns a value to the replacement code: {@code $drN = call(sink, args...)}
 * writes it into a register, so replacement code can keep per-key state on the device and read it
 * back (a map is a handler; spec/engine.md, "Calls that return a value").
 */
public interface ReturningSink extends Sink, ReturningHandler {
  /** Records one event, as {@link #record}, and returns the handler's result. */
  @Override
  long recordReturning(
      GuestState guest, DecodedInsn original, long[] args, long applicationInstructions);

  @Override
  default void record(
      GuestState guest, DecodedInsn original, long[] args, long applicationInstructions) {
    recordReturning(guest, original, args, applicationInstructions);
  }
}
