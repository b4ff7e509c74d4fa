package org.dise.runtime.cpu.plan;

import java.util.List;

/**
 * What a decode stage does at one tagged instruction, as data the emulator runs: per group of flag
 * vectors that share one behaviour (a {@link Case}), its micro-ops in order, {@code T.INSN} ({@link
 * PlanOp.Original}) among them exactly once. Under a vector no case names, the instruction runs
 * alone. The handles the ops name ({@link Counters}, {@link Handler}, {@link SiteCounter}, the
 * {@link #accounts}) live as long as the translated unit that holds them (spec/emulator.md,
 * "Plans").
 *
 * @param accounts the stage's cost accounts, which the ops keep as the stage would
 * @param cases the groups of flag vectors, tested in order
 */
public record Plan(Accounts accounts, List<Case> cases) {
  public Plan {
    cases = List.copyOf(cases);
    for (Case c : cases) {
      if (c.ops.stream().filter(o -> o instanceof PlanOp.Original).count() != 1) {
        throw new IllegalArgumentException("a plan case runs T.INSN exactly once: " + c.ops);
      }
    }
  }

  /**
   * Under the flag vectors of {@code vectors} (bit v: vector v), {@code ops} run in order. An
   * {@link PlanOp.Insert}'s target is an index into {@code ops}, in the same part (before or after
   * {@code T.INSN}), or the index of the part's end.
   */
  public record Case(long vectors, List<PlanOp> ops) {
    public Case {
      ops = List.copyOf(ops);
      int o = ops.indexOf(new PlanOp.Original());
      for (int i = 0; i < ops.size(); i++) {
        if (ops.get(i) instanceof PlanOp.Insert e && e.target() >= 0) {
          boolean inPart = i < o ? e.target() <= o : e.target() > o && e.target() <= ops.size();
          if (!inPart) {
            throw new IllegalArgumentException(
                "op " + i + " branches out of its part, to op " + e.target());
          }
        }
      }
    }

    /** The index of {@code T.INSN} in {@link #ops}. */
    public int original() {
      for (int i = 0; i < ops.size(); i++) {
        if (ops.get(i) instanceof PlanOp.Original) {
          return i;
        }
      }
      throw new IllegalStateException("no T.INSN");
    }
  }

  /** Whether some case runs ops after {@code T.INSN}. */
  public boolean runsAfterOriginal() {
    return cases.stream().anyMatch(c -> c.original() < c.ops.size() - 1);
  }

  /**
   * Whether the plan is a prologue: in every case only counter ops, accounts and calls without a
   * result before {@code T.INSN}, which comes last (the instruction then runs as untagged code).
   */
  public boolean isPrologue() {
    for (Case c : cases) {
      int o = c.original();
      if (o != c.ops.size() - 1) {
        return false;
      }
      for (int i = 0; i < o; i++) {
        PlanOp op = c.ops.get(i);
        if (op instanceof PlanOp.Insert || op instanceof PlanOp.Call k && k.result() >= 0) {
          return false;
        }
      }
    }
    return true;
  }
}
