package org.dise.runtime.format;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A flame graph (Brendan Gregg's): the stacks of a {@link StackProfile} merged into a tree whose
 * frames are as wide as their inclusive value, the root at the bottom. {@link #svg} draws it as a
 * static SVG with a tooltip per frame; the HTML view lays out the same tree in the browser.
 */
public final class FlameGraph {
  /** A frame of the merged tree: its inclusive value and its children, widest first. */
  public static final class Node {
    public final String name;
    public long value;
    public final Map<String, Node> children = new LinkedHashMap<>();

    Node(String name) {
      this.name = name;
    }

    /** The children, widest first (then by name, so the layout is stable). */
    public List<Node> sorted() {
      List<Node> l = new ArrayList<>(children.values());
      l.sort(
          (a, b) -> a.value != b.value ? Long.compare(b.value, a.value) : a.name.compareTo(b.name));
      return l;
    }
  }

  private FlameGraph() {}

  /** The merged tree of value {@code index}: a root named {@code all} over the stacks. */
  public static Node tree(StackProfile p, int index) {
    Node root = new Node("all");
    for (StackProfile.Sample s : p.samples()) {
      long v = s.values()[index];
      if (v <= 0) {
        continue;
      }
      root.value += v;
      Node n = root;
      for (StackProfile.Frame f : s.stack()) {
        n = n.children.computeIfAbsent(f.name(), Node::new);
        n.value += v;
      }
    }
    return root;
  }

  private static final int WIDTH = 1200;
  private static final int ROW = 17;
  private static final int PAD = 10;
  private static final double MIN_WIDTH = 0.5; // pixels: narrower frames are left out

  /** The flame graph of value {@code index} as a standalone SVG titled {@code title}. */
  public static String svg(StackProfile p, int index, String title) {
    Node root = tree(p, index);
    int depth = depth(root);
    int height = (depth + 1) * ROW + 3 * PAD + 20;
    StringBuilder sb = new StringBuilder();
    sb.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    sb.append(
        String.format(
            Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\""
                + " height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"monospace\" font-size=\"12\">%n",
            WIDTH,
            height,
            WIDTH,
            height));
    sb.append("<rect width=\"100%\" height=\"100%\" fill=\"#f8f8f8\"/>\n");
    String unit = p.types().get(index).type();
    sb.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%d\" y=\"%d\" font-size=\"15\">%s (%s," + " total %,d)</text>%n",
            PAD,
            PAD + 12,
            xml(title),
            xml(unit),
            root.value));
    if (root.value > 0) {
      double scale = (WIDTH - 2.0 * PAD) / root.value;
      frame(sb, root, PAD, height - PAD - ROW, scale, root.value, unit);
    }
    sb.append("</svg>\n");
    return sb.toString();
  }

  private static void frame(
      StringBuilder sb, Node n, double x, int y, double scale, long total, String unit) {
    double w = n.value * scale;
    if (w < MIN_WIDTH) {
      return;
    }
    sb.append(
        String.format(
            Locale.ROOT,
            "<g><title>%s: %,d %s (%.2f%%)</title>"
                + "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\" rx=\"2\"/>",
            xml(n.name),
            n.value,
            xml(unit),
            100.0 * n.value / total,
            x,
            y,
            w,
            ROW - 1,
            color(n.name)));
    int chars = (int) ((w - 6) / 7.2);
    if (chars >= 3) {
      String label = n.name.length() <= chars ? n.name : n.name.substring(0, chars - 2) + "..";
      sb.append(
          String.format(
              Locale.ROOT, "<text x=\"%.2f\" y=\"%d\">%s</text>", x + 3, y + ROW - 5, xml(label)));
    }
    sb.append("</g>\n");
    double cx = x;
    for (Node c : n.sorted()) {
      frame(sb, c, cx, y - ROW, scale, total, unit);
      cx += c.value * scale;
    }
  }

  private static int depth(Node n) {
    int d = 0;
    for (Node c : n.children.values()) {
      d = Math.max(d, depth(c));
    }
    return d + 1;
  }

  /** A warm colour from the name, so a function has the same colour everywhere. */
  static String color(String name) {
    int h = name.hashCode();
    int r = 205 + Math.floorMod(h, 50);
    int g = 80 + Math.floorMod(h >> 8, 120);
    int b = 40 + Math.floorMod(h >> 16, 40);
    return String.format("#%02x%02x%02x", r, g, b);
  }

  /** {@code s} escaped for XML and HTML text and attributes. */
  public static String xml(String s) {
    return s.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}
