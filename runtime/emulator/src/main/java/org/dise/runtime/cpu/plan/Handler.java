package org.dise.runtime.cpu.plan;

import org.dise.runtime.isa.DecodedInsn;

/**
 * The target of a plan's {@code call(sink, args...)} ({@link PlanOp.Call}): the stage's sink. The
 * emulator calls it directly on its class where translated code can name that class.
 */
public interface Handler {
  /**
   * Records one event. {@code guest} is the hart, its registers holding their dynamic values,
   * {@code original} the matched instruction, {@code args} the call's arguments, {@code
   * applicationInstructions} the application instructions retired so far.
   */
  void record(GuestState guest, DecodedInsn original, long[] args, long applicationInstructions);
}
