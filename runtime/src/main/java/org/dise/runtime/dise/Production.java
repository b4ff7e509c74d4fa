package org.dise.runtime.dise;

import java.util.List;

/**
 * One pattern-table entry: a pattern, its conditional control (micro-ops, empty for {@code
 * null}) and the index of its replacement sequence in the replacement table, or -1 for {@code
 * null} (Section 3.3: the match fails for replacement, the micro-ops still run). {@code acf} is
 * the position of the ACF it belongs to in composition order.
 */
public record Production(String name, int acf, PatternExpr pattern, List<MicroOp> control,
    int replacement) {
  public Production {
    control = List.copyOf(control);
  }
}
