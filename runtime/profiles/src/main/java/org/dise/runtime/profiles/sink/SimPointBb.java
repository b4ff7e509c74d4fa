package org.dise.runtime.profiles.sink;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * SimPoint's basic block vector file ({@code .bb}): one line per interval, {@code T} followed by
 * {@code :id:count} for each basic block executed in it, ids from 1, counts in instructions (the
 * format SimPoint 3's {@code -loadFVFile} reads).
 */
public final class SimPointBb {
  private SimPointBb() {}

  /** The file text for {@code vectors}, one interval a line, ids in increasing order. */
  public static String format(List<? extends Map<Integer, Long>> vectors) {
    StringBuilder sb = new StringBuilder();
    for (Map<Integer, Long> v : vectors) {
      sb.append('T');
      new TreeMap<>(v)
          .forEach((id, n) -> sb.append(':').append(id).append(':').append(n).append(' '));
      sb.setLength(sb.length() - (v.isEmpty() ? 0 : 1));
      sb.append('\n');
    }
    return sb.toString();
  }

  /**
   * Reads a {@code .bb} file back.
   *
   * @throws IllegalArgumentException naming the line and column of the first malformed entry
   */
  public static List<Map<Integer, Long>> parse(String text) {
    List<Map<Integer, Long>> out = new ArrayList<>();
    String[] lines = text.split("\n", -1);
    for (int ln = 0; ln < lines.length; ln++) {
      String line = lines[ln].strip();
      if (line.isEmpty()) {
        continue;
      }
      if (line.charAt(0) != 'T') {
        throw new IllegalArgumentException("line " + (ln + 1) + ":1: expected `T`");
      }
      Map<Integer, Long> v = new TreeMap<>();
      int col = 1;
      for (String entry : line.substring(1).strip().split("\\s+")) {
        col = lines[ln].indexOf(entry, col) + 1;
        if (entry.isEmpty()) {
          continue;
        }
        String[] f = entry.split(":", -1);
        try {
          if (f.length != 3 || !f[0].isEmpty()) {
            throw new NumberFormatException();
          }
          int id = Integer.parseInt(f[1]);
          long n = Long.parseLong(f[2]);
          if (id < 1 || n < 0 || v.put(id, n) != null) {
            throw new NumberFormatException();
          }
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(
              "line "
                  + (ln + 1)
                  + ":"
                  + col
                  + ": expected `:id:count` with a new id from 1 and a count, got `"
                  + entry
                  + "`");
        }
      }
      out.add(v);
    }
    return out;
  }
}
