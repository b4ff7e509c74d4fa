package org.dise.compiler.passes;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
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
 * supplies it (Section 3.3), so a later production whose pattern implies an earlier one's, when the
 * earlier has a replacement, never gets its replacement used. Implication is decided syntactically:
 * every conjunct of the earlier pattern is a conjunct of the later one.
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
      // How many productions with a replacement have each conjunct. An earlier production can
      // be implied by a later one only if the later has all its conjuncts, so it is indexed
      // under its rarest conjunct alone: a conjunct every production shares (`T.OPCLASS ==
      // load` in each of 10,000) would otherwise make every later production look at every
      // earlier one.
      Map<String, Integer> count = new HashMap<>();
      for (int j = 0; j < ps.size(); j++) {
        if (ps.get(j).replacement().isPresent()) {
          for (String c : conj.get(j)) {
            count.merge(c, 1, Integer::sum);
          }
        }
      }
      Map<String, List<Integer>> byRarest = new HashMap<>();
      for (int j = 0; j < ps.size(); j++) {
        CheckedProduction later = ps.get(j);
        Set<String> laterConj = conj.get(j);
        if (!later.replacement().isEmpty() && later.span().file() == main) {
          int first = Integer.MAX_VALUE;
          for (String c : laterConj) {
            // Each list is in source order: its first implied production is its earliest.
            for (int i : byRarest.getOrDefault(c, List.of())) {
              if (i >= first) {
                break;
              }
              if (laterConj.containsAll(conj.get(i))) {
                first = i;
                break;
              }
            }
          }
          if (first != Integer.MAX_VALUE) {
            CheckedProduction earlier = ps.get(first);
            diags.warning(
                later.span(),
                "the replacement of production `"
                    + later.name()
                    + "` is never used: production `"
                    + earlier.name()
                    + "` (line "
                    + earlier.span().line()
                    + ") matches whatever it matches and comes first",
                "the first matching production with a replacement supplies it; reorder them "
                    + "or make the patterns disjoint");
          }
        }
        if (later.replacement().isPresent() && !laterConj.isEmpty()) {
          String rarest = null;
          for (String c : laterConj) {
            if (rarest == null
                || count.get(c) < count.get(rarest)
                || count.get(c).equals(count.get(rarest)) && c.compareTo(rarest) < 0) {
              rarest = c;
            }
          }
          byRarest.computeIfAbsent(rarest, k -> new ArrayList<>()).add(j);
        }
      }
    }
  }

  private static List<Pattern> conjuncts(Pattern p) {
    List<Pattern> out = new ArrayList<>();
    conjuncts(p, out);
    return out;
  }

  /** Into one list: a list per level copied a chain of n conjuncts n times over. */
  private static void conjuncts(Pattern p, List<Pattern> out) {
    if (p instanceof Pattern.Binary b && b.op() == Expr.BinaryOp.AND) {
      conjuncts(b.left(), out);
      conjuncts(b.right(), out);
    } else {
      out.add(p);
    }
  }
}
