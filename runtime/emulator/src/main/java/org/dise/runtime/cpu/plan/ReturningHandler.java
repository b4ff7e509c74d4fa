package org.dise.runtime.cpu.plan;

import org.dise.runtime.isa.DecodedInsn;

/** The target of {@code $drN = call(sink, args...)}: a handler whose result goes to a register. */
public interface ReturningHandler extends Handler {
  /** Records one event, as {@link #record}, and returns the handler's result. */
  long recordReturning(
      GuestState guest, DecodedInsn original, long[] args, long applicationInstructions);
}
