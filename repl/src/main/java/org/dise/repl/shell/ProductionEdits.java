package org.dise.repl.shell;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.dise.compiler.ast.AcfFile;
import org.dise.compiler.ast.Item;
import org.dise.compiler.ast.Name;
import org.dise.compiler.diag.Diagnostics;
import org.dise.compiler.diag.SourceFile;
import org.dise.compiler.diag.Span;
import org.dise.compiler.parse.AcfParsing;
import org.dise.repl.common.ItemName;

/**
 * Edits of the session's ACF text by item: which top-level items a text has (by label or declared
 * name), cutting one out so that a retyped label replaces it, and the item-level difference between
 * two production sets' texts for {@code :diff}.
 */
final class ProductionEdits {
  private ProductionEdits() {}

  /** A top-level item of a text: its key (what names it), its text and where it is. */
  record Entry(String key, String label, String text, int start, int end) {}

  /** The named top-level items of a text, in order; empty if it does not parse. */
  static List<Entry> entries(String text) {
    Optional<AcfFile> ast = AcfParsing.parse(new SourceFile("<edit>", text), new Diagnostics());
    List<Entry> out = new ArrayList<>();
    if (ast.isEmpty()) {
      return out;
    }
    Map<String, Integer> uses = new java.util.HashMap<>();
    for (Item item : ast.get().items()) {
      String key = key(item);
      if (item instanceof Item.Use) {
        // Uses have no name: the n-th use of a block is the same item in two texts.
        key = key + "#" + uses.merge(key, 1, Integer::sum);
      }
      if (key != null) {
        Span s = item.span();
        int[] cut = lines(text, s.start(), s.end());
        out.add(
            new Entry(
                key, label(item), text.substring(s.start(), s.end()).strip(), cut[0], cut[1]));
      }
    }
    return out;
  }

  /** What names an item: its label or declared name; imports and uses by their target. */
  static String key(Item item) {
    Name n = name(item);
    if (n != null) {
      return n.key();
    }
    if (item instanceof Item.Import i) {
      return "import " + i.target().key();
    }
    if (item instanceof Item.Use u) {
      return "use " + u.target().key();
    }
    return null;
  }

  private static String label(Item item) {
    Name n = name(item);
    return n != null
        ? n.text()
        : item instanceof Item.Import i
            ? "import " + i.target().text()
            : item instanceof Item.Use u ? "use " + u.target().text() : "";
  }

  /** The name the item declares, or null (an import or use declares none). */
  private static Name name(Item item) {
    return ItemName.of(item).filter(ItemName::declares).map(k -> k.nameOf(item)).orElse(null);
  }

  /** Widens [start, end) to whole lines when nothing else shares them (comments after it do). */
  private static int[] lines(String text, int start, int end) {
    int s = start;
    while (s > 0 && (text.charAt(s - 1) == ' ' || text.charAt(s - 1) == '\t')) {
      s--;
    }
    if (s > 0 && text.charAt(s - 1) != '\n') {
      s = start;
    }
    int e = end;
    while (e < text.length() && text.charAt(e) != '\n') {
      e++;
    }
    String rest = text.substring(end, e).strip();
    if (!rest.isEmpty() && !rest.startsWith("//")) {
      e = end;
    } else if (e < text.length()) {
      e++;
    }
    return new int[] {s, e};
  }

  /** The text without the items named by {@code keys}, and the labels that were removed. */
  record Cut(String text, List<String> removed) {}

  static Cut without(String text, List<String> keys) {
    List<Entry> old = entries(text);
    StringBuilder sb = new StringBuilder(text);
    List<String> removed = new ArrayList<>();
    for (int i = old.size() - 1; i >= 0; i--) {
      Entry e = old.get(i);
      if (keys.contains(e.key())) {
        sb.delete(e.start(), e.end());
        removed.add(0, e.label());
      }
    }
    return new Cut(sb.toString(), removed);
  }

  /**
   * The difference between two texts by item: {@code - } lines for items gone or changed (their old
   * text), {@code + } lines for items new or changed; empty when they say the same.
   */
  static List<String> diff(String before, String after) {
    Map<String, Entry> a = index(entries(before));
    Map<String, Entry> b = index(entries(after));
    List<String> out = new ArrayList<>();
    for (Entry e : a.values()) {
      Entry now = b.get(e.key());
      if (now == null) {
        prefixed(out, "- ", e.text());
      } else if (!squeeze(now.text()).equals(squeeze(e.text()))) {
        prefixed(out, "- ", e.text());
        prefixed(out, "+ ", now.text());
      }
    }
    for (Entry e : b.values()) {
      if (!a.containsKey(e.key())) {
        prefixed(out, "+ ", e.text());
      }
    }
    return out;
  }

  private static Map<String, Entry> index(List<Entry> entries) {
    Map<String, Entry> m = new LinkedHashMap<>();
    for (Entry e : entries) {
      m.putIfAbsent(e.key(), e);
    }
    return m;
  }

  private static String squeeze(String s) {
    return s.replaceAll("\\s+", " ");
  }

  private static void prefixed(List<String> out, String prefix, String text) {
    for (String line : text.split("\n")) {
      out.add(prefix + line);
    }
  }
}
