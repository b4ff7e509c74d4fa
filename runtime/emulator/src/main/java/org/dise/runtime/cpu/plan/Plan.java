package org.dise.runtime.cpu.plan;

import java.util.List;

/**
 * What a decode stage does at one tagged instruction, as data the emulator runs: per group of flag
 * vectors that share one behaviour (a {@link Case}), its micro-ops in order. Under a vector no case
 * names, the instruction runs alone. The interpreter runs every plan ({@code cpu.PlanInterpreter});
 * translated code runs inline the plans that {@link #splits} ({@code cpu.PlanEmitter}). The handles
 * the ops name ({@link Counters}, {@link Handler}, {@link SiteCounter}, {@link SiteSlot}, the
 * {@link #accounts}) live as long as the decoded instruction or translated unit that holds them
 * (spec/emulator.md, "Plans").
 *
 * @param accounts the stage's cost accounts, which the ops keep as the stage would
 * @param cases the groups of flag vectors, tested in order
 */
public record Plan(Accounts accounts, List<Case> cases) {
  public Plan {
    cases = List.copyOf(cases);
  }

  /**
   * Under the flag vectors of {@code vectors} (bit v: vector v), {@code ops} run in order. An
   * {@link PlanOp.Insert}'s target is an index into {@code ops}, or {@code ops.size()} (the end).
   */
  public record Case(long vectors, List<PlanOp> ops) {
    public Case {
      ops = List.copyOf(ops);
      for (int i = 0; i < ops.size(); i++) {
        if (ops.get(i) instanceof PlanOp.Insert e && e.target() > ops.size()) {
          throw new IllegalArgumentException(
              "op " + i + " branches past the end, to " + e.target());
        }
        if (ops.get(i) instanceof PlanOp.Tag && i > 0) {
          throw new IllegalArgumentException("a tag is its case's first op, not op " + i);
        }
      }
    }

    /** The index of the first {@code T.INSN} in {@link #ops}, or -1. */
    public int original() {
      for (int i = 0; i < ops.size(); i++) {
        if (ops.get(i) instanceof PlanOp.Original) {
          return i;
        }
      }
      return -1;
    }

    /**
     * Whether the case runs {@code T.INSN} exactly once, tags nothing, and every inserted branch
     * stays in its part (before or after {@code T.INSN}; the part's end included).
     */
    boolean splits() {
      int o = original();
      if (o < 0 || ops.stream().filter(op -> op instanceof PlanOp.Original).count() != 1) {
        return false;
      }
      for (int i = 0; i < ops.size(); i++) {
        PlanOp op = ops.get(i);
        if (op instanceof PlanOp.Tag) {
          return false;
        }
        if (op instanceof PlanOp.Insert e && e.target() >= 0) {
          boolean inPart = i < o ? e.target() <= o : e.target() > o;
          if (!inPart) {
            return false;
          }
        }
      }
      return true;
    }
  }

  /**
   * Whether every case has the shape translated code runs inline: {@code T.INSN} exactly once,
   * inserted branches within their part, no tag.
   */
  public boolean splits() {
    return cases.stream().allMatch(Case::splits);
  }

  /** Whether some case runs ops after {@code T.INSN} (only for a plan that {@link #splits}). */
  public boolean runsAfterOriginal() {
    return cases.stream().anyMatch(c -> c.original() < c.ops.size() - 1);
  }

  /**
   * Whether the plan is a prologue: it {@link #splits}, and in every case only counter ops,
   * accounts and calls without a result come before {@code T.INSN}, which comes last (the
   * instruction then runs as untagged code).
   */
  public boolean isPrologue() {
    if (!splits()) {
      return false;
    }
    for (Case c : cases) {
      int o = c.original();
      if (o != c.ops.size() - 1) {
        return false;
      }
      for (int i = 0; i < o; i++) {
        PlanOp op = c.ops.get(i);
        if (op instanceof PlanOp.Insert
            || op instanceof PlanOp.Call k && k.result() >= 0
            || op instanceof PlanOp.Slot t && t.result() >= 0) {
          return false;
        }
      }
    }
    return true;
  }
}
