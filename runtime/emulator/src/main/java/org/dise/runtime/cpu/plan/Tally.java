package org.dise.runtime.cpu.plan;

import java.util.ArrayList;
import java.util.List;

/**
 * Per-site accounting: the runs of straight-line parts of plan cases whose accounts are the same
 * every run (a replacement's count and per-site counter or slot calls, in a case with no call into
 * a sink's record), which translated code counts with one addition per run instead of the accounts'
 * several; the accounts fold {@code runs} times the {@link Shape} into their figures when those are
 * read (spec/emulator.md, "Per-site accounting"). The accounts hand out one tally per shape ({@link
 * Accounts#tally}), shared by every case of that shape.
 */
public final class Tally {
  /** Runs of the cases counted here that the accounts have not folded in yet. */
  public long runs;

  /** What one run adds to the accounts. */
  public final Shape shape;

  public Tally(Shape shape) {
    this.shape = shape;
  }

  /**
   * What one run of a case adds: {@code replacements} replacements, and per entry of {@code sinks}
   * one handler call, one call of that sink and its cycles.
   *
   * @param sinks the sinks called, one entry per call, in ascending order
   */
  public record Shape(int replacements, List<Integer> sinks) {
    public Shape {
      sinks = List.copyOf(sinks);
    }

    // Equality written out: a record's own is bootstrapped through method handles on first use,
    // 15-20 ms of the start of every run whose plans keep tallies.
    @Override
    public boolean equals(Object o) {
      return o instanceof Shape s && s.replacements == replacements && s.sinks.equals(sinks);
    }

    @Override
    public int hashCode() {
      return replacements * 31 + sinks.hashCode();
    }

    /**
     * The shape of {@code ops}, a straight-line part of a case that runs whole or not at all (the
     * caller cuts a case at its inserted branches, their targets and {@code T.INSN}; inserted
     * instructions are counted apart), or null when it calls a sink's record (which may read the
     * accounts mid-run, through a clock) or tags, or when it has no replacement or per-site call.
     */
    public static Shape of(List<PlanOp> ops) {
      int replaced = 0;
      List<Integer> sinks = new ArrayList<>();
      for (PlanOp op : ops) {
        if (op instanceof PlanOp.Call || op instanceof PlanOp.Tag) {
          return null;
        } else if (op instanceof PlanOp.Replaced) {
          replaced++;
        } else if (op instanceof PlanOp.Site s) {
          sinks.add(s.sink());
        } else if (op instanceof PlanOp.Slot s) {
          sinks.add(s.sink());
        }
      }
      if (replaced == 0 && sinks.isEmpty()) {
        return null;
      }
      sinks.sort(null);
      return new Shape(replaced, sinks);
    }
  }
}
