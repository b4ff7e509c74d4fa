package org.dise.compiler.passes;

import java.util.LinkedHashSet;
import java.util.Set;
import org.dise.compiler.diag.Diagnostics;
import org.dise.compiler.diag.Span;
import org.dise.compiler.sem.CheckedMicroOp;
import org.dise.compiler.sem.CheckedProduction;
import org.dise.compiler.sem.CheckedProgram;
import org.dise.compiler.sem.CheckedReplacement;
import org.dise.compiler.sem.Counter;
import org.dise.compiler.sem.HpsRegister;
import org.dise.compiler.sem.Pattern;
import org.dise.runtime.dise.HardwareBudget;

/**
 * Pass "budget": the production set must fit the hardware ({@link HardwareBudget}): counter, HPS
 * register and DISE register indices, pattern table entries (one per production), replacement table
 * entries (one per replacement instruction; a call counts one per argument plus one), and the
 * conditionals table's inputs (distinct counter flags tested by patterns).
 */
public final class BudgetCheck {
  public static final String NAME = "budget";

  private BudgetCheck() {}

  /**
   * An error at {@code span} when {@code what} {@code index} is past the hardware's {@code limit}
   * of them (named {@code prefix}0 and up).
   */
  private static void within(
      Diagnostics diags, Span span, String what, long index, int limit, String prefix) {
    if (index >= limit) {
      diags.error(
          span,
          what
              + " "
              + index
              + " is beyond the hardware's "
              + limit
              + " "
              + what
              + "s ("
              + prefix
              + "0.."
              + prefix
              + (limit - 1)
              + ")");
    }
  }

  public static void run(CheckedProgram program, Diagnostics diags) {
    HardwareBudget b = program.budget();
    for (Counter c : program.counters()) {
      within(diags, c.span(), "counter", c.index(), b.counters(), "");
    }
    for (HpsRegister r : program.registers()) {
      within(diags, r.span(), "HPS register", r.index(), b.hpsRegisters(), "HPS_R");
    }
    Set<String> flags = new LinkedHashSet<>();
    Span firstOver = null;
    int rtEntries = 0;
    Set<CheckedReplacement> counted =
        java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    for (CheckedProduction p : program.productions()) {
      for (CheckedMicroOp m : p.control()) {
        within(diags, m.span(), "counter", m.counter(), b.counters(), "");
      }
      Span over = flags(p.pattern(), flags, b.conditionalInputs());
      if (over != null && firstOver == null) {
        firstOver = over;
      }
      if (p.replacement().isPresent() && counted.add(p.replacement().get())) {
        for (CheckedReplacement.Stmt s : p.replacement().get().body()) {
          rtEntries += entries(s);
          diseRegisters(s, b, diags);
        }
      }
    }
    if (firstOver != null) {
      diags.error(
          firstOver,
          "patterns test "
              + flags.size()
              + " distinct counter flags, but the "
              + b.conditionalEntries()
              + "-entry conditionals table takes at most "
              + b.conditionalInputs(),
          "the CT is a truth table over the flags it reads (Section 3.3)");
    }
    int productions = program.productions().size();
    if (productions > b.patternEntries()) {
      CheckedProduction p = program.productions().get(b.patternEntries());
      diags.error(
          p.span(),
          "the program has "
              + productions
              + " productions, but the pattern "
              + "table has "
              + b.patternEntries()
              + " entries");
    }
    if (rtEntries > b.replacementEntries()) {
      diags.error(
          program.productions().get(0).span(),
          "replacement sequences need "
              + rtEntries
              + " replacement-table entries, but the table has "
              + b.replacementEntries());
    }
  }

  private static int entries(CheckedReplacement.Stmt s) {
    if (s instanceof CheckedReplacement.Stmt.Label) {
      return 0;
    }
    if (s instanceof CheckedReplacement.Stmt.Call c) {
      return 1 + c.args().size() + (c.result().isPresent() ? 1 : 0);
    }
    return 1;
  }

  private static void diseRegisters(
      CheckedReplacement.Stmt s, HardwareBudget b, Diagnostics diags) {
    java.util.List<CheckedReplacement.Arg> args = new java.util.ArrayList<>();
    if (s instanceof CheckedReplacement.Stmt.Call c) {
      args.addAll(c.args());
      c.result().ifPresent(args::add); // the register a map's result is written to
    } else if (s instanceof CheckedReplacement.Stmt.Instruction i) {
      args.addAll(i.operands());
    }
    for (CheckedReplacement.Arg a : args) {
      CheckedReplacement.Arg base = a instanceof CheckedReplacement.Arg.Mem m ? m.base() : a;
      if (base instanceof CheckedReplacement.Arg.DiseReg d && d.number() >= b.diseRegisters()) {
        diags.error(
            d.span(),
            "DISE register `$dr"
                + d.number()
                + "` is beyond the hardware's "
                + b.diseRegisters()
                + " DISE registers ($dr0..$dr"
                + (b.diseRegisters() - 1)
                + ")");
      }
    }
  }

  /** Adds the pattern's flags; returns the span of the first flag past the CT's inputs. */
  private static Span flags(Pattern p, Set<String> flags, int limit) {
    if (p instanceof Pattern.Flag f) {
      flags.add(f.flag() + "_" + f.counter());
      return flags.size() > limit ? f.span() : null;
    } else if (p instanceof Pattern.Unary u) {
      return flags(u.operand(), flags, limit);
    } else if (p instanceof Pattern.Binary bin) {
      Span l = flags(bin.left(), flags, limit);
      Span r = flags(bin.right(), flags, limit);
      return l != null ? l : r;
    }
    return null;
  }
}
