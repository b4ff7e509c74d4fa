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
import org.dise.compiler.sem.ProgramPrinter;

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
      // Conjuncts as printed text: cheap to hash and compare, computed once per production.
      List<Set<String>> conj = new ArrayList<>();
      for (CheckedProduction p : ps) {
        Set<String> set = new HashSet<>();
        for (Pattern c : conjuncts(p.pattern())) {
          set.add(ProgramPrinter.pattern(c));
        }
        conj.add(set);
      }
      for (int j = 0; j < ps.size(); j++) {
        CheckedProduction later = ps.get(j);
        if (later.replacement().isEmpty() || later.span().file() != main) {
          continue;
        }
        Set<String> laterConj = conj.get(j);
        for (int i = 0; i < j; i++) {
          CheckedProduction earlier = ps.get(i);
          if (earlier.replacement().isPresent() && laterConj.containsAll(conj.get(i))) {
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
