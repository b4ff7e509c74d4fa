package org.dise.runtime.profiles.sink.rap;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.LongFunction;

/**
 * A RAP tree and its hot ranges written out: as JSON (the whole tree, the hot ranges with their
 * accuracy, and the memory figures of Fig. 7) and as readable indented text, in the spirit of the
 * paper's {@code rap_finalize} dump (Section 3.2).
 */
public final class RapReport {
  private final RapTree tree;
  private final List<HotRange> hot;

  /** Names an address (a function) or returns null; only for code ranges. */
  private final LongFunction<String> names;

  public RapReport(RapTree tree, List<HotRange> hot, LongFunction<String> names) {
    this.tree = tree;
    this.hot = List.copyOf(hot);
    this.names = names;
  }

  static String hex(long v) {
    return "0x" + Long.toHexString(v);
  }

  private double pct(long count) {
    return tree.events() == 0 ? 0 : 100.0 * count / tree.events();
  }

  /** Maximum and average percent error over the hot ranges with exact counts (Fig. 8). */
  public double[] errors() {
    double max = 0;
    double sum = 0;
    int n = 0;
    for (HotRange h : hot) {
      double e = h.percentError();
      if (!Double.isNaN(e)) {
        max = Math.max(max, e);
        sum += e;
        n++;
      }
    }
    return n == 0 ? new double[] {Double.NaN, Double.NaN} : new double[] {max, sum / n};
  }

  public String json() {
    RapConfig c = tree.config();
    StringBuilder sb = new StringBuilder();
    double[] err = errors();
    sb.append(
        String.format(
            Locale.ROOT,
            "{\"range_bits\": %d, \"branching\": %d, \"epsilon\": %s,"
                + " \"merge_ratio\": %s, \"first_merge\": %d, \"capacity\": %d, \"hot_threshold\": %s,%n",
            c.rangeBits(),
            c.branching(),
            num(c.epsilon()),
            num(c.mergeRatio()),
            c.firstMerge(),
            c.maxNodes(),
            num(c.hotFraction())));
    sb.append(
        String.format(
            Locale.ROOT,
            " \"events\": %d, \"height\": %d, \"nodes\": %d,"
                + " \"max_nodes\": %d, \"steady_max_nodes\": %d, \"average_nodes\": %s,"
                + " \"splits\": %d, \"refused_splits\": %d,"
                + " \"merge_batches\": %d, \"max_percent_error\": %s, \"average_percent_error\": %s,%n",
            tree.events(),
            tree.height(),
            tree.nodes(),
            tree.maxNodes(),
            tree.steadyMaxNodes(),
            num(tree.averageNodes()),
            tree.splits(),
            tree.refusedSplits(),
            tree.mergeBatches(),
            num(err[0]),
            num(err[1])));
    sb.append(" \"hot\": [");
    for (int i = 0; i < hot.size(); i++) {
      HotRange h = hot.get(i);
      sb.append(i == 0 ? "\n" : ",\n")
          .append(
              String.format(
                  Locale.ROOT,
                  "  {\"lo\": \"%s\", \"hi\": \"%s\", \"depth\": %d, \"parent\": %d, \"count\": %d,"
                      + " \"percent\": %s, \"inclusive\": %d, \"inclusive_percent\": %s, \"exact\": %d,"
                      + " \"percent_error\": %s%s}",
                  hex(h.lo()),
                  hex(h.hi()),
                  h.depth(),
                  h.parent(),
                  h.count(),
                  num(pct(h.count())),
                  h.inclusive(),
                  num(pct(h.inclusive())),
                  h.exact(),
                  num(h.percentError()),
                  label(h.lo(), h.hi()).isEmpty()
                      ? ""
                      : ", \"functions\": \""
                          + label(h.lo(), h.hi()).replace("\"", "\\\"")
                          + "\""));
    }
    sb.append(hot.isEmpty() ? "],\n" : "\n ],\n");
    sb.append(" \"tree\": ");
    node(tree.root(), sb);
    sb.append("}\n");
    return sb.toString();
  }

  private static void node(RapTree.Node n, StringBuilder sb) {
    sb.append("{\"lo\": \"")
        .append(hex(n.lo()))
        .append("\", \"hi\": \"")
        .append(hex(n.hi()))
        .append("\", \"count\": ")
        .append(n.count());
    if (!n.children().isEmpty()) {
      sb.append(", \"children\": [");
      boolean first = true;
      for (RapTree.Node c : n.children()) {
        sb.append(first ? "" : ", ");
        first = false;
        node(c, sb);
      }
      sb.append("]");
    }
    sb.append("}");
  }

  private static String num(double d) {
    return Double.isNaN(d) ? "null" : String.format(Locale.ROOT, "%.4f", d);
  }

  /** The functions at either end of a range, when names apply. */
  private String label(long lo, long hi) {
    if (names == null) {
      return "";
    }
    String a = names.apply(lo);
    String b = names.apply(hi);
    if (a == null && b == null) {
      return "";
    }
    a = a == null ? "?" : a;
    b = b == null ? "?" : b;
    return a.equals(b) ? a : a + " .. " + b;
  }

  /** The tree as indented lines; subtrees that never counted an event are left out. */
  public List<String> text() {
    List<String> out = new ArrayList<>();
    out.add(
        String.format(
            Locale.ROOT,
            "RAP tree: %d events, %d nodes (max %d, average %.1f),"
                + " epsilon %s, b %d, R %d bits; * = hot (>= %.1f%%)",
            tree.events(),
            tree.nodes(),
            tree.maxNodes(),
            tree.averageNodes(),
            num(tree.config().epsilon()),
            tree.config().branching(),
            tree.config().rangeBits(),
            100 * tree.config().hotFraction()));
    text(tree.root(), 0, out);
    return out;
  }

  private void text(RapTree.Node n, int depth, List<String> out) {
    long sub = n.subtreeCount();
    if (sub == 0) {
      return;
    }
    boolean isHot = hot.stream().anyMatch(h -> h.lo() == n.lo() && h.hi() == n.hi());
    String l = label(n.lo(), n.hi());
    out.add(
        String.format(
            Locale.ROOT,
            "%s%s[%s, %s] %d (%.2f%%), subtree %d (%.2f%%)%s",
            "  ".repeat(depth),
            isHot ? "* " : "",
            hex(n.lo()),
            hex(n.hi()),
            n.count(),
            pct(n.count()),
            sub,
            pct(sub),
            l.isEmpty() ? "" : "  " + l));
    for (RapTree.Node c : n.children()) {
      text(c, depth + 1, out);
    }
  }
}
