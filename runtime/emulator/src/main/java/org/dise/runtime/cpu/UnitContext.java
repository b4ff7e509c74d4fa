package org.dise.runtime.cpu;

import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.IllegalInstructionException;

/**
 * What translated code sees of its hart, and all it may touch: the entry points it calls (the
 * decode stage for tagged instructions, the brackets around prologues and replacements emitted
 * inline, atomics, the dynamic rounding mode, the block observer) and the fields where a unit
 * leaves what happened when it returns or throws. Generated classes are nestmates in this package:
 * nothing here is public, and {@link Cpu} has no field that generated code writes.
 */
final class UnitContext {
  final Cpu cpu;

  /** The FP unit, for the {@link Semantics} methods that round or raise flags. */
  final Fpu fpu;

  /** Set by translated code: the index in its block of the instruction that threw. */
  int faultIndex;

  /** Set by translated code: instructions retired in the last unit run. */
  long unitSteps;

  /** Set by translated code: the instruction that threw. */
  DecodedInsn faultInsn;

  /** Set by {@link #runTagged}: the instructions the decode stage ran (inserted ones included). */
  long taggedSteps;

  // Counted as translated code runs; read together by Cpu#counters.
  long taggedCalls;
  long prologues;
  long emittedPrologues;
  long emittedReplacements;

  UnitContext(Cpu cpu) {
    this.cpu = cpu;
    this.fpu = cpu.fpu;
  }

  /** True when the run loop must get control back (an interrupt, a thread switch). */
  boolean interruptPending() {
    return cpu.interruptRequested;
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

  /** The dynamic rounding mode; frm values 5-7 make the instruction ({@code raw}) illegal. */
  int dynamicRm(int raw) {
    int rm = fpu.frm;
    if (rm > 4) {
      throw new IllegalInstructionException(raw, 4, "invalid rounding mode " + rm);
    }
    return rm;
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
   * Before a prologue emitted inline ({@link PlanEmitter}) by translated code that reached its
   * instruction at {@code pc} with {@code retired} instructions of its unit run so far: the stage's
   * code and its sinks see the exact count and pc, as in {@link #runBefore}.
   */
  void enterPrologue(long retired, long pc) {
    emittedPrologues++;
    cpu.instret += retired;
    cpu.pc = pc;
  }

  /** After a prologue emitted inline: the unit counts its own instructions again. */
  void leavePrologue(long retired) {
    cpu.instret -= retired;
  }

  /**
   * Before a whole replacement emitted inline ({@link PlanEmitter}) by translated code that reached
   * its instruction at {@code pc} with {@code retired} instructions of its unit run so far, as
   * {@link #enterPrologue}; {@link #resumeReplacement} after its {@code T.INSN}, {@link
   * #leavePrologue} before and after that.
   */
  void enterReplacement(long retired, long pc) {
    emittedReplacements++;
    cpu.instret += retired;
    cpu.pc = pc;
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
