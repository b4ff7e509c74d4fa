package org.dise.runtime.dise;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dise.runtime.cpu.plan.Plan;
import org.dise.runtime.cpu.plan.PlanOp;
import org.dise.runtime.cpu.plan.SiteCounter;
import org.dise.runtime.cpu.plan.SiteSlot;
import org.dise.runtime.isa.DecodedInsn;

/**
 * A tagged instruction's behaviour under {@link DiseEngine} as a {@link Plan}, for the interpreter
 * to run ({@link DiseEngine#execute}) and translated code to run inline ({@link
 * DiseEngine#plan(DecodedInsn)}): per group of flag vectors that share one {@link
 * DiseEngine.Chosen}, a tag for the co-processor sinks that tag it, its counter micro-ops, the
 * replacement's count, and the chosen sequences, step for step when there is one, else merged as
 * spec/engine.md says (the parts before {@code T.INSN} in ACF order, {@code T.INSN} once, the parts
 * after), each call with its argument sources, a per-site counter where the sink offers one. The
 * accounts are the engine's, so that a run keeps the same costs whichever way it goes
 * (spec/emulator.md, "Plans").
 */
final class PlanBuilder {
  private PlanBuilder() {}

  /** At most this many distinct groups per instruction go into translated code; more call. */
  static final int MAX_GROUPS = 4;

  /** The flag vectors (one bit each) under which {@code chosen} applies. */
  private record Group(long vectors, DiseEngine.Chosen chosen) {}

  /**
   * The plan of {@code d} under {@code engine}; {@code sites}: whether a call may go to the sink's
   * per-site counter for {@code d}.
   */
  static Plan build(DiseEngine engine, DecodedInsn d, StaticMatch m, boolean sites) {
    List<Plan.Case> cases = new ArrayList<>();
    for (Group g : groups(engine, d, m)) {
      List<PlanOp> ops = new ArrayList<>();
      if (g.chosen.tags != 0) {
        ops.add(new PlanOp.Tag(g.chosen.tags));
      }
      for (MicroOp op : g.chosen.ops) {
        ops.add(count(engine.hps(), op));
      }
      Step[][] seqs = g.chosen.sequences;
      if (seqs.length == 0) {
        ops.add(new PlanOp.Original()); // a null match: no stall, nothing inserted
      } else if (seqs.length == 1) {
        ops.add(new PlanOp.Replaced());
        Builder b = new Builder(engine, d, sites, ops);
        b.part(seqs[0], 0, seqs[0].length);
      } else {
        ops.add(new PlanOp.Replaced());
        merged(new Builder(engine, d, sites, ops), seqs);
      }
      cases.add(new Plan.Case(g.vectors, ops));
    }
    return new Plan(engine, cases);
  }

  /**
   * Several ACFs' sequences: the parts before {@code T.INSN} in ACF order, {@code T.INSN} once if
   * any has it, then the parts after. Lowering refuses a branch across {@code T.INSN} when several
   * ACFs are active; a branch past its part's end goes to the part's end, as in one sequence.
   */
  private static void merged(Builder b, Step[][] seqs) {
    boolean original = false;
    for (Step[] s : seqs) {
      int o = original(s);
      original |= o >= 0;
      b.part(s, 0, o < 0 ? s.length : o);
    }
    if (original) {
      b.ops.add(new PlanOp.Original());
      b.after = true;
    }
    for (Step[] s : seqs) {
      int o = original(s);
      if (o >= 0) {
        b.part(s, o + 1, s.length);
      }
    }
  }

  /**
   * The chosen micro-ops, sequences and tags of {@code d} with an effect, grouped by the flag
   * vectors that share them.
   */
  private static List<Group> groups(DiseEngine engine, DecodedInsn d, StaticMatch m) {
    Map<List<Object>, long[]> byChoice = new LinkedHashMap<>();
    Map<List<Object>, DiseEngine.Chosen> chosen = new LinkedHashMap<>();
    for (int v = 0; v < 64; v++) {
      if ((d.diseMask >>> v & 1) == 0) {
        continue;
      }
      DiseEngine.Chosen p = engine.chosen(m, v);
      if (p.ops.length == 0 && p.sequences.length == 0 && p.tags == 0) {
        continue; // nothing matches with an effect: the instruction runs alone
      }
      // Sequences are the StaticMatch's own arrays: equal choices hold the same ones.
      List<Object> key =
          List.of(Arrays.asList(p.ops), Arrays.asList((Object[]) p.sequences), p.tags);
      byChoice.computeIfAbsent(key, k -> new long[1])[0] |= 1L << v;
      chosen.putIfAbsent(key, p);
    }
    List<Group> groups = new ArrayList<>();
    byChoice.forEach((k, mask) -> groups.add(new Group(mask[0], chosen.get(k))));
    return groups;
  }

