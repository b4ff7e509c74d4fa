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
    w.write(String.join(",", columns) + "\n");
    for (List<Object> r : rows) {
      List<String> cells = new ArrayList<>();
      for (Object o : r) {
        cells.add(cell(o));
      }
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
