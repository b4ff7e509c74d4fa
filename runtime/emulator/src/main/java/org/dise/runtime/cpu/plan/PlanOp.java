package org.dise.runtime.cpu.plan;

import java.util.List;
import org.dise.runtime.isa.DecodedInsn;

/**
 * One micro-op of a {@link Plan}: a counter operation, an account, a sink call with its argument
 * sources, a per-site counter's addition or slot's update, an inserted instruction, {@code T.INSN}
 * itself, or a tag for co-processor sinks.
 */
public sealed interface PlanOp {
  /** What a {@link Count} does to its counter. */
  enum Kind {
    INC,
    DEC,
    SET
  }

  /**
   * An HPS counter micro-op on {@code counters}: {@code inc_c}, {@code dec_c}, or {@code set_c} of
   * counter register {@code register} (when {@code >= 0}) or of {@code constant}.
   */
  record Count(Counters counters, Kind kind, int counter, int register, long constant)
      implements PlanOp {}

  /** Counts one replacement in the plan's accounts (the stall the decoder pays). */
  record Replaced() implements PlanOp {}

  /**
   * {@code call(sink, args...)}, or {@code $drN = call(...)} when {@code result >= 0} (an x index,
   * DISE registers included; the handler is then a {@link ReturningHandler}). The arguments are
   * read into {@code argArray} (the stage's own array for the call) when the call runs; {@code
   * reads} are the integer registers the handler itself reads from {@code cpu.x} (bit r), which the
   * unit stores from its locals first. Accounted as {@link Accounts} says.
   */
  record Call(int sink, Handler handler, List<Arg> args, long[] argArray, int result, long reads)
      implements PlanOp {
    public Call {
      args = List.copyOf(args);
      if (argArray.length != args.size()) {
        throw new IllegalArgumentException("one array slot per argument");
      }
      if (result >= 0 && !(handler instanceof ReturningHandler)) {
        throw new IllegalArgumentException("a call with a result needs a returning handler");
      }
    }
  }

  /**
   * A call of sink {@code sink} whose events for this instruction go to {@code counter}: accounted
   * as a call, with the counter's addition instead of the handler's record (spec/emulator.md,
   * "Per-site counters").
   */
  record Site(int sink, SiteCounter counter) implements PlanOp {}

  /**
   * A call of sink {@code sink} whose key is fixed at this instruction, applied to the key's {@code
   * slot}: {@link SiteSlot#update} of the last of {@code args} (read as a {@link Call}'s, into
   * {@code argArray}), its result into x register {@code result} when {@code >= 0}. Accounted as a
   * call with {@link Accounts#slotCalled} (spec/emulator.md, "Per-site slots").
   */
  record Slot(int sink, SiteSlot slot, List<Arg> args, long[] argArray, int result)
      implements PlanOp {
    public Slot {
      args = List.copyOf(args);
      if (args.isEmpty() || argArray.length != args.size()) {
        throw new IllegalArgumentException("a slot's call has arguments, one array slot each");
      }
    }

    /** The argument {@link SiteSlot#update} takes: the call's last. */
    public Arg value() {
      return args.get(args.size() - 1);
    }
  }

  /**
   * An inserted instruction: an integer computation that cannot fault ({@code target < 0}), or a
   * conditional branch or plain jump to op {@code target} of its part. Retires as one inserted
   * instruction.
   */
  record Insert(DecodedInsn insn, int target) implements PlanOp {}

  /** {@code T.INSN}: the tagged instruction itself. */
  record Original() implements PlanOp {}

  /**
   * {@code tag(sink)}: the instruction's retired record goes to the co-processor sinks of {@code
   * sinks} (bit i: sink i) once the case has run, through {@link Accounts#retireTagged}; its
   * address and store data are read before the case's first op. The first op of its case.
   */
  record Tag(long sinks) implements PlanOp {}

  /** Where a call's argument comes from when the call runs. */
  sealed interface Arg {
    /** A constant. */
    record Const(long value) implements Arg {}

    /** Integer register {@code reg} (DISE registers included). */
    record X(int reg) implements Arg {}

    /** The raw bits of floating-point register {@code reg}. */
    record F(int reg) implements Arg {}

    /**
     * {@code T.NEXT_PC}: the fall-through before {@code T.INSN}, where the instruction went after
     * it.
     */
    record Next() implements Arg {}

    /** {@code T.TID}: the running guest thread's id. */
    record ThreadId() implements Arg {}
  }
}
