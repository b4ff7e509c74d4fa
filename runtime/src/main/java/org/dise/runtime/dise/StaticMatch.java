package org.dise.runtime.dise;

/**
 * What the engine attaches to a decoded instruction: the productions whose static part can
 * match it, each with its truth table over the flags and its instantiated replacement sequence
 * (null for {@code null}). Built once per static instruction.
 */
final class StaticMatch {
  final int[] productions;
  final long[] truth;
  final int[] acf;
  final Step[][] sequences;

  StaticMatch(int[] productions, long[] truth, int[] acf, Step[][] sequences) {
    this.productions = productions;
    this.truth = truth;
    this.acf = acf;
    this.sequences = sequences;
  }
}
