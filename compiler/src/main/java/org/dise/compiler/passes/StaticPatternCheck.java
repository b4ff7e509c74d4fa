package org.dise.compiler.passes;

import java.util.List;
import org.dise.compiler.diag.Diagnostics;
import org.dise.compiler.sem.CheckedAcf;
import org.dise.compiler.sem.CheckedProduction;
import org.dise.compiler.sem.Pattern;

/**
 * Pass "static-patterns": a pattern sees only what is known when the instruction is decoded (its
 * static fields and the counter flags; Section 3.1: the PT compares instruction fields). Register
 * contents and dynamic fields exist only in executing replacement code.
 */
public final class StaticPatternCheck {
  public static final String NAME = "static-patterns";

  private StaticPatternCheck() {}

  public static void run(List<CheckedAcf> acfs, Diagnostics diags) {
    for (CheckedAcf acf : acfs) {
      for (CheckedProduction p : acf.productions()) {
        check(p.pattern(), diags);
      }
    }
  }

  private static void check(Pattern p, Diagnostics diags) {
    if (p instanceof Pattern.Dynamic d) {
      diags.error(
          d.span(),
          "a pattern cannot test " + d.what() + ": it exists only when the instruction executes",
          "patterns see static fields (T.OP, T.OPCLASS, T.PC, T.TARGET, T.RS1, T.RD, T.IMM, "
              + "...) and counter flags; read dynamic values in the replacement sequence");
    } else if (p instanceof Pattern.Unary u) {
      check(u.operand(), diags);
    } else if (p instanceof Pattern.Binary b) {
      check(b.left(), diags);
      check(b.right(), diags);
    }
  }
}
