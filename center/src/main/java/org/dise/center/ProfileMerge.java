package org.dise.center;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.dise.runtime.sink.ProfileTable;

/**
 * Merging and differencing profiles in the shape {@code acf run --out} writes (the way
 * continuous-profiling services merge the profiles of many hosts): rows are matched by the table's
 * key columns; integer cells are summed (counts) or subtracted (a part's delta); other cells
 * (names) keep the first value seen. Rows come out hottest first, ties in first-seen order, so that
 * merging one profile with itself keeps its order.
 */
public final class ProfileMerge {
  private ProfileMerge() {}

  private static final Pattern INTEGER = Pattern.compile("-?(0|[1-9][0-9]{0,18})");

  /**
   * The sum of {@code tables}, which must have one shape.
   *
   * @throws IllegalArgumentException naming the two shapes when they differ
   */
  public static ProfileTable merge(List<ProfileTable> tables) {
    return merge(tables, new boolean[1]);
  }

  /**
   * As {@link #merge(List)}, a sum that would pass 2^63-1 staying there: {@code saturated[0]} is
   * then set (spec/remote.md, "Numbers").
   */
  public static ProfileTable merge(List<ProfileTable> tables, boolean[] saturated) {
    if (tables.isEmpty()) {
      throw new IllegalArgumentException("nothing to merge");
    }
    ProfileTable first = tables.get(0);
    int[] key = indexes(first, first.key());
    Map<String, String[]> rows = new LinkedHashMap<>();
    for (ProfileTable t : tables) {
      if (!t.header().equals(first.header())
          || !t.key().equals(first.key())
          || !t.weight().equals(first.weight())) {
        throw new IllegalArgumentException(
            "profiles of two shapes: "
                + first.header()
                + " and "
                + t.header()
                + " (uploads from different configurations?)");
      }
      for (List<String> r : t.rows()) {
        String k = keyOf(r, key);
        String[] have = rows.get(k);
        if (have == null) {
          rows.put(k, r.toArray(String[]::new));
          continue;
        }
        for (int i = 0; i < have.length; i++) {
          if (!isKey(i, key)
              && INTEGER.matcher(have[i]).matches()
              && INTEGER.matcher(r.get(i)).matches()) {
            have[i] = Long.toString(saturatedSum(have[i], r.get(i), saturated));
          }
        }
      }
    }
    return sorted(first, new ArrayList<>(rows.values()));
  }

  /**
   * What {@code now} added since {@code before} (a profile of the same sink taken earlier): the
   * rows whose integer cells changed, with those cells as differences.
   */
  public static ProfileTable since(ProfileTable now, ProfileTable before) {
    int[] key = indexes(now, now.key());
    Map<String, List<String>> old = new LinkedHashMap<>();
    if (before != null && before.header().equals(now.header())) {
      for (List<String> r : before.rows()) {
        old.put(keyOf(r, key), r);
      }
    }
    List<String[]> out = new ArrayList<>();
    for (List<String> r : now.rows()) {
      List<String> b = old.get(keyOf(r, key));
      String[] cells = r.toArray(String[]::new);
      boolean changed = b == null;
      if (b != null) {
        for (int i = 0; i < cells.length; i++) {
          if (!isKey(i, key)
              && INTEGER.matcher(cells[i]).matches()
              && INTEGER.matcher(b.get(i)).matches()) {
            long d = Long.parseLong(cells[i]) - Long.parseLong(b.get(i));
            changed |= d != 0;
            cells[i] = Long.toString(d);
          }
        }
      }
      if (changed) {
        out.add(cells);
      }
    }
    return sorted(now, out);
  }

  private static long saturatedSum(String a, String b, boolean[] saturated) {
    long x = parse(a, saturated);
    long y = parse(b, saturated);
    try {
      return Math.addExact(x, y);
    } catch (ArithmeticException e) {
      saturated[0] = true;
      return x > 0 ? Long.MAX_VALUE : Long.MIN_VALUE;
    }
  }

  /** An integer cell; one past 63 bits (only from a store written before the check) saturates. */
  private static long parse(String cell, boolean[] saturated) {
    try {
      return Long.parseLong(cell);
    } catch (NumberFormatException e) {
      saturated[0] = true;
      return cell.startsWith("-") ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
  }

  private static ProfileTable sorted(ProfileTable shape, List<String[]> rows) {
    int w = shape.header().indexOf(shape.weight());
    List<String[]> order = new ArrayList<>(rows);
    // A stable sort: ties keep the order the sink gave them.
    order.sort((a, b) -> Long.compare(weight(b[w]), weight(a[w])));
    List<List<String>> out = new ArrayList<>(order.size());
    for (String[] r : order) {
      out.add(List.of(r));
    }
    return new ProfileTable(shape.header(), out, shape.key(), shape.weight());
  }

  private static long weight(String cell) {
    return INTEGER.matcher(cell).matches() ? parse(cell, new boolean[1]) : 0;
  }

  private static int[] indexes(ProfileTable t, List<String> columns) {
    return columns.stream().mapToInt(t.header()::indexOf).toArray();
  }

  private static boolean isKey(int column, int[] key) {
    for (int k : key) {
      if (k == column) {
        return true;
      }
    }
    return false;
  }

  private static String keyOf(List<String> row, int[] key) {
    StringBuilder sb = new StringBuilder();
    for (int k : key) {
      sb.append(row.get(k)).append('\u0000');
    }
    return sb.toString();
  }
}
