package org.dise.runtime.profiles.sink.rap;

import java.util.ArrayList;
import java.util.List;

/** Finds the hot ranges of a RAP tree (Mysore et al., Section 4.1), outermost first. */
public final class HotRanges {
  private HotRanges() {}

  /**
   * The hot ranges of {@code tree} at its configured hot threshold, sorted by start and then width
   * (widest first), so an enclosing range precedes the ranges nested in it; {@code exact} (may be
   * null) supplies each range's true count.
   */
  public static List<HotRange> find(RapTree tree, ExactCounter exact) {
    double cut = tree.config().hotFraction() * tree.events();
    List<RapTree.Node> hot = new ArrayList<>();
    List<long[]> figures = new ArrayList<>(); // {exclusive, inclusive, depth}
    walk(tree.root(), 0, cut, hot, figures);
    Integer[] order = new Integer[hot.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    java.util.Arrays.sort(
        order,
        (a, b) -> {
          int c = Long.compareUnsigned(hot.get(a).lo(), hot.get(b).lo());
          return c != 0 ? c : Integer.compare(hot.get(b).shift(), hot.get(a).shift());
        });
    List<HotRange> out = new ArrayList<>();
    for (int i : order) {
      RapTree.Node n = hot.get(i);
      int parent = -1;
      for (int j = out.size() - 1; j >= 0; j--) {
        HotRange p = out.get(j);
        if (Long.compareUnsigned(p.lo(), n.lo()) <= 0
            && Long.compareUnsigned(n.hi(), p.hi()) <= 0) {
          parent = j;
          break;
        }
      }
      long[] f = figures.get(i);
      out.add(
          new HotRange(
              n.lo(),
              n.hi(),
              (int) f[2],
              f[0],
              f[1],
              parent,
              exact == null ? -1 : exact.countIn(n.lo(), n.hi())));
    }
    return out;
  }

  /** Returns the node's count plus its non-hot descendants' (0 when the node itself is hot). */
  private static long walk(
      RapTree.Node n, int depth, double cut, List<RapTree.Node> hot, List<long[]> figures) {
    long own = n.count();
    for (RapTree.Node c : n.children()) {
      own += walk(c, depth + 1, cut, hot, figures);
    }
    if (own > 0 && own >= cut) {
      hot.add(n);
      figures.add(new long[] {own, n.subtreeCount(), depth});
      return 0;
    }
    return own;
  }
}
