package org.dise.runtime.cpu;

import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.IllegalInstructionException;
import org.dise.runtime.isa.Op;
import org.dise.runtime.mem.Memory;

/**
 * What translated code sees of its hart, and all it may touch: the entry points it calls (the
 * decode stage for tagged instructions, the brackets around prologues and replacements emitted
 * inline, atomics, the dynamic rounding mode, the block observer) and the fields where a unit
 * leaves what happened when it returns or throws. Generated classes are nestmates in this package:
 * nothing here is public, and {@link Cpu} has no field that generated code writes.
 */
final class UnitContext {
  final Cpu cpu;

  /**
   * The run loop must get control back: an interrupt asked for by another host thread, or a thread
   * switch ({@link Cpu#requestInterrupt}, {@link Cpu#requestSwitch}). Here rather than on the cpu
   * so that a translated loop's back edge tests it with one load from the context it holds.
   */
  volatile boolean interruptRequested;

  /** The FP unit, for the {@link Semantics} methods that round or raise flags. */
  final Fpu fpu;

  /** Set by translated code: instructions retired in the last unit run. */
  long unitSteps;

  /** Set by translated code: the instruction that threw. */
  DecodedInsn faultInsn;

  /**
   * Set by translated code that left at a load or store its fast path could not do (a page not
   * there yet or not accessible, an access across a page end, a store into decoded code): the unit
   * returned that instruction's pc with {@link #SLOW_EXIT_BIT} set, and the run loop interprets
   * from the pc (the interpreter's access completes or faults as always) before it enters
   * translated code again. Cleared by the run loop.
   */
  boolean slowExit;

  /**
   * Set in the pc a slow exit returns: the run loop's test for a pc above 4 GiB, which it makes
   * after every unit anyway, sends it to the one place that reads {@link #slowExit} (a unit's code
   * is below 4 GiB, so the bit is never a real pc's there, and the flag tells a real jump to such
   * an address apart).
   */
  static final long SLOW_EXIT_BIT = 1L << 32;

  /** Set by {@link #runTagged}: the instructions the decode stage ran (inserted ones included). */
  long taggedSteps;

  // Counted as translated code runs; read together by Cpu#counters.
  long taggedCalls;
  long prologues;
  long emittedPrologues;
  long emittedReplacements;

  UnitContext(Cpu cpu, DecodeCache cache) {
    this.cpu = cpu;
    this.fpu = cpu.fpu;
    this.blockPages = cache.blockPages;
  }

  // ---------------------------------------------------------------- calls kept in translated code

  /**
   * How deep translated calls may nest on the host stack by default ({@code -Dacf.callDepth=N}; 0,
   * the default: units return to the dispatcher at every call and return, see below). With N > 0 a
   * guest call whose callee is translated in another unit runs as a JVM call from the caller's
   * unit, and its return comes back into the caller's code (spec/emulator.md, "Calls between
   * units"); deeper recursion leaves through the dispatcher, so the host stack stays bounded. Off
   * by default because it measured slower: a third to three quarters fewer dispatcher entries on
   * chess, interp and SQLite, but 10-17% more CPU (docs/benchmarks.md, issue 29).
   */
  static final int DEFAULT_CALL_DEPTH = EmulatorProperties.CALL_DEPTH.value();

  /** This hart's nesting limit (its block compiler's {@link BlockCompiler#callDepth}). */
  int maxCallDepth = DEFAULT_CALL_DEPTH;

  /** The decode cache's block table (the dispatcher's lookup, done here for a call site). */
  private final Block[][] blockPages;

  /** Translated calls now on the host stack. */
  private int depth;

  // Counted as translated code runs; read together by Cpu#counters.
  long nestedCalls;
  long nestedReturns;

