package org.dise.repl;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.dise.runtime.sink.ProfileTable;

/**
 * Per-entry differences between two runs of one profile: every entry of either side with its weight
 * in A and in B, so that {@code acf compare} can show the entries that moved most, by absolute and
 * by relative change, and the entries only one side has.
 */
final class ProfileDiff {
  /** One entry: its key, what identifies it to a reader, and its weight on each side. */
  record Entry(String key, String label, long a, long b) {
    long change() {
      return b - a;
    }

    /** (B - A) / A; only meaningful when A has the entry. */
    double relative() {
      return (double) (b - a) / a;
    }
  }

  private final List<Entry> entries;

  private ProfileDiff(List<Entry> entries) {
    this.entries = entries;
  }

  /** The union of both tables' entries, in A's order then B's new ones. */
  static ProfileDiff of(ProfileTable a, ProfileTable b) {
    Map<String, Long> wa = a.weights();
    Map<String, Long> wb = b.weights();
    Map<String, String> labels = labels(b);
    labels.putAll(labels(a));
    Set<String> keys = new LinkedHashSet<>(wa.keySet());
    keys.addAll(wb.keySet());
    List<Entry> out = new ArrayList<>();
    for (String k : keys) {
      out.add(
          new Entry(k, labels.getOrDefault(k, k), wa.getOrDefault(k, 0L), wb.getOrDefault(k, 0L)));
    }
    return new ProfileDiff(out);
  }

  /**
   * The key cells, with the entry's function name when the table has one outside its key (a pc
   * reads better as {@code 0x10658 sum_hot}).
   */
  private static Map<String, String> labels(ProfileTable t) {
    int[] k = t.key().stream().mapToInt(t.header()::indexOf).toArray();
    int fn = t.key().contains("function") ? -1 : t.header().indexOf("function");
    Map<String, String> out = new LinkedHashMap<>();
    for (List<String> r : t.rows()) {
      StringBuilder key = new StringBuilder();
      for (int i = 0; i < k.length; i++) {
        key.append(i == 0 ? "" : "|").append(r.get(k[i]));
      }
      String label = key.toString().replace('|', ' ');
      out.putIfAbsent(key.toString(), fn < 0 ? label : label + " " + r.get(fn));
    }
    return out;
  }

  List<Entry> entries() {
    return entries;
  }

  /** Entries whose weight changed, largest |B - A| first (ties: key order of A, then B). */
  List<Entry> byAbsoluteChange(int n) {
    return entries.stream()
        .filter(e -> e.change() != 0)
        .sorted(Comparator.comparingLong((Entry e) -> -Math.abs(e.change())))
        .limit(n)
        .toList();
  }

  /**
   * Entries both sides have whose weight changed, largest |B - A| / A first (ties: the larger
   * absolute change); entries only one side has are counted apart ({@link #onlyIn}).
   */
  List<Entry> byRelativeChange(int n) {
    return entries.stream()
        .filter(e -> e.a() > 0 && e.b() > 0 && e.change() != 0)
        .sorted(
            Comparator.comparingDouble((Entry e) -> -Math.abs(e.relative()))
                .thenComparingLong(e -> -Math.abs(e.change())))
        .limit(n)
        .toList();
  }

  /** Entries with weight on side A only ({@code a}) or on side B only. */
  List<Entry> onlyIn(boolean a) {
    return entries.stream()
        .filter(e -> a ? e.a() != 0 && e.b() == 0 : e.a() == 0 && e.b() != 0)
        .toList();
  }

  /** Aligned lines: header, then one line per entry. */
  static List<String> table(List<Entry> rows) {
    List<List<String>> cells = new ArrayList<>();
    cells.add(List.of("entry", "A", "B", "change", "relative"));
    for (Entry e : rows) {
      cells.add(
          List.of(
              e.label(),
              String.format("%,d", e.a()),
              String.format("%,d", e.b()),
              String.format("%+,d", e.change()),
              e.a() == 0 ? "new" : String.format(Locale.ROOT, "%+.2f%%", 100 * e.relative())));
    }
    int[] width = new int[5];
    for (List<String> r : cells) {
      for (int i = 0; i < 5; i++) {
        width[i] = Math.max(width[i], r.get(i).length());
      }
    }
    List<String> lines = new ArrayList<>();
    for (List<String> r : cells) {
      StringBuilder sb = new StringBuilder(String.format("%-" + width[0] + "s", r.get(0)));
      for (int i = 1; i < 5; i++) {
        sb.append("  ").append(String.format("%" + width[i] + "s", r.get(i)));
      }
      lines.add(sb.toString());
    }
    return lines;
  }
}
