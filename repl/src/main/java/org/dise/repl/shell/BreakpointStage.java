package org.dise.repl.shell;

import java.util.List;
import java.util.Set;
import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.cpu.DecodeStage;
import org.dise.runtime.dise.DiseEngine;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.OpClass;

/**
 * The REPL's decode stage: the DISE/HPS engine (if any), any number of breakpoints, conditional
 * breakpoints ({@link BreakCondition}) and the shadow call stack ({@link ShadowStack}). A
 * breakpoint address is tagged at decode, so it reaches {@link #execute} even inside blocks and
 * translated code, and even where the engine has a production (the cpu's single built-in breakpoint
 * is checked only on untagged blocks). Calls and returns are tagged too, so that the stack follows
 * them. Stopping asks the hart to stop before the next instruction executes.
 */
final class BreakpointStage implements DecodeStage {
  /** Tags a breakpoint address that no production tags. */
  private static final Object BREAK = new Object();

  /** Tags a call or return that nothing else tags (for the shadow stack). */
  private static final Object TRACK = new Object();

  private final DiseEngine engine;
  private final Set<Long> breakpoints;
  private final List<BreakCondition> conditions;
  private final ShadowStack stack;

  /** Per condition: its state when last checked (counter conditions fire on false to true). */
  private Boolean[] last = new Boolean[0];

  /** The address execution resumes from: its breakpoint does not stop it once. */
  private long resumeAt = -1;

  private long hit = -1;
  private BreakCondition fired;

  /**
   * {@code engine} may be null; {@code breakpoints} and {@code conditions} are read live (flush the
   * decode cache when breakpoints change).
   */
  BreakpointStage(
      DiseEngine engine,
      Set<Long> breakpoints,
      List<BreakCondition> conditions,
      ShadowStack stack) {
    this.engine = engine;
    this.breakpoints = breakpoints;
    this.conditions = conditions;
    this.stack = stack;
  }

  /** Lets the instruction at {@code pc} run once even if it has a breakpoint. */
  void resumeAt(long pc) {
    resumeAt = pc;
    hit = -1;
    fired = null;
    last = new Boolean[conditions.size()];
    for (int i = 0; i < last.length; i++) {
      last[i] = engine == null ? null : conditions.get(i).state(engine);
    }
  }

  /** The breakpoint that stopped the last run, or -1 (the stop had another reason). */
  long hit() {
    return hit;
  }

  /** The condition that stopped the last run, or null. */
  BreakCondition fired() {
    return fired;
  }

  private static boolean transfers(DecodedInsn d) {
    OpClass c = d.opClass();
    return c == OpClass.PROC_CALL || c == OpClass.RETURN;
  }

  @Override
  public Object attach(DecodedInsn d) {
    Object tag = engine == null ? null : engine.attach(d);
    if (tag != null) {
      if (transfers(d) || breakpoints.contains(d.pc)) {
        d.diseMask = -1L; // reach execute under every flag vector, matched or not
      }
      return tag;
    }
    return breakpoints.contains(d.pc) ? BREAK : transfers(d) ? TRACK : null;
  }

  /** Each guest thread has its own call stack; the engine's sinks follow the switch too. */
  @Override
  public void threadSwitched(Cpu cpu, int from, int to) {
    stack.switchThread(from, to);
    if (engine != null) {
      engine.threadSwitched(cpu, from, to);
    }
  }

  @Override
  public long vectorBit() {
    return engine == null ? -1L : engine.vectorBit();
  }

  @Override
  public long execute(DecodedInsn d, Cpu cpu) {
    boolean own = d.dise == BREAK || d.dise == TRACK;
    if (d.pc == resumeAt) {
      resumeAt = -1;
    } else {
      if (breakpoints.contains(d.pc)) {
        return stop(d, cpu);
      }
      if (!own && !conditions.isEmpty()) {
        for (BreakCondition c : conditions) {
          if (c.before(engine, d)) {
            fired = c;
            return stop(d, cpu);
          }
        }
      }
    }
    long next = own ? cpu.executeOne(d) : engine.execute(d, cpu);
    if (transfers(d) && !cpu.halted()) {
      if (d.opClass() == OpClass.PROC_CALL) {
        stack.call(d.pc, d.npc, next);
      } else {
        stack.ret(next);
      }
    }
    if (!own && !conditions.isEmpty()) {
      checkCounters(cpu);
    }
    return next;
  }

  private long stop(DecodedInsn d, Cpu cpu) {
    hit = d.pc;
    cpu.requestInterrupt(); // run() returns INTERRUPTED before anything else executes
    return d.pc;
  }

  /** After a tagged instruction: a counter or sink condition that just became true stops it. */
  private void checkCounters(Cpu cpu) {
    if (last.length != conditions.size()) {
      last = java.util.Arrays.copyOf(last, conditions.size());
    }
    for (int i = 0; i < last.length; i++) {
      Boolean now = conditions.get(i).state(engine);
      if (now != null && now && Boolean.FALSE.equals(last[i]) && fired == null) {
        fired = conditions.get(i);
        cpu.requestInterrupt();
      }
      last[i] = now;
    }
  }
}