  /**
   * The translated unit a call site in a unit may enter directly at guest {@code pc}, with {@code
   * left} instructions of budget (its block id in {@link #calleeId}), or null when the call must
   * leave through the dispatcher: the nesting is at its limit, an interrupt or thread switch is
   * pending, a breakpoint is set, or the block is not translated or does not fit. These are the
   * dispatcher's own tests before it chains two units, on the same block table (which holds only
   * current blocks, so code written since is never reached).
   */
  CompiledBlocks callee(long pc, long left) {
    if (depth >= maxCallDepth || interruptRequested || cpu.breakpoint >= 0 || (pc >>> 32) != 0) {
      return null;
    }
    Block[] bp = blockPages[(int) (pc >>> Memory.PAGE_BITS)];
    Block next = bp == null ? null : bp[(int) (pc & Memory.PAGE_MASK) >>> 1];
    if (next == null || next.code == null || next.insns.length > left) {
      return null;
    }
    calleeId = next.codeId;
    return next.code;
  }

  /** The block id in its unit of the block {@link #callee} found. */
  int calleeId;

  /**
   * Before a call site runs its callee's unit, with {@code retired} instructions of its own unit
   * run so far: the callee (and the decode stage it may call) sees the exact count.
   */
  void enterCall(long retired) {
    depth++;
    nestedCalls++;
    cpu.instret += retired;
  }

  /** After the callee's unit returned or threw: the caller counts its own instructions again. */
  void leaveCall(long retired) {
    depth--;
    cpu.instret -= retired;
  }

  /**
   * After a call site's callee came back at {@code pc}, not the call's return address {@code ret}
   * (its unit ended inside the callee): follows the callee from unit to unit as the dispatcher
   * would (the same tests, {@link #callee}), so that the caller's frame stays on the host stack for
   * the return, until control reaches {@code ret} or must leave. Returns the pc, and leaves in
   * {@link #unitSteps} the instructions run since the call (the first unit's included); if a unit
   * throws, {@link #unitSteps} counts what retired before the fault, as for one unit.
   */
  long follow(long pc, long ret, long budget, long[] x, long[] f, Memory mem) {
    long steps = unitSteps;
    cpu.instret += steps; // the next unit sees the exact count
    try {
      while (pc != ret && !cpu.halted) {
        CompiledBlocks code = callee(pc, budget - steps);
        if (code == null) {
          break;
        }
        pc = code.run(calleeId, this, x, f, mem, budget - steps);
        steps += unitSteps;
        cpu.instret += unitSteps;
      }
    } catch (RuntimeException e) {
      unitSteps += steps;
      cpu.instret -= steps;
      throw e;
    }
    cpu.instret -= steps;
    unitSteps = steps;
    return pc;
  }

  /**
   * Whether a caller whose callee came back to the call's return address may go on in its own unit:
   * not when an interrupt or thread switch is pending or the guest exited (the dispatcher's tests).
   */
  boolean resumes() {
    if (interruptRequested || cpu.halted) {
      return false;
    }
    nestedReturns++;
    return true;
  }

  // ---------------------------------------------------------------- exit statistics

  /**
   * Whether units record why they return to the dispatcher ({@code -Dacf.exitStats=true}: a
   * profiling aid, off by default since it costs a store at every exit and an increment in the
   * dispatcher).
   */
  static final boolean EXIT_STATS = EmulatorProperties.EXIT_STATS.value();

  /**
   * Why a unit returned to the dispatcher (with {@link #EXIT_STATS}): an index of {@link
   * #EXIT_KINDS}.
   */
  int exitKind;

  static final int EXIT_BUDGET = 1;
  static final int EXIT_DIRECT = 2;
  static final int EXIT_CALL = 3;
  static final int EXIT_RETURN = 4;
  static final int EXIT_INDIRECT_JUMP = 5;
  static final int EXIT_INDIRECT_CALL = 6;
  static final int EXIT_CHECK = 7;
  static final int EXIT_TAGGED = 8;
  static final int EXIT_SLOW_ACCESS = 9;

  /** The names of the exit kinds, by index (0: not recorded). */
  static final String[] EXIT_KINDS = {
    "other",
    "budget",
    "direct edge (branch, fall-through, jump)",
    "direct call (jal with a link)",
    "return (jalr x0, 0(ra))",
    "indirect jump (jalr x0, other)",
    "indirect call (jalr with a link)",
    "stale or interrupt check",
    "decode stage (tagged instruction)",
    "memory slow path (load or store)"
  };