  private static PlanOp.Count count(HpsCounters hps, MicroOp op) {
    PlanOp.Kind kind =
        switch (op.kind()) {
          case INC -> PlanOp.Kind.INC;
          case DEC -> PlanOp.Kind.DEC;
          case SET -> PlanOp.Kind.SET;
        };
    return new PlanOp.Count(
        hps, kind, op.counter(), op.fromRegister() ? (int) op.source() : -1, op.source());
  }

  /** The index of the first T.INSN in {@code s}, or -1. */
  private static int original(Step[] s) {
    for (int i = 0; i < s.length; i++) {
      if (s[i] instanceof Step.Original) {
        return i;
      }
    }
    return -1;
  }

  /** Appends the steps of a case's sequences to its ops. */
  private static final class Builder {
    final DiseEngine engine;
    final DecodedInsn d;
    final boolean sites;
    final List<PlanOp> ops;

    /** Whether {@code T.INSN} came before the step being appended. */
    boolean after;

    Builder(DiseEngine engine, DecodedInsn d, boolean sites, List<PlanOp> ops) {
      this.engine = engine;
      this.d = d;
      this.sites = sites;
      this.ops = ops;
    }

    /**
     * Appends steps {@code [from, to)} of {@code s}, a branch's target moved to its index among the
     * ops (a target past the part, to the op after it).
     */
    void part(Step[] s, int from, int to) {
      int base = ops.size() - from;
      for (int i = from; i < to; i++) {
        if (s[i] instanceof Step.Exec e) {
          int target =
              e.target < 0 ? -1 : base + (e.target < from || e.target > to ? to : e.target);
          ops.add(new PlanOp.Insert(e.insn, target));
        } else if (s[i] instanceof Step.Call c) {
          ops.add(call(c));
        } else {
          ops.add(new PlanOp.Original());
          after = true;
        }
      }
    }

    /**
     * A call of the sequence: a per-site counter when allowed, the sink offers one for {@code d}
     * and the call needs nothing a counter cannot give (a result, or {@code T.NEXT_PC} after {@code
     * T.INSN}, which may be a transfer's target); else, when allowed, the sink's per-site slot for
     * the call's fixed key ({@link SiteSlot}); else the sink's record with its argument sources.
     */
    private PlanOp call(Step.Call c) {
      boolean next = false;
      List<PlanOp.Arg> args = new ArrayList<>();
      for (int a = 0; a < c.reg.length; a++) {
        int reg = c.reg[a];
        next |= reg == Step.Call.NEXT;
        args.add(
            reg < 0
                ? new PlanOp.Arg.Const(c.constants[a])
                : reg == Step.Call.NEXT
                    ? new PlanOp.Arg.Next()
                    : reg == Step.Call.TID
                        ? new PlanOp.Arg.ThreadId()
                        : reg >= Step.Call.FREG_BASE
                            ? new PlanOp.Arg.F(reg - Step.Call.FREG_BASE)
                            : new PlanOp.Arg.X(reg));
      }
      if (sites && c.result < 0 && !(after && next)) {
        SiteCounter site = engine.siteFor(c.sink, d);
        if (site != null) {
          return new PlanOp.Site(c.sink, site);
        }
      }
      SiteSlot slot = sites ? engine.slotFor(c.sink, d, args) : null;
      if (slot != null) {
        return new PlanOp.Slot(c.sink, slot, args, c.args, c.result);
      }
      return new PlanOp.Call(
          c.sink,
          engine.sinkAt(c.sink),
          args,
          c.args,
          c.result,
          engine.sinkAt(c.sink).registersRead(d));
    }
  }
}
