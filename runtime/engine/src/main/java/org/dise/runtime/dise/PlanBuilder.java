package org.dise.runtime.dise;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dise.runtime.cpu.plan.Plan;
import org.dise.runtime.cpu.plan.PlanOp;
import org.dise.runtime.cpu.plan.SiteCounter;
import org.dise.runtime.isa.DecodedInsn;

/**
 * A tagged instruction's behaviour under {@link DiseEngine} as a {@link Plan} for the emulator to
 * run inline ({@link DiseEngine#plan(DecodedInsn)}): per group of flag vectors that share one
 * {@link DiseEngine.Chosen}, its counter micro-ops, the replacement's count, and the chosen
 * sequences merged as the engine merges them (the parts before {@code T.INSN} in ACF order, {@code
 * T.INSN} once, the parts after), each call with its argument sources, a per-site counter where the
 * sink offers one. The accounts are the engine's, so that a run keeps the same costs whichever way
 * it goes (spec/emulator.md, "Plans").
 */
final class PlanBuilder {
  private PlanBuilder() {}

  /** At most this many distinct groups per instruction become a plan; more call the engine. */
  static final int MAX_GROUPS = 4;

  /** The flag vectors (one bit each) under which {@code chosen} applies. */
  private record Group(long vectors, DiseEngine.Chosen chosen) {}

  /**
   * The plan of {@code d} under {@code engine}, or null when a plan cannot say what the engine
   * does: a production tags it, a sequence has no {@code T.INSN} or more than one, an inserted
   * branch leaves its part, or the groups are more than {@link #MAX_GROUPS}.
   */
  static Plan build(DiseEngine engine, DecodedInsn d, StaticMatch m) {
    if (m.tags) {
      return null;
    }
    List<Group> groups = groups(engine, d, m);
    if (groups == null) {
      return null;
    }
    List<Plan.Case> cases = new ArrayList<>();
    for (Group g : groups) {
      List<PlanOp> ops = new ArrayList<>();
      for (MicroOp op : g.chosen.ops) {
        ops.add(count(engine.hps(), op));
      }
      Step[][] seqs = g.chosen.sequences;
      if (seqs.length > 0) {
        ops.add(new PlanOp.Replaced());
      }
      for (Step[] s : seqs) {
        int o = original(s);
        if (o < 0 || !part(engine, d, s, 0, o, false, ops)) {
          return null;
        }
      }
      ops.add(new PlanOp.Original());
      for (Step[] s : seqs) {
        if (!part(engine, d, s, original(s) + 1, s.length, true, ops)) {
          return null;
        }
      }
      cases.add(new Plan.Case(g.vectors, ops));
    }
    return new Plan(engine, cases);
  }

  /**
   * The chosen micro-ops and sequences of {@code d} with an effect, grouped by the flag vectors
   * that share them, or null when they are more than {@link #MAX_GROUPS}.
   */
  private static List<Group> groups(DiseEngine engine, DecodedInsn d, StaticMatch m) {
    Map<List<Object>, long[]> byChoice = new LinkedHashMap<>();
    Map<List<Object>, DiseEngine.Chosen> chosen = new LinkedHashMap<>();
    for (int v = 0; v < 64; v++) {
      if ((d.diseMask >>> v & 1) == 0) {
        continue;
      }
      DiseEngine.Chosen p = engine.chosen(m, v);
      if (p.ops.length == 0 && p.sequences.length == 0) {
        continue; // nothing matches with an effect: the instruction runs alone
      }
      // Sequences are the StaticMatch's own arrays: equal choices hold the same ones.
      List<Object> key = List.of(Arrays.asList(p.ops), Arrays.asList((Object[]) p.sequences));
      byChoice.computeIfAbsent(key, k -> new long[1])[0] |= 1L << v;
      chosen.putIfAbsent(key, p);
    }
    if (byChoice.size() > MAX_GROUPS) {
      return null;
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

  /** The index of T.INSN in {@code s}, or -1 when it has none or more than one. */
  private static int original(Step[] s) {
    int o = -1;
    for (int i = 0; i < s.length; i++) {
      if (s[i] instanceof Step.Original) {
        if (o >= 0) {
          return -1;
        }
        o = i;
      }
    }
    return o;
  }

  /**
   * Appends steps {@code [from, to)} of {@code s} to {@code ops}, a branch's target moved to its
   * index there (step {@code to}, the part's end, to the op after the part); false when a branch
   * leaves the part.
   */
  private static boolean part(
      DiseEngine engine,
      DecodedInsn d,
      Step[] s,
      int from,
      int to,
      boolean after,
      List<PlanOp> ops) {
    int base = ops.size() - from;
    for (int i = from; i < to; i++) {
      if (s[i] instanceof Step.Exec e) {
        if (e.target >= 0 && (e.target < from || e.target > to)) {
          return false;
        }
        ops.add(new PlanOp.Insert(e.insn, e.target < 0 ? -1 : base + e.target));
      } else if (s[i] instanceof Step.Call c) {
        ops.add(call(engine, d, c, after));
      }
    }
    return true;
  }

  /**
   * A call of the sequence: a per-site counter when the sink offers one for {@code d} and the call
   * needs nothing a counter cannot give (a result, or {@code T.NEXT_PC} after {@code T.INSN}, which
   * may be a transfer's target), else the sink's record with its argument sources.
   */
  private static PlanOp call(DiseEngine engine, DecodedInsn d, Step.Call c, boolean after) {
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
    if (c.result < 0 && !(after && next)) {
      SiteCounter site = engine.siteFor(c.sink, d);
      if (site != null) {
        engine.siteCallEmitted();
        return new PlanOp.Site(c.sink, site);
      }
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
