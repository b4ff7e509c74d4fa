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
    return of(a, b, List.of());
  }

  /**
   * As {@link #of(ProfileTable, ProfileTable)}; {@code named} are further tables of the same
   * profile whose rows name entries (a sampled run's own table when B is its estimate).
   */
  static ProfileDiff of(ProfileTable a, ProfileTable b, List<ProfileTable> named) {
    Map<String, Long> wa = a.weights();
    Map<String, Long> wb = b.weights();
    Map<String, String> labels = new LinkedHashMap<>();
    for (ProfileTable t : named) {
      labels.putAll(labels(t));
    }
    labels.putAll(labels(b));
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
   * The key cells, each with the name the table gives it outside its key, as {@code acf report}
   * shows them: a pc with its function ({@code 0x10658 sum_hot}), a call pair's {@code
   * caller_address} and {@code callee_address} with {@code caller} and {@code callee} ({@code
   * 0x1101e tree_churn, 0x10af4 tree_insert}).
   */
  static Map<String, String> labels(ProfileTable t) {
    int[] k = t.key().stream().mapToInt(t.header()::indexOf).toArray();
    int[] names = new int[k.length];
    boolean any = false;
    for (int i = 0; i < k.length; i++) {
      names[i] = nameColumn(t, t.key().get(i));
      any |= names[i] >= 0;
    }
    // No key column has a name of its own: the entry's function, when the table has one.
    int fn = any || t.key().contains("function") ? -1 : t.header().indexOf("function");
    Map<String, String> out = new LinkedHashMap<>();
    for (List<String> r : t.rows()) {
      StringBuilder key = new StringBuilder();
      StringBuilder label = new StringBuilder();
      for (int i = 0; i < k.length; i++) {
        key.append(i == 0 ? "" : "|").append(r.get(k[i]));
        String name = names[i] < 0 ? "" : r.get(names[i]);
        boolean named = !name.isEmpty() && !name.equals(r.get(k[i]));
        label
            .append(i == 0 ? "" : any ? ", " : " ")
            .append(r.get(k[i]))
            .append(named ? " " + name : "");
      }
      out.putIfAbsent(key.toString(), fn < 0 ? label.toString() : label + " " + r.get(fn));
    }
    return out;
  }

  /** The column that names a key column's value ({@code X} for {@code X_address}), or -1. */
  private static int nameColumn(ProfileTable t, String keyColumn) {
    if (keyColumn.endsWith("_address")) {
      String base = keyColumn.substring(0, keyColumn.length() - "_address".length());
      if (t.header().contains(base) && !t.key().contains(base)) {
        return t.header().indexOf(base);
      }
    }
    return -1;
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
