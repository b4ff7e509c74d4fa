package org.dise.repl.shell;

import java.util.Set;
import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.cpu.DecodeStage;
import org.dise.runtime.isa.DecodedInsn;

/**
 * The REPL's decode stage: the DISE/HPS engine (if any) plus any number of breakpoints. A
 * breakpoint address is tagged at decode, so it reaches {@link #execute} even inside blocks and
 * translated code, and even where the engine has a production (the cpu's single built-in
 * breakpoint is checked only on untagged blocks). Stopping asks the hart to stop before the
 * instruction executes.
 */
final class BreakpointStage implements DecodeStage {
  /** Tags a breakpoint address that no production tags. */
  private static final Object BREAK = new Object();

  private final DecodeStage engine;
  private final Set<Long> breakpoints;
  /** The address execution resumes from: its breakpoint does not stop it once. */
  private long resumeAt = -1;
  private long hit = -1;

  /** {@code engine} may be null; {@code breakpoints} is read live (flush the cache on change). */
  BreakpointStage(DecodeStage engine, Set<Long> breakpoints) {
    this.engine = engine;
    this.breakpoints = breakpoints;
  }

  /** Lets the instruction at {@code pc} run once even if it has a breakpoint. */
  void resumeAt(long pc) {
    resumeAt = pc;
    hit = -1;
  }

  /** The breakpoint that stopped the last run, or -1 (the stop had another reason). */
  long hit() {
    return hit;
  }

  @Override
  public Object attach(DecodedInsn d) {
    Object tag = engine == null ? null : engine.attach(d);
    return tag == null && breakpoints.contains(d.pc) ? BREAK : tag;
  }

  @Override
  public long execute(DecodedInsn d, Cpu cpu) {
    if (d.pc == resumeAt) {
      resumeAt = -1;
    } else if (breakpoints.contains(d.pc)) {
      hit = d.pc;
      cpu.requestInterrupt(); // run() returns INTERRUPTED before anything else executes
      return d.pc;
    }
    return d.dise == BREAK ? cpu.executeOne(d) : engine.execute(d, cpu);
  }
}
