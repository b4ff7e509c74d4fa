package org.dise.experiments;

import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** An experiment's data: named columns and rows of numbers and words, written as CSV. */
public final class Table {
  private final List<String> columns;
  private final List<List<Object>> rows = new ArrayList<>();

  public Table(String... columns) {
    this.columns = List.of(columns);
  }

  public Table add(Object... values) {
    if (values.length != columns.size()) {
      throw new IllegalArgumentException(
          values.length + " values for " + columns.size() + " columns " + columns);
    }
    rows.add(List.of(values));
    return this;
  }

  public List<String> columns() {
    return columns;
  }

  public List<List<Object>> rows() {
    return rows;
  }

  public void writeCsv(Writer w) throws IOException {
    writeCsv(w, java.util.Map.of());
  }

  /**
   * The table with {@code constants} as further columns, the same value on every row (the settings
   * the runs shared), so that a row read on its own still says what produced it.
   */
  public void writeCsv(Writer w, java.util.Map<String, String> constants) throws IOException {
    List<String> header = new ArrayList<>(columns);
    List<String> extra = new ArrayList<>();
    constants.forEach(
        (k, v) -> {
          if (!columns.contains(k)) {
            header.add(cell(k));
            extra.add(cell(v));
          }
        });
    w.write(String.join(",", header) + "\n");
    for (List<Object> r : rows) {
      List<String> cells = new ArrayList<>();
      for (Object o : r) {
        cells.add(cell(o));
      }
      cells.addAll(extra);
      w.write(String.join(",", cells) + "\n");
    }
  }

  static String cell(Object o) {
    if (o instanceof Double d) {
      return Double.isNaN(d) ? "" : String.format(Locale.ROOT, "%.6g", d);
    }
    String s = String.valueOf(o);
    return s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
  }
}