  /** The exit kind of a block ending in {@code last} whose successor is not in its unit. */
  static int exitKindOf(DecodedInsn last) {
    if (last.exec == Op.JALR) {
      if (UnitRegisters.real(last.rd)) {
        return EXIT_INDIRECT_CALL;
      }
      return last.rs1 == 1 && last.imm == 0 ? EXIT_RETURN : EXIT_INDIRECT_JUMP;
    }
    if (last.exec == Op.JAL && UnitRegisters.real(last.rd)) {
      return EXIT_CALL;
    }
    return EXIT_DIRECT;
  }

  /** True when the run loop must get control back (an interrupt, a thread switch). */
  boolean interruptPending() {
    return interruptRequested;
  }

  /** The decode stage's flag vector as one bit (read at entry and after every call into it). */
  long vectorBit() {
    return cpu.vectorBit;
  }

  boolean halted() {
    return cpu.halted;
  }

  /** Reports a run of application instructions to the block observer ({@link Cpu#observe}). */
  void observe(long endPc, int count, boolean transfer) {
    cpu.observe(endPc, count, transfer);
  }

  /** An A instruction ({@link Interpreter#atomic}): the hart keeps the reservation. */
  long atomic(long addr, long src, int opcode) {
    return cpu.interpreter.atomic(addr, src, opcode);
  }

  /**
   * The dynamic rounding mode; frm values 5-7 make the instruction ({@code raw}) illegal. Kept
   * under C1's inlining size (MaxInlineSize, 35 bytes), since every dynamic-mode FP instruction
   * reads it.
   */
  int dynamicRm(int raw) {
    int rm = fpu.frm;
    if (rm > 4) {
      badRm(raw, rm);
    }
    return rm;
  }

  private static void badRm(int raw, int rm) {
    throw new IllegalInstructionException(raw, 4, "invalid rounding mode " + rm);
  }

  /**
   * Runs a tagged instruction through the decode stage, for translated code that reached it with
   * {@code retired} instructions of its unit run so far (not yet in {@link Cpu#instret()}): the
   * stage and its sinks see the exact count, as in the interpreter. Returns the next pc and leaves
   * the instructions the stage ran in {@link #taggedSteps}, for the unit to count; if it faults,
   * the instructions that retired before the fault stay counted, as in the interpreter.
   */
  long runTagged(DecodedInsn d, long retired) {
    taggedCalls++;
    cpu.instret += retired;
    long before = cpu.instret;
    cpu.pc = d.pc;
    try {
      long next = cpu.decodeStage().execute(d, cpu);
      taggedSteps = cpu.instret - before;
      cpu.instret -= taggedSteps;
      return next;
    } finally {
      cpu.instret -= retired;
    }
  }

  /**
   * Runs the prologue of a tagged instruction that the decode stage splits ({@link
   * DecodeStage#splitsOriginal}), for translated code that reached it with {@code retired}
   * instructions of its unit run so far: the stage and its sinks see the exact count and pc, as in
   * {@link #runTagged}; the caller then runs the instruction itself.
   */
  void runBefore(DecodedInsn d, long retired) {
    prologues++;
    cpu.instret += retired;
    cpu.pc = d.pc;
    try {
      cpu.decodeStage().before(d, cpu);
    } finally {
      cpu.instret -= retired;
    }
  }

  /**
   * Before a prologue or whole replacement emitted inline ({@link PlanEmitter}) by translated code
   * that reached its instruction at {@code pc} with {@code retired} instructions of its unit run so
   * far: the stage's code and its sinks see the exact count and pc, as in {@link #runBefore};
   * {@link #leavePrologue} after it (for a replacement, before and after its {@code T.INSN}, with
   * {@link #resumeReplacement} after it).
   */
  void enterPlan(long retired, long pc) {
    cpu.instret += retired;
    cpu.pc = pc;
  }

  /** After a prologue emitted inline: the unit counts its own instructions again. */
  void leavePrologue(long retired) {
    cpu.instret -= retired;
  }

  /** After the {@code T.INSN} of a replacement emitted inline: the code after it sees the count. */
  void resumeReplacement(long retired, long pc) {
    cpu.instret += retired;
    cpu.pc = pc;
  }

  /**
   * An inserted instruction of a replacement emitted inline retired (the unit counts it too, and
   * takes it back with the rest when it leaves the replacement).
   */
  void retireInserted() {
    cpu.instret++;
  }
}
