package org.dise.runtime.dise;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Whether a production set can ever do anything to a run, decided from the set alone: a production
 * acts only when its pattern matches and it has an effect (micro-ops, a replacement or a tag), and
 * a pattern whose flags no production that can act ever changes reads them at their initial values
 * for the whole run. When every production is guarded false that way (an ACF whose flag stays off),
 * the set is dormant: installing it would only cost the run its decode-stage tests, so a session
 * leaves the decode stage alone and the run is a plain one whose reports say zero (spec/engine.md,
 * "Dormant production sets").
 *
 * <p>Sound by construction: the static part of a pattern (fields, classes, opcodes, symbols) counts
 * as possibly true, and a counter that any production which can act might change counts as having
 * any value; the least fixed point of "can act" is taken over that. Counters change only through
 * micro-ops (a trigger's codewords act through productions too), except through a debugger's {@code
 * :set} and a hot reload, which install engines their own way.
 */
public final class Dormancy {
  private Dormancy() {}

  /**
   * Why nothing in {@code set} can ever act (one line naming the flags that stay off), or empty
   * when some production may.
   */
  public static Optional<String> of(ProductionSet set) {
    TreeSet<Integer> changed = new TreeSet<>();
    boolean grew = true;
    while (grew) {
      grew = false;
      for (Production p : set.productions()) {
        if (mayMatch(set, p, changed)) {
          for (MicroOp op : p.control()) {
            grew |= changed.add(op.counter());
          }
        }
      }
    }
    List<String> guards = new ArrayList<>();
    for (Production p : set.productions()) {
      boolean acts = !p.control().isEmpty() || p.replacement() >= 0 || p.tag() >= 0;
      if (acts && mayMatch(set, p, changed)) {
        return Optional.empty();
      }
      List<PatternExpr.Flag> flags = new ArrayList<>();
      PatternExpr.flagsOf(p.pattern(), flags);
      for (PatternExpr.Flag f : flags) {
        if (!guards.contains(f.toString())) {
          guards.add(f.toString());
        }
      }
    }
    return Optional.of(
        set.productions().size()
            + " production(s), none of which can ever act"
            + (guards.isEmpty()
                ? ""
                : ": no production that can act changes " + String.join(", ", guards)));
  }

  /** Whether {@code p}'s pattern can be true while only the counters {@code changed} change. */
  private static boolean mayMatch(ProductionSet set, Production p, TreeSet<Integer> changed) {
    Long v =
        PatternExpr.constant(
            p.pattern(), f -> changed.contains(f.counter()) ? null : initial(set, f));
    return v == null || v != 0;
  }

  /** A flag's value before any micro-op ran: overflow is clear, zero is the initial value's. */
  private static long initial(ProductionSet set, PatternExpr.Flag f) {
    if (f.overflow()) {
      return 0;
    }
    for (CounterSpec c : set.counters()) {
      if (c.index() == f.counter()) {
        long max = c.width() >= 64 ? -1L : (1L << c.width()) - 1;
        return (c.init() & max) == 0 ? 1 : 0;
      }
    }
    return 1; // an undeclared counter starts at 0, as HpsCounters has it
  }
}
