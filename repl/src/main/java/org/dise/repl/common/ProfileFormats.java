package org.dise.repl.common;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.dise.runtime.format.StackProfile;
import org.dise.runtime.sink.ProfileTable;

/**
 * The formats a profile is written in (issue 6): a terminal table of the top entries with each
 * one's share of the total weight, JSON with the key and weight columns (what {@code acf report}
 * and {@code acf compare} read back), and folded stacks ({@code caller;callee count}) of method and
 * call-pair profiles for flame graph tools. CSV is {@link ProfileTable#writeCsv}.
 */
public final class ProfileFormats {
  private ProfileFormats() {}

  /** Cells wider than this are cut in the terminal table (a stream's signature is long). */
  public static final int CELL = 60;

  /** The sum of a profile's weight column. */
  public static long total(ProfileTable t) {
    long sum = 0;
    for (long w : t.weights().values()) {
      sum += w;
    }
    return sum;
  }

  /**
   * A heading and the top {@code n} rows as aligned lines, with a {@code %} column after the weight
   * column: each entry's share of the profile's total weight. A table with its own {@code percent}
   * column (RAP ranges: the share of all events, the paper's measure) gets no second one, which
   * would disagree with it.
   */
  public static List<String> terminal(String name, ProfileTable t, int n) {
    if (HistogramView.applies(t)) {
      return HistogramView.lines(name, t, n);
    }
    long total = total(t);
    int w = t.header().indexOf(t.weight());
    boolean share = !t.header().contains("percent");
    List<List<String>> shown = new ArrayList<>();
    List<String> head = new ArrayList<>(t.header());
    if (share) {
      head.add(w + 1, "%");
    }
    shown.add(head);
    for (List<String> r : t.rows().subList(0, Math.min(n, t.rows().size()))) {
      List<String> row = new ArrayList<>();
      for (String cell : r) {
        row.add(cell.length() > CELL ? cell.substring(0, CELL - 3) + "..." : cell);
      }
      if (share) {
        double pct = total == 0 ? 0 : 100.0 * Long.parseLong(r.get(w)) / total;
        row.add(w + 1, String.format(java.util.Locale.ROOT, "%.1f", pct));
      }
      shown.add(row);
    }
    int[] width = new int[head.size()];
    for (List<String> r : shown) {
      for (int i = 0; i < r.size(); i++) {
        width[i] = Math.max(width[i], r.get(i).length());
      }
    }
    List<String> lines = new ArrayList<>();
    lines.add(
        String.format(
            "profile %s: %,d entries, %s %,d%s",
            name, t.rows().size(), t.weight(), total, t.rows().size() > n ? ", top " + n : ""));
    for (List<String> r : shown) {
      StringBuilder sb = new StringBuilder("  ");
      for (int i = 0; i < r.size(); i++) {
        sb.append(String.format("%-" + (width[i] + 2) + "s", r.get(i)));
      }
      lines.add(sb.toString().stripTrailing());
    }
    return lines;
  }

  /** The profile as one JSON object: name, columns, key, weight, total and rows. */
  public static String json(String name, ProfileTable t) {
    return json(name, t, List.of());
  }

  /** The same with the sink's notes (a truncated trace), when it has any. */
  public static String json(String name, ProfileTable t, List<String> notes) {
    StringBuilder sb = new StringBuilder("{\"profile\": ").append(Json.quote(name));
    if (!notes.isEmpty()) {
      sb.append(",\n \"notes\": ").append(list(notes));
    }
    sb.append(",\n \"columns\": ").append(list(t.header()));
    sb.append(",\n \"key\": ").append(list(t.key()));
    sb.append(",\n \"weight\": ").append(Json.quote(t.weight()));
    sb.append(",\n \"total\": ").append(total(t));
    sb.append(",\n \"rows\": [");
    for (int r = 0; r < t.rows().size(); r++) {
      sb.append(r == 0 ? "\n  {" : ",\n  {");
      List<String> row = t.rows().get(r);
      for (int i = 0; i < row.size(); i++) {
        String cell = row.get(i);
        sb.append(i == 0 ? "" : ", ")
            .append(Json.quote(t.header().get(i)))
            .append(": ")
            .append(cell.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?") ? cell : Json.quote(cell));
      }
      sb.append('}');
    }
    return sb.append("]}\n").toString();
  }

  private static String list(List<String> items) {
    return "[" + String.join(", ", items.stream().map(Json::quote).toList()) + "]";
  }

  /** The notes of a profile written by {@link #json}, if any. */
  public static List<String> notesFromJson(String text) {
    if (Json.parse(text) instanceof Map<?, ?> m && m.get("notes") instanceof List<?> l) {
      return l.stream().map(String::valueOf).toList();
    }
    return List.of();
  }

  /**
   * A profile read back from {@link #json}.
   *
   * @throws IllegalArgumentException saying what is missing or malformed
   */
  @SuppressWarnings("unchecked")
  public static ProfileTable fromJson(String text) {
    Object v = Json.parse(text);
    if (!(v instanceof Map<?, ?> m)
        || !(m.get("columns") instanceof List<?> cols)
        || !(m.get("key") instanceof List<?> key)
        || !(m.get("weight") instanceof String weight)
        || !(m.get("rows") instanceof List<?> rows)) {
      throw new IllegalArgumentException(
          "not a profile: expected an object with columns, key, weight and rows");
    }
    List<String> header = cols.stream().map(String::valueOf).toList();
    List<List<String>> out = new ArrayList<>();
    for (Object o : rows) {
      if (!(o instanceof Map<?, ?> row)) {
        throw new IllegalArgumentException("row " + (out.size() + 1) + " is not an object");
      }
      List<String> cells = new ArrayList<>();
      for (String h : header) {
        if (!row.containsKey(h)) {
          throw new IllegalArgumentException("row " + (out.size() + 1) + " has no `" + h + "`");
        }
        cells.add(String.valueOf(row.get(h)));
      }
      out.add(cells);
    }
    int w = header.indexOf(weight);
    if (w < 0) {
      throw new IllegalArgumentException(
          "the weight column `" + weight + "` is not one of the" + " columns " + header);
    }
    long sum = 0;
    for (int r = 0; r < out.size(); r++) {
      String cell = out.get(r).get(w);
      long n;
      try {
        n = cell.matches("-?[0-9]{1,19}") ? Long.parseLong(cell) : -1;
      } catch (NumberFormatException e) {
        n = -1;
      }
      if (n < 0) {
        throw new IllegalArgumentException(
            "row "
                + (r + 1)
                + ": `"
                + weight
                + "` is "
                + cell
                + ", not a count (a whole number from 0 to "
                + Long.MAX_VALUE
                + ")");
      }
      try {
        sum = Math.addExact(sum, n);
      } catch (ArithmeticException e) {
        throw new IllegalArgumentException(
            "row " + (r + 1) + ": the `" + weight + "` column" + " adds up past " + Long.MAX_VALUE);
      }
    }
    try {
      return new ProfileTable(header, out, key.stream().map(String::valueOf).toList(), weight);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("not a profile: " + e.getMessage());
    }
  }

  /**
   * Folded stacks for flame graph tools: full stacks for calling contexts, {@code caller;callee
   * count} per call pair, {@code method events} per method; empty for other profiles.
   */
  public static Optional<String> folded(ProfileTable t) {
    return StackProfile.of(t).map(p -> p.folded(0));
  }
}
