package org.dise.repl.common;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.dise.runtime.dise.CostReport;

/**
 * A run directory's summary.json as lines, in the layout {@code acf run} printed them: {@code acf
 * report} prints them and the HTML view shows them.
 */
public final class CostLines {
  private CostLines() {}

  private static final List<String> COST_KEYS =
      List.of(
          "application_instructions",
          "inserted_instructions",
          "replacements",
          "stall_cycles",
          "handler_calls",
          "handler_cycles",
          "interrupts",
          "interrupt_cycles");

  /**
   * The summary's lines in the layout {@code acf run} printed them (thousands separators, the
   * overhead as 1.2345x), so that a report reads like the run; other members (exit status, the
   * sampling figures) follow in the same columns.
   */
  public static List<String> of(Map<String, Object> summary) {
    List<String> lines = new ArrayList<>();
    Set<String> shown = new HashSet<>();
    if (COST_KEYS.stream().allMatch(k -> integer(summary.get(k)))) {
      long[] v =
          COST_KEYS.stream().mapToLong(k -> Long.parseLong(summary.get(k).toString())).toArray();
      CostReport c = new CostReport(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]);
      lines.addAll(List.of(c.describe().split("\n")));
      shown.addAll(COST_KEYS);
      shown.addAll(List.of("total_cycles", "overhead"));
    }
    lines.addAll(TimingFigures.lines(summary)); // the nested timing object, flat
    summary.forEach(
        (k, v) -> {
          // Lists of scalars (the command, the environment) read as one line; flat records
          // (transmission, accuracy) one line per field; nested records (configurations, register
          // state) and absent values stay in summary.json.
          if (v instanceof List<?> l
              && l.stream().noneMatch(x -> x instanceof Map || x instanceof List)) {
            v = String.join(" ", l.stream().map(String::valueOf).toList());
          }
          boolean flat =
              !(v instanceof Map<?, ?> m)
                  || m.values().stream().noneMatch(x -> x instanceof Map || x instanceof List);
          if (!shown.contains(k) && v != null && !(v instanceof List) && flat) {
            member(k.replace('_', ' '), v, lines);
          }
        });
    return lines;
  }

  /**
   * One member as {@code name value}; a flat record (the trigger's settings, the sampling options)
   * as one line of {@code field value} pairs. Absent values (null) and empty lists are left out:
   * they say nothing a reader of the report needs (issue 32: {@code sampling options sampling
   * null}, empty {@code env} lines).
   */
  private static void member(String name, Object v, List<String> lines) {
    if (v instanceof Map<?, ?> m) {
      List<String> parts = new ArrayList<>();
      m.forEach(
          (k, w) -> {
            if (w != null && !String.valueOf(w).isEmpty()) {
              parts.add(String.valueOf(k).replace('_', ' ') + " " + value(String.valueOf(k), w));
            }
          });
      if (!parts.isEmpty()) {
        lines.add(String.format("%-24s %s", name, String.join(", ", parts)));
      }
      return;
    }
    String value = value(name, v);
    if (!value.isEmpty()) {
      lines.add(String.format("%-24s %s", name, value));
    }
  }

  /** A number with thousands separators, except identifiers (a seed is not a quantity). */
  private static String value(String name, Object v) {
    return integer(v) && !name.equals("seed")
        ? String.format("%,d", Long.parseLong(v.toString()))
        : String.valueOf(v);
  }

  private static boolean integer(Object v) {
    return v instanceof Json.Num n && n.text().matches("-?\\d{1,18}");
  }
}
