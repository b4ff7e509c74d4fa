package org.dise.runtime.dise;

import java.util.List;

/**
 * One pattern-table entry: a pattern, its conditional control (micro-ops, empty for {@code null})
 * and the index of its replacement sequence in the replacement table, or -1 for {@code null}
 * (Section 3.3: the match fails for replacement, the micro-ops still run). {@code acf} is the
 * position of the ACF it belongs to in composition order. {@code tag} is the index of the sink that
 * a match tags the instruction for, or -1: its retired record (pc, result value, address) goes to
 * that sink, with no replacement and no stall (Zilles and Sohi's decode-stage filter; see
 * spec/engine.md, "Tagging").
 */
public record Production(
    String name, int acf, PatternExpr pattern, List<MicroOp> control, int replacement, int tag) {
  public Production {
    control = List.copyOf(control);
  }

  /** A production that tags nothing. */
  public Production(
      String name, int acf, PatternExpr pattern, List<MicroOp> control, int replacement) {
    this(name, acf, pattern, control, replacement, -1);
  }
}
