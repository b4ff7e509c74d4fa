package org.dise.runtime.format;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Writes a {@link StackProfile} in callgrind's format (valgrind.org, "Callgrind Format
 * Specification"), which KCachegrind and callgrind_annotate read: per function its self cost, and
 * per call edge the calls and the inclusive cost of the callee under that caller. Callgrind is not
 * context sensitive, so the stacks fold into edges; a recursive edge counts a stack's cost once
 * however often it repeats there, as callgrind itself does for cycles.
 */
public final class Callgrind {
  private Callgrind() {}

  /** The callgrind file; {@code command} names the profiled program ({@code cmd:}). */
  public static String write(StackProfile p, String command) {
    int n = p.types().size();
    Map<StackProfile.Frame, long[]> self = new LinkedHashMap<>();
    Map<StackProfile.Frame, Map<StackProfile.Frame, long[]>> edges = new LinkedHashMap<>();
    for (StackProfile.Sample s : p.samples()) {
      List<StackProfile.Frame> st = s.stack();
      if (st.isEmpty()) {
        continue;
      }
      add(self.computeIfAbsent(st.get(st.size() - 1), k -> new long[n + 1]), s.values());
      Set<List<StackProfile.Frame>> seen = new HashSet<>();
      for (int j = 1; j < st.size(); j++) {
        StackProfile.Frame a = st.get(j - 1);
        StackProfile.Frame b = st.get(j);
        self.computeIfAbsent(a, k -> new long[n + 1]);
        long[] e =
            edges
                .computeIfAbsent(a, k -> new LinkedHashMap<>())
                .computeIfAbsent(b, k -> new long[n + 1]);
        if (seen.add(List.of(a, b))) {
          add(e, s.values());
        }
        if (j == st.size() - 1) {
          e[n] += s.calls();
        }
      }
    }
    StringBuilder sb = new StringBuilder();
    sb.append("# callgrind format\nversion: 1\ncreator: acf\n");
    sb.append("cmd: ").append(command).append('\n');
    sb.append("positions: line\n");
    List<String> events = new ArrayList<>();
    for (StackProfile.ValueType t : p.types()) {
      String e = event(t.type());
      events.add(e);
      sb.append("event: ").append(e).append(" : ").append(t.type()).append('\n');
    }
    sb.append("events: ").append(String.join(" ", events)).append('\n');
    sb.append("summary:");
    for (int i = 0; i < n; i++) {
      sb.append(' ').append(p.total(i));
    }
    // No source files are known: every function is in callgrind's unknown file.
    sb.append("\n\nfl=(1) ???\n");
    Map<StackProfile.Frame, Integer> ids = new LinkedHashMap<>();
    Map<String, Set<Long>> addresses = new LinkedHashMap<>();
    self.keySet()
        .forEach(f -> addresses.computeIfAbsent(f.name(), k -> new HashSet<>()).add(f.address()));
    // Names that more than one function has (local functions) are shown with their address.
    Set<String> ambiguous = new HashSet<>();
    addresses.forEach(
        (name, a) -> {
          if (a.size() > 1) {
            ambiguous.add(name);
          }
        });
    for (Map.Entry<StackProfile.Frame, long[]> f : self.entrySet()) {
      sb.append("fn=").append(name(f.getKey(), ids, ambiguous)).append('\n');
      sb.append(costs(f.getValue(), n));
      for (Map.Entry<StackProfile.Frame, long[]> e :
          edges.getOrDefault(f.getKey(), Map.of()).entrySet()) {
        sb.append("cfn=").append(name(e.getKey(), ids, ambiguous)).append('\n');
        sb.append("calls=").append(e.getValue()[n]).append(" 0\n");
        sb.append(costs(e.getValue(), n));
      }
      sb.append('\n');
    }
    return sb.toString();
  }

  private static void add(long[] into, long[] values) {
    for (int i = 0; i < values.length; i++) {
      into[i] += values[i];
    }
  }

  private static String costs(long[] v, int n) {
    StringBuilder sb = new StringBuilder("0");
    for (int i = 0; i < n; i++) {
      sb.append(' ').append(v[i]);
    }
    return sb.append('\n').toString();
  }

  /** {@code (id) name} the first time, {@code (id)} after: the format's name compression. */
  private static String name(
      StackProfile.Frame f, Map<StackProfile.Frame, Integer> ids, Set<String> ambiguous) {
    Integer id = ids.get(f);
    if (id != null) {
      return "(" + id + ")";
    }
    ids.put(f, ids.size() + 1);
    String shown =
        !ambiguous.contains(f.name()) ? f.name() : f.name() + " 0x" + Long.toHexString(f.address());
    return "(" + ids.size() + ") " + shown;
  }

  /** Callgrind's event names are identifiers: instructions are {@code Ir}, as valgrind says. */
  private static String event(String type) {
    if (type.equals("instructions")) {
      return "Ir";
    }
    String e = type.replaceAll("[^A-Za-z0-9_]", "_");
    return e.substring(0, 1).toUpperCase(Locale.ROOT) + e.substring(1);
  }
}
