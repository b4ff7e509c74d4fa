package org.dise.repl.common;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The timing figures of a run's summary.json ({@code acf run --timing}: its {@code timing} object,
 * spec/timing.md "Reports"), flat and as lines, for {@code acf report}, {@code acf view} and {@code
 * acf compare}.
 */
public final class TimingFigures {
  private TimingFigures() {}

  /** The figures (model, cycles, CPI, MPKIs, overhead, energy), or an empty map without timing. */
  public static Map<String, Object> of(Map<String, Object> summary) {
    Map<String, Object> out = new LinkedHashMap<>();
    if (!(summary.get("timing") instanceof Map<?, ?> t)) {
      return out;
    }
    Map<?, ?> a = t.get("application") instanceof Map<?, ?> m ? m : Map.of();
    Map<?, ?> p = t.get("profiled") instanceof Map<?, ?> m ? m : Map.of();
    out.put("model", String.valueOf(t.get("model")));
    out.put("cycles_alone", num(a.get("cycles")));
    out.put("cycles_profiled", num(p.get("cycles")));
    out.put("cpi_alone", num(a.get("cpi")));
    out.put("cpi_profiled", num(p.get("cpi")));
    out.put("overhead_pct", 100 * num(t.get("overhead")));
    for (String k : List.of("l1i_mpki", "l1d_mpki", "l2_mpki", "branch_mpki")) {
      out.put(k, num(p.get(k)));
    }
    if (t.get("energy_joules_application") != null) {
      out.put("energy_joules_application", num(t.get("energy_joules_application")));
      out.put("energy_joules_profiled", num(t.get("energy_joules_profiled")));
    }
    out.put("modelled_handler_calls", num(t.get("modelled_handler_calls")));
    return out;
  }

  /** The figures as report lines (none without timing). */
  public static List<String> lines(Map<String, Object> summary) {
    Map<String, Object> f = of(summary);
    List<String> lines = new ArrayList<>();
    if (f.isEmpty()) {
      return lines;
    }
    lines.add(
        String.format(
            Locale.ROOT,
            "%-24s %s: application alone %,.0f cycles (CPI %.3f), with profiling %,.0f (CPI"
                + " %.3f), overhead %.2f%%",
            "timing",
            f.get("model"),
            f.get("cycles_alone"),
            f.get("cpi_alone"),
            f.get("cycles_profiled"),
            f.get("cpi_profiled"),
            f.get("overhead_pct")));
    lines.add(
        String.format(
            Locale.ROOT,
            "%-24s L1I %.3f, L1D %.3f, L2 %.3f, branch %.3f",
            "timing MPKI",
            f.get("l1i_mpki"),
            f.get("l1d_mpki"),
            f.get("l2_mpki"),
            f.get("branch_mpki")));
    if (f.containsKey("energy_joules_application")) {
      lines.add(
          String.format(
              Locale.ROOT,
              "%-24s application %.4g J, with profiling %.4g J",
              "timing energy",
              f.get("energy_joules_application"),
              f.get("energy_joules_profiled")));
    }
    return lines;
  }

  private static double num(Object o) {
    if (o instanceof Number n) {
      return n.doubleValue();
    }
    try {
      return o == null ? 0 : Double.parseDouble(o.toString());
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }
}
