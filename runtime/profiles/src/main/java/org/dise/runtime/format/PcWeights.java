package org.dise.runtime.format;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.dise.runtime.sink.ProfileTable;

/**
 * A profile keyed by one code address per entry (a map keyed by {@code T.PC}, a region or
 * watchpoint table keyed by {@code pc}) as its weight per address: what {@link Callgrind#ofLines}
 * places on source lines. Empty for any other profile.
 */
public final class PcWeights {
  private PcWeights() {}

  public static Optional<Map<Long, Long>> of(ProfileTable t) {
    List<String> h = t.header();
    if (t.key().size() != 1) {
      return Optional.empty();
    }
    String k = t.key().get(0);
    boolean code = k.equals("pc") || (k.equals("key") && h.contains("function"));
    int w = h.indexOf(t.weight());
    if (!code || w < 0) {
      return Optional.empty();
    }
    int a = h.indexOf(k);
    Map<Long, Long> out = new LinkedHashMap<>();
    for (List<String> r : t.rows()) {
      String cell = r.get(a);
      if (!cell.startsWith("0x")) {
        return Optional.empty();
      }
      try {
        out.merge(
            Long.parseUnsignedLong(cell.substring(2), 16), Long.parseLong(r.get(w)), Long::sum);
      } catch (NumberFormatException e) {
        return Optional.empty();
      }
    }
    return Optional.of(out);
  }
}
