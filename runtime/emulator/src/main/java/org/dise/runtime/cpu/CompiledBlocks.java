package org.dise.runtime.cpu;

import org.dise.runtime.mem.Memory;

/**
 * A unit of blocks translated to Java by {@link BlockCompiler}. Running it at one of its blocks
 * continues from block to block inside the unit, without returning to the interpreter, while
 * control stays in the unit and the step budget allows. The generated classes are hidden nestmates
 * of this package.
 */
public interface CompiledBlocks {
  /**
   * Runs from block {@code id} and returns the next pc. Stores the number of instructions that
   * retired in {@link UnitContext#unitSteps}; if an instruction throws, also stores it in {@link
   * UnitContext#faultInsn} (it is not counted as retired).
   */
  long run(int id, UnitContext context, long[] x, long[] f, Memory mem, long budget);

  /**
   * Marks the unit out of date (code of one of its blocks changed): from now on it runs only the
   * block it is entered at and returns, so stale translations are never reached.
   */
  void invalidate();
}
