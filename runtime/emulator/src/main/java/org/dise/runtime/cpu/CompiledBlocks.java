package org.dise.runtime.cpu;

import org.dise.runtime.mem.Memory;

/**
 * A unit of blocks translated to JVM bytecode by {@link BlockCompiler}. Running it at one of its
 * blocks continues from block to block inside the unit, without returning to the interpreter, while
 * control stays in the unit and the step budget allows. The generated classes are hidden nestmates
 * of this package.
 *
 * <p>An abstract class rather than an interface: every unit is a class of its own, so the
 * dispatcher's call of {@link #run} is megamorphic, and HotSpot makes a megamorphic virtual call
 * through the vtable (one indexed load), where an interface call goes through an itable stub that
 * searches the receiver's interfaces on every call (6.5% of a chess run's samples in `perf`,
 * "vtable chunks"; docs/benchmarks.md, issue 29).
 */
public abstract class CompiledBlocks {
  /**
   * The binary name every unit's class starts with (hidden classes add {@code /0x...}). The
   * launchers name it in a {@code -XX:CompileCommand} that has C1 compile a unit at its first call
   * rather than after 200 calls or 60,000 loop iterations in HotSpot's bytecode interpreter
   * (spec/emulator.md, "The JVM the launchers start"); renaming it must change them too
   * (LauncherJvmOptionsTest).
   */
  public static final String UNIT_CLASS_NAME = "org.dise.runtime.cpu.TranslatedUnit";

  /** For the translated units (hidden classes in this package). */
  protected CompiledBlocks() {}

  /**
   * The blocks this unit was installed for ({@link BlockCompiler#install}), in id order; null
   * before. Read when the dispatcher asks to join this unit with the next ({@link
   * BlockCompiler#join}), which knows the unit it left but not the block it was entered at.
   */
  Block[] blocks;

  /**
   * Runs from block {@code id} and returns the next pc. Stores the number of instructions that
   * retired in {@link UnitContext#unitSteps}; if an instruction throws, also stores it in {@link
   * UnitContext#faultInsn} (it is not counted as retired).
   */
  public abstract long run(
      int id, UnitContext context, long[] x, long[] f, Memory mem, long budget);

  /**
   * The budget a unit counts down from (its int local: {@link BytecodeTranslator#R_LEFT}): {@code
   * budget} clamped to [0, Integer.MAX_VALUE]. A unit so stops after at most 2^31 - 1 instructions
   * with a budget exit, and the dispatcher goes on with what is left.
   */
  static int stepBudget(long budget) {
    return budget <= 0 ? 0 : budget >= Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) budget;
  }

  /**
   * Marks the unit out of date (code of one of its blocks changed): from now on it runs only the
   * block it is entered at and returns, so stale translations are never reached.
   */
  public abstract void invalidate();
}
