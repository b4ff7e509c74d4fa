package org.dise.runtime.format;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.dise.runtime.elf.SymbolTable;
import org.dise.runtime.sink.ProfileTable;

/**
 * Adds the source line of every code address of a profile ({@code lines.c:12}, from the program's
 * {@code .debug_line}) as a column after the column that names its function: {@code line} after
 * {@code function}, {@code line2} after {@code function2}, {@code caller_line} after {@code
 * caller}. A profile of a program built without {@code -g}, or one whose addresses no line table
 * covers, is returned as it is, so its output does not change. What {@code acf report --by line}
 * sums by.
 */
public final class SourceColumns {
  private SourceColumns() {}

  /** {@code t} with a line column beside each named code address that has a line. */
  public static ProfileTable of(ProfileTable t, SymbolTable symbols) {
    if (t.rows().isEmpty() || !symbols.hasLines()) { // no rows: no line table to read
      return t;
    }
    List<String> h = t.header();
    List<String> header = new ArrayList<>(h);
    List<List<String>> rows = new ArrayList<>();
    for (List<String> r : t.rows()) {
      rows.add(new ArrayList<>(r));
    }
    boolean any = false;
    // From the last column back, so that inserting a column keeps the earlier indexes.
    for (int name = h.size() - 1; name >= 0; name--) {
      int address = addressOf(h, name);
      String column = lineColumn(h.get(name));
      if (address < 0 || column == null || h.contains(column)) {
        continue;
      }
      List<String> cells = new ArrayList<>();
      boolean found = false;
      for (List<String> r : t.rows()) {
        Optional<String> line =
            address(r.get(address)).flatMap(symbols::line).map(Object::toString);
        found |= line.isPresent();
        cells.add(line.orElse(""));
      }
      if (!found) {
        continue;
      }
      any = true;
      header.add(name + 1, column);
      for (int i = 0; i < rows.size(); i++) {
        rows.get(i).add(name + 1, cells.get(i));
      }
    }
    return any ? new ProfileTable(header, rows, t.key(), t.weight()) : t;
  }

  /** The line column of a function-naming column, or null when the column names none. */
  public static String lineColumn(String name) {
    if (name.matches("function\\d*")) {
      return "line" + name.substring("function".length());
    }
    if (name.equals("caller") || name.equals("callee")) {
      return name + "_line";
    }
    return null;
  }

  /** The column holding the address that column {@code name} names, or -1. */
  private static int addressOf(List<String> h, int name) {
    String n = h.get(name);
    if (n.equals("caller") || n.equals("callee")) {
      return h.indexOf(n + "_address");
    }
    if (!n.startsWith("function")) {
      return -1;
    }
    int key = h.indexOf("key" + n.substring("function".length()));
    if (key >= 0) {
      return key;
    }
    // Per-instruction tables (pc, function, ...) and block tables (start, end, function, ...).
    for (String a : List.of("pc", "start")) {
      if (h.contains(a) && !h.contains("stack")) {
        return h.indexOf(a);
      }
    }
    return -1;
  }

  private static Optional<Long> address(String cell) {
    if (!cell.startsWith("0x")) {
      return Optional.empty();
    }
    try {
      return Optional.of(Long.parseUnsignedLong(cell.substring(2), 16));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }
}
