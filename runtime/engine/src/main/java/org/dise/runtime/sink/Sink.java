package org.dise.runtime.sink;

import java.util.List;
import java.util.Map;
import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.cpu.plan.GuestState;
import org.dise.runtime.cpu.plan.Handler;
import org.dise.runtime.cpu.plan.PlanOp;
import org.dise.runtime.cpu.plan.SiteCounter;
import org.dise.runtime.cpu.plan.SiteSlot;
import org.dise.runtime.elf.SymbolTable;
import org.dise.runtime.isa.DecodedInsn;

/**
 * A profile sink: the runtime side of {@code call(handler, args...)} (first paper, Section 3.5).
 * Called while the replacement sequence executes, so registers hold their dynamic values.
 */
public interface Sink extends Handler {
  /** The name the productions bind ({@code CallPair_handler}). */
  String name();

  /**
   * Records one event. {@code original} is the matched instruction, {@code args} the call's
   * arguments, {@code applicationInstructions} the application instructions retired so far.
   */
  @Override
  void record(GuestState guest, DecodedInsn original, long[] args, long applicationInstructions);

  /**
   * The integer registers {@link #record} reads from {@code guest.x()} for {@code original} (bit r:
   * {@code x[r]}); all unless the sink knows better. Translated code that calls the sink inline
   * stores only these from its locals first (spec/emulator.md, "Prologues emitted as bytecode").
   */
  default long registersRead(DecodedInsn original) {
    return -1L;
  }

  /**
   * The counter that {@code original}'s events go to when the sink's key for it is fixed (its own
   * pc, a direct call's target), or null when the key depends on dynamic values or the arguments,
   * as by default. Translated code then adds to that counter directly instead of calling {@link
   * #record}; the sink must count there exactly what {@code record} would count for {@code
   * original} with any arguments and registers, hand out the same counter each time it is asked,
   * and show the counter's figures in its profile as if {@code record} had counted them.
   */
  default SiteCounter site(DecodedInsn original) {
    return null;
  }

  /**
   * The slot that a call of this sink at {@code original} with argument sources {@code args} is
   * applied to when its key is fixed there (every key part a constant, as {@code T.PC}), or null,
   * as by default. Plans then apply the call to the slot ({@link SiteSlot#update} of its last
   * argument) instead of calling {@link #record}; the slot must be the key's entry, which {@code
   * record} with that key uses too, the sink must hand out the same slot for the same key, and its
   * profile must read as if {@code record} had counted every event (spec/emulator.md, "Per-site
   * slots").
   */
  default SiteSlot slot(DecodedInsn original, List<PlanOp.Arg> args) {
    return null;
  }

  /**
   * An external trigger turned sampling on after {@code applicationInstructions}: a sink that
   * measures distances between events starts over here, so an unsampled stretch is not charged to
   * the first event after it (spec/sampling.md).
   */
  default void resume(long applicationInstructions) {}

  /**
   * {@link #resume(long)} where the hart's state is at hand: {@code cpu} is about to run the
   * interval's first instruction (at {@code cpu.pc}), so a sink can read what it missed while
   * sampling was off from the guest itself (a calling context unwinds the stack).
   */
  default void resume(Cpu cpu, long applicationInstructions) {
    resume(applicationInstructions);
  }

  /**
   * An external trigger turns sampling off after {@code applicationInstructions}: a sink that
   * charges the time between events stops charging here, as nothing it sees until {@link #resume}
   * belongs to the profile.
   */
  default void pause(long applicationInstructions) {}

  /**
   * The core switched from guest thread {@code from} to thread {@code to} after {@code
   * applicationInstructions}: a sink that keeps state per thread (a shadow call stack) charges what
   * ran so far to the thread that ran it and takes up the other thread's state. The core's engine
   * and its sinks are shared by the threads, as on one hardware core (spec/emulator.md, "Threads").
   */
  default void threadSwitched(int from, int to, long applicationInstructions) {}

  /** The profile, hottest first, with addresses named from the program's symbols. */
  ProfileTable table(SymbolTable symbols);

  /**
   * Further outputs in a format of their own, by file extension (the SimPoint {@code .bb} file of
   * {@code bbv}); none by default.
   */
  default Map<String, String> files(SymbolTable symbols) {
    return Map.of();
  }

  /** What a reader of the profile should know about how it was collected; none by default. */
  default java.util.List<String> notes() {
    return java.util.List.of();
  }

  /** A few lines of figures the summary prints after the top entries (memory, accuracy). */
  default List<String> summary() {
    return List.of();
  }
}
