package org.dise.runtime.sink;

import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A profile as rows of text cells under a header, hottest first; written as CSV. {@code key} names
 * the columns that identify an entry (addresses, so that two local functions of the same name stay
 * apart) and {@code weight} the column the papers' accuracy metrics compare (count error, hot set):
 * see {@link #weights()}.
 */
public record ProfileTable(
    List<String> header, List<List<String>> rows, List<String> key, String weight) {
  public ProfileTable {
    header = List.copyOf(header);
    rows = rows.stream().map(List::copyOf).toList();
    key = List.copyOf(key);
    if (!header.containsAll(key) || !header.contains(weight)) {
      throw new IllegalArgumentException(
          "key " + key + " and weight " + weight + " must be columns of " + header);
    }
  }

  /**
   * Each entry's weight by its key (key cells joined with {@code '|'}), in row order: what two runs
   * of the same profile are compared on.
   */
  public Map<String, Long> weights() {
    int[] k = key.stream().mapToInt(header::indexOf).toArray();
    int w = header.indexOf(weight);
    Map<String, Long> out = new LinkedHashMap<>();
    for (List<String> r : rows) {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < k.length; i++) {
        sb.append(i == 0 ? "" : "|").append(r.get(k[i]));
      }
      out.merge(sb.toString(), Long.parseLong(r.get(w)), Long::sum);
    }
    return out;
  }

  public void writeCsv(Writer out) throws IOException {
    out.write(String.join(",", header.stream().map(ProfileTable::csv).toList()) + "\n");
    for (List<String> r : rows) {
      out.write(String.join(",", r.stream().map(ProfileTable::csv).toList()) + "\n");
    }
  }

  private static String csv(String cell) {
    if (cell.contains(",") || cell.contains("\"") || cell.contains("\n")) {
      return "\"" + cell.replace("\"", "\"\"") + "\"";
    }
    return cell;
  }

  /** The first {@code n} rows as aligned text lines, header first. */
  public List<String> top(int n) {
    List<List<String>> shown = new ArrayList<>();
    shown.add(header);
    shown.addAll(rows.subList(0, Math.min(n, rows.size())));
    int[] width = new int[header.size()];
    for (List<String> r : shown) {
      for (int i = 0; i < r.size(); i++) {
        width[i] = Math.max(width[i], r.get(i).length());
      }
    }
    List<String> lines = new ArrayList<>();
    for (List<String> r : shown) {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < r.size(); i++) {
        sb.append(String.format("%-" + (width[i] + 2) + "s", r.get(i)));
      }
      lines.add(sb.toString().stripTrailing());
    }
    return lines;
  }
}
