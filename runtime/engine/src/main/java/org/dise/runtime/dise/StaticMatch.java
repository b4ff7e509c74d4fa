package org.dise.runtime.dise;

/**
 * What the engine attaches to a decoded instruction: the productions whose static part can match
 * it, each with its truth table over the flags and its instantiated replacement sequence (null for
 * {@code null}) and the sink it tags for. Built once per static instruction.
 */
final class StaticMatch {
  final int[] productions;
  final long[] truth;
  final int[] acf;
  final Step[][] sequences;

  /** Per production: the sink it tags for, or -1. */
  final int[] tag;

  /** Whether any of them tags. */
  final boolean tags;

  /**
   * Per flag vector, what happens when the instruction is decoded under it ({@link
   * DiseEngine.Chosen}), made on first use: it depends on the vector alone.
   */
  DiseEngine.Chosen[] plans;

  /** The instruction's plan, ready for the interpreter, made on first use (null: not yet). */
  org.dise.runtime.cpu.PlanInterpreter interpreter;

  StaticMatch(int[] productions, long[] truth, int[] acf, Step[][] sequences, int[] tag) {
    this.productions = productions;
    this.truth = truth;
    this.acf = acf;
    this.sequences = sequences;
    this.tag = tag;
    boolean any = false;
    for (int t : tag) {
      any |= t >= 0;
    }
    this.tags = any;
  }
}
