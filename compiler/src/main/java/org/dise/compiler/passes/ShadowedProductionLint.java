package org.dise.compiler.passes;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.dise.compiler.ast.Expr;
import org.dise.compiler.diag.Diagnostics;
import org.dise.compiler.diag.SourceFile;
import org.dise.compiler.sem.CheckedAcf;
import org.dise.compiler.sem.CheckedProduction;
import org.dise.compiler.sem.Pattern;

/**
 * Pass "shadowed-productions": within one ACF, the first matching production with a replacement
 * supplies it (Section 3.3), so a later production whose pattern implies an earlier one's, when
 * the earlier has a replacement, never gets its replacement used. Implication is decided
 * syntactically: every conjunct of the earlier pattern is a conjunct of the later one.
 */
public final class ShadowedProductionLint {
  public static final String NAME = "shadowed-productions";

  private ShadowedProductionLint() {}

  public static void run(List<CheckedAcf> acfs, SourceFile main, Diagnostics diags) {
    for (CheckedAcf acf : acfs) {
      List<CheckedProduction> ps = acf.productions();
      for (int j = 0; j < ps.size(); j++) {
        CheckedProduction later = ps.get(j);
        if (later.replacement().isEmpty() || later.span().file() != main) {
          continue;
        }
        Set<Pattern> laterConj = new HashSet<>(conjuncts(later.pattern()));
        for (int i = 0; i < j; i++) {
          CheckedProduction earlier = ps.get(i);
          if (earlier.replacement().isPresent()
              && laterConj.containsAll(conjuncts(earlier.pattern()))) {
            diags.warning(later.span(), "the replacement of production `" + later.name()
                + "` is never used: production `" + earlier.name() + "` (line "
                + earlier.span().line() + ") matches whatever it matches and comes first",
                "the first matching production with a replacement supplies it; reorder them "
                    + "or make the patterns disjoint");
            break;
          }
        }
      }
    }
  }

  private static List<Pattern> conjuncts(Pattern p) {
    List<Pattern> out = new ArrayList<>();
    if (p instanceof Pattern.Binary b && b.op() == Expr.BinaryOp.AND) {
      out.addAll(conjuncts(b.left()));
      out.addAll(conjuncts(b.right()));
    } else {
      out.add(p);
    }
    return out;
  }
}
