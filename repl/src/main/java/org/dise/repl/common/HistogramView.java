package org.dise.repl.common;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A histogram map's profile on the terminal, as bpftrace prints {@code hist()} and {@code lhist()}:
 * per key (the {@code top} keys with the most events), one line per bucket with its range, its
 * count and a bar scaled to the key's largest bucket.
 */
public final class HistogramView {
  private HistogramView() {}

  /** Bar width at the largest bucket, as bpftrace's. */
  public static final int BAR = 52;

  /** Whether {@code t} is a histogram map's table. */
  public static boolean applies(org.dise.runtime.sink.ProfileTable t) {
    List<String> h = t.header();
    return h.size() >= 4
        && h.get(h.size() - 3).equals("bucket_lo")
        && h.get(h.size() - 2).equals("bucket_hi")
        && h.get(h.size() - 1).equals("count");
  }

  public static List<String> lines(String name, org.dise.runtime.sink.ProfileTable t, int top) {
    int keyCells = t.header().size() - 3;
    // Rows come grouped by key, the keys with the most events first.
    List<List<List<String>>> groups = new ArrayList<>();
    for (List<String> r : t.rows()) {
      List<List<String>> last = groups.isEmpty() ? null : groups.get(groups.size() - 1);
      if (last == null || !last.get(0).subList(0, keyCells).equals(r.subList(0, keyCells))) {
        last = new ArrayList<>();
        groups.add(last);
      }
      last.add(r);
    }
    long total = 0;
    for (List<String> r : t.rows()) {
      total += Long.parseLong(r.get(keyCells + 2));
    }
    List<String> out = new ArrayList<>();
    out.add(
        String.format(
            Locale.ROOT,
            "profile %s: %,d keys, count %,d%s",
            name,
            groups.size(),
            total,
            groups.size() > top ? ", top " + top : ""));
    for (List<List<String>> g : groups.subList(0, Math.min(top, groups.size()))) {
      long max = 0;
      long sum = 0;
      List<String> ranges = new ArrayList<>();
      for (List<String> r : g) {
        long c = Long.parseLong(r.get(keyCells + 2));
        max = Math.max(max, c);
        sum += c;
        ranges.add(range(r.get(keyCells), r.get(keyCells + 1)));
      }
      int width = ranges.stream().mapToInt(String::length).max().orElse(0);
      int countWidth = g.stream().mapToInt(r -> r.get(keyCells + 2).length()).max().orElse(1);
      out.add(
          String.format(
              Locale.ROOT, "  @[%s]: %,d", String.join(", ", g.get(0).subList(0, keyCells)), sum));
      for (int i = 0; i < g.size(); i++) {
        long c = Long.parseLong(g.get(i).get(keyCells + 2));
        int bar = max == 0 ? 0 : (int) (BAR * c / max);
        out.add(
            String.format(
                Locale.ROOT,
                "    %-" + width + "s %" + countWidth + "d |%-" + BAR + "s|",
                ranges.get(i),
                c,
                "@".repeat(bar)));
      }
    }
    return out;
  }

  /** A closed bucket range as text; the open-ended linear buckets as {@code (..., hi]}. */
  public static String range(String lo, String hi) {
    boolean openLo = lo.equals(Long.toString(Long.MIN_VALUE)) && !hi.equals(lo);
    boolean openHi = hi.equals(Long.toString(Long.MAX_VALUE)) && !hi.equals(lo);
    if (lo.equals(hi)) {
      return "[" + lo + "]";
    }
    return (openLo ? "(..., " : "[" + lo + ", ") + (openHi ? "...)" : hi + "]");
  }
}
