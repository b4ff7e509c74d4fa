package org.dise.repl.common;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.dise.runtime.format.SourceColumns;
import org.dise.runtime.sink.ProfileTable;

/**
 * {@code acf report --by function}: a profile keyed by code addresses summed per function. The
 * function of each address comes from the column that names it in the profile ({@code function},
 * {@code function2}, ... beside a map's code keys; {@code caller} and {@code callee} beside a call
 * pair's addresses), with the offset of {@code walk+0x10} dropped; other key columns stay in the
 * key. A profile without such a column has nothing to roll up.
 */
public final class FunctionRollUp {
  private FunctionRollUp() {}

  public static Optional<ProfileTable> of(ProfileTable t) {
    return of(t, false);
  }

  /**
   * {@code acf report --by line}: the same sums per source line ({@code lines.c:12}, the {@code
   * line} column a run of a {@code -g} program writes beside {@code function}); an address without
   * a line (a library built without {@code -g}) is summed under its function. Empty when the
   * profile has no line column.
   */
  public static Optional<ProfileTable> byLine(ProfileTable t) {
    return of(t, true);
  }

  private static Optional<ProfileTable> of(ProfileTable t, boolean lines) {
    List<String> header = t.header();
    int w = header.indexOf(t.weight());
    List<Integer> group = new ArrayList<>();
    List<Integer> lineOf = new ArrayList<>();
    List<String> names = new ArrayList<>();
    boolean anyFunction = false;
    boolean anyLine = false;
    for (String k : t.key()) {
      int name = nameOf(t, k);
      anyFunction |= name >= 0;
      String lineColumn = name >= 0 && lines ? SourceColumns.lineColumn(header.get(name)) : null;
      int line = lineColumn == null ? -1 : header.indexOf(lineColumn);
      anyLine |= line >= 0;
      group.add(name >= 0 ? name : header.indexOf(k));
      lineOf.add(line);
      names.add(line >= 0 ? lineColumn : name >= 0 ? header.get(name) : k);
    }
    if (!anyFunction || w < 0 || (lines && !anyLine)) {
      return Optional.empty();
    }
    Map<List<String>, Long> sums = new LinkedHashMap<>();
    for (List<String> r : t.rows()) {
      List<String> key = new ArrayList<>();
      for (int j = 0; j < group.size(); j++) {
        int line = lineOf.get(j);
        String f = function(r.get(group.get(j)));
        key.add(line >= 0 && !r.get(line).isEmpty() ? r.get(line) : f);
      }
      long v;
      try {
        v = Long.parseLong(r.get(w));
      } catch (NumberFormatException e) {
        return Optional.empty(); // not a whole-number weight: nothing to sum
      }
      sums.merge(key, v, Long::sum);
    }
    List<Map.Entry<List<String>, Long>> sorted = new ArrayList<>(sums.entrySet());
    sorted.sort((a, b) -> Long.compare(b.getValue(), a.getValue()));
    List<List<String>> rows = new ArrayList<>();
    for (Map.Entry<List<String>, Long> e : sorted) {
      List<String> row = new ArrayList<>(e.getKey());
      row.add(Long.toString(e.getValue()));
      rows.add(row);
    }
    List<String> h = new ArrayList<>(names);
    h.add(t.weight());
    return Optional.of(new ProfileTable(h, rows, names, t.weight()));
  }

  /** The column naming key column {@code k}'s address, or -1. */
  private static int nameOf(ProfileTable t, String k) {
    List<String> h = t.header();
    if (k.endsWith("_address")) {
      int i = h.indexOf(k.substring(0, k.length() - "_address".length()));
      if (i >= 0) {
        return i;
      }
    }
    if (k.startsWith("key")) {
      int i = h.indexOf("function" + k.substring(3));
      if (i >= 0) {
        return i;
      }
    }
    if (t.key().size() == 1 && !t.key().contains("function")) {
      return h.indexOf("function");
    }
    return -1;
  }

  /** {@code walk+0x10} -> {@code walk}; an address without a symbol stays as it is. */
  public static String function(String described) {
    int plus = described.lastIndexOf("+0x");
    return plus > 0 ? described.substring(0, plus) : described;
  }
}
