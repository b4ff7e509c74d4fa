package org.dise.runtime.dise;

import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.isa.DecodedInsn;

/**
 * The runtime side of an engine generated for one production set (the compiler's {@code
 * EngineGenerator}): the HPS state, sinks and cost counters, and what generated code calls. The
 * generated subclass specialises matching (static folding at {@link #attach}, flag checks and
 * micro-ops as straight-line code) and replacement (one method per sequence, entries unrolled); it
 * must behave exactly as {@link DiseEngine}. See spec/engine.md.
 */
public abstract class SpecializedEngine extends EngineState {
  /** Per production: the T.INSN index of its sequence (-1 when none) and its length. */
  private final int[] originalIndex;

  private final int[] length;

  /** Set when the last sequence part left its sequence through a jump, or the guest exited. */
  protected boolean left;

  /**
   * The state for {@code set}.
   *
   * @throws IllegalArgumentException naming what does not fit the budget or is not implemented
   */
  protected SpecializedEngine(ProductionSet set) {
    super(set);
    int n = set.productions().size();
    this.originalIndex = new int[n];
    this.length = new int[n];
    for (int k = 0; k < n; k++) {
      int r = set.productions().get(k).replacement();
      originalIndex[k] = r < 0 ? -1 : set.replacements().get(r).originalIndex();
      length[k] = r < 0 ? 0 : set.replacements().get(r).body().size();
    }
  }

  /** What a tagged instruction keeps: truth tables and instantiated inserted instructions. */
  public static final class Match {
    /** Per production: bit v is its value for flag vector v; 0 when it cannot match. */
    public final long[] truth;

    /** Per production: per template entry, its inserted instructions (see expandTemplates). */
    public final DecodedInsn[][][] insns;

    Match(long[] truth, DecodedInsn[][][] insns) {
      this.truth = truth;
      this.insns = insns;
    }
  }

  /** The attachment for {@code d} given its productions' truth tables (null when all are 0). */
  protected final Match match(DecodedInsn d, long[] truth) {
    DecodedInsn[][][] insns = new DecodedInsn[truth.length][][];
    boolean any = false;
    for (int k = 0; k < truth.length; k++) {
      if (truth[k] != 0) {
        any = true;
        int r = set.productions().get(k).replacement();
        if (r >= 0) {
          insns[k] = InstantiationLogic.expandTemplates(set.replacements().get(r), d);
        }
      }
    }
    if (!any) {
      return null;
    }
    mask(d, truth);
    return new Match(truth, insns);
  }

  @Override
  public final long registersWritten(DecodedInsn d) {
    if (!(d.dise instanceof Match m)) {
      return -1L;
    }
    long w = 0;
    for (int k = 0; k < m.truth.length; k++) {
      if (m.truth[k] != 0) {
        w |= registersWritten(k, d);
      }
    }
    return w;
  }

  /** Pattern division: by zero gives 0, as in {@link PatternExpr}. */
  protected static long div(long a, long b) {
    return b == 0 ? 0 : a / b;
  }

  protected static long rem(long a, long b) {
    return b == 0 ? 0 : a % b;
  }

  /** The raw word of the matched instruction, as a {@code T.INSN} call argument. */
  protected static long raw(DecodedInsn d) {
    return d.raw & (d.size == 2 ? 0xffffL : 0xffffffffL);
  }

  /**
   * Template entries {@code [from, to)} of production {@code k}'s sequence; returns the
   * application's next pc ({@code next} unless T.INSN runs), or a jump's target.
   */
  protected abstract long part(
      int k, DecodedInsn[][] insns, DecodedInsn d, Cpu cpu, long next, int from, int to);

  /**
   * Several ACFs' sequences (productions {@code chosen[0..c)}): the parts before T.INSN in ACF
   * order, T.INSN once, then the parts after, exactly as {@link DiseEngine}.
   */
  protected final long merged(int c, int[] chosen, Match m, DecodedInsn d, Cpu cpu) {
    long next = d.npc;
    boolean original = false;
    for (int i = 0; i < c; i++) {
      int k = chosen[i];
      int o = originalIndex[k];
      original |= o >= 0;
      next = part(k, m.insns[k], d, cpu, next, 0, o < 0 ? length[k] : o);
      if (cpu.halted() || left) {
        return next;
      }
    }
    if (original) {
      next = cpu.executeOne(d);
      if (cpu.halted()) {
        return next;
      }
    }
    for (int i = 0; i < c; i++) {
      int k = chosen[i];
      int o = originalIndex[k];
      if (o >= 0) {
        next = part(k, m.insns[k], d, cpu, next, o + 1, length[k]);
        if (cpu.halted() || left) {
          return next;
        }
      }
    }
    return next;
  }
}
