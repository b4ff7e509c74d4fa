package org.dise.runtime.dise;

import java.util.ArrayList;
import java.util.List;
import org.dise.runtime.isa.DecodedInsn;

/**
 * The pattern table (first paper, Section 3.1): the productions in composition order. Matching is
 * split as the decode stage allows: {@link #match} folds the static part of every pattern for one
 * static instruction; the conditionals table decides the rest per dynamic instance.
 */
public record PatternTable(List<Production> productions) {
  public PatternTable {
    productions = List.copyOf(productions);
  }

  public Production get(int index) {
    return productions.get(index);
  }

  public int size() {
    return productions.size();
  }

  /** The productions {@code d} can match, or null when none ever can. */
  StaticMatch match(DecodedInsn d, ConditionalsTable ct, ReplacementTable rt) {
    List<Integer> hits = new ArrayList<>();
    List<Long> truth = new ArrayList<>();
    for (int i = 0; i < productions.size(); i++) {
      PatternExpr folded = PatternExpr.fold(productions.get(i).pattern(), d);
      long t =
          folded instanceof PatternExpr.Const c
              ? (c.value() != 0 ? -1L : 0L)
              : ct.truthTable(folded);
      if (t != 0) {
        hits.add(i);
        truth.add(t);
      }
    }
    if (hits.isEmpty()) {
      return null;
    }
    int n = hits.size();
    int[] prods = new int[n];
    long[] tt = new long[n];
    int[] acf = new int[n];
    Step[][] seqs = new Step[n][];
    int[] tag = new int[n];
    for (int k = 0; k < n; k++) {
      Production p = productions.get(hits.get(k));
      prods[k] = hits.get(k);
      tt[k] = truth.get(k);
      acf[k] = p.acf();
      seqs[k] = p.replacement() < 0 ? null : rt.instantiate(p.replacement(), d);
      tag[k] = p.tag();
    }
    return new StaticMatch(prods, tt, acf, seqs, tag);
  }
}
