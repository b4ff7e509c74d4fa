package org.dise.repl;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A command's output as a doc shows it, against what the command printed: a line {@code ...} alone
 * stands for any number of lines, and {@code ...} inside a line for any text on that line (Python
 * doctest's ellipsis), so a doc can leave out what does not matter or moves between checkouts.
 * Lines compare without trailing blanks. {@link #merge} aligns the two with the fewest changed
 * lines, so that refreshing a doc keeps its elisions where they still fit.
 */
final class DocOutput {
  private DocOutput() {}

  static final String ELISION = "...";

  static boolean isElision(String line) {
    return line.strip().equals(ELISION);
  }

  /** Whether one expected line matches one printed line. */
  static boolean lineMatches(String expected, String actual) {
    String e = expected.stripTrailing();
    String a = actual.stripTrailing();
    if (!e.contains(ELISION)) {
      return e.equals(a);
    }
    StringBuilder re = new StringBuilder();
    String[] parts = e.split(Pattern.quote(ELISION), -1);
    for (int i = 0; i < parts.length; i++) {
      if (i > 0) {
        re.append(".*");
      }
      re.append(Pattern.quote(parts[i]));
    }
    return Pattern.compile(re.toString(), Pattern.DOTALL).matcher(a).matches();
  }

  /**
   * The price of a line dropped or added. Changing a line into a similar one (a figure moved) costs
   * less, into a different one more, so that a refresh replaces {@code overhead 225.65%} by {@code
   * overhead 224.12%} rather than by whatever line happens to stand in its place.
   */
  private static final int GAP = 2;

  private static int change(String expected, String actual) {
    if (lineMatches(expected, actual)) {
      return 0;
    }
    return similar(expected, actual) ? 1 : 2 * GAP;
  }

  /** At least half of the words, position by position, are the same. */
  static boolean similar(String a, String b) {
    String[] x = a.strip().split("\\s+");
    String[] y = b.strip().split("\\s+");
    int same = 0;
    for (int k = 0; k < Math.min(x.length, y.length); k++) {
      if (x[k].equals(y[k])) {
        same++;
      }
    }
    return 2 * same >= Math.max(x.length, y.length);
  }

  /** Aligning expected with actual lines: its cost (0: they match) and the merged lines. */
  record Merge(int changes, List<String> lines) {}

  /**
   * Aligns {@code expected} with {@code actual} at the least number of changed lines (an elision
   * line absorbs any run of printed lines for free). The merged text keeps every expected line that
   * matched (with its in-line elisions) and every elision line, and takes the printed line
   * everywhere else: what {@code -Dacf.updateDocs=true} writes back.
   */
  static Merge merge(List<String> expected, List<String> actual) {
    int n = expected.size();
    int m = actual.size();
    int[][] cost = new int[n + 1][m + 1];
    for (int j = 0; j <= m; j++) {
      cost[n][j] = GAP * (m - j);
    }
    for (int i = n - 1; i >= 0; i--) {
      String e = expected.get(i);
      boolean elision = isElision(e);
      cost[i][m] = cost[i + 1][m] + (elision ? 0 : GAP);
      for (int j = m - 1; j >= 0; j--) {
        if (elision) {
          cost[i][j] = Math.min(cost[i + 1][j], cost[i][j + 1]);
        } else {
          int best = change(e, actual.get(j)) + cost[i + 1][j + 1];
          best = Math.min(best, GAP + cost[i + 1][j]);
          best = Math.min(best, GAP + cost[i][j + 1]);
          cost[i][j] = best;
        }
      }
    }
    List<String> out = new ArrayList<>();
    int i = 0;
    int j = 0;
    int written = -1; // the elision line last written, once however many lines it absorbs
    while (i < n || j < m) {
      if (i == n) {
        out.add(actual.get(j++));
        continue;
      }
      String e = expected.get(i);
      if (isElision(e)) {
        if (written != i) {
          out.add(e);
          written = i;
        }
        // Prefer ending the elision on a tie, so that a changed line after it is replaced
        // rather than swallowed.
        if (j == m || cost[i][j] == cost[i + 1][j]) {
          i++;
        } else {
          j++;
        }
        continue;
      }
      if (j < m && cost[i][j] == change(e, actual.get(j)) + cost[i + 1][j + 1]) {
        out.add(lineMatches(e, actual.get(j)) ? e : actual.get(j));
        i++;
        j++;
      } else if (cost[i][j] == GAP + cost[i + 1][j]) {
        i++;
      } else {
        out.add(actual.get(j++));
      }
    }
    return new Merge(cost[0][0], out);
  }
}
