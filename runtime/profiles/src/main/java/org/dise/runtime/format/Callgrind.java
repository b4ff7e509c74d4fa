package org.dise.runtime.format;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.dise.runtime.elf.LineTable;
import org.dise.runtime.elf.Symbol;
import org.dise.runtime.elf.SymbolTable;

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
    return write(p, command, SymbolTable.empty());
  }

  /**
   * As above, with each function in its source file ({@code fl=}) and its costs at the line of its
   * entry, from {@code symbols}' line tables (a program built with {@code -g}); the calling-context
   * profiles know functions, not the pcs in them. Without line tables every function is in
   * callgrind's unknown file {@code ???} at line 0.
   */
  public static String write(StackProfile p, String command, SymbolTable symbols) {
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
    header(sb, command, p.types());
    sb.append("summary:");
    for (int i = 0; i < n; i++) {
      sb.append(' ').append(p.total(i));
    }
    sb.append("\n\n");
    Map<StackProfile.Frame, Optional<LineTable.SourceLine>> lines = new LinkedHashMap<>();
    for (StackProfile.Frame f : self.keySet()) {
      lines.put(f, f.address() == 0 ? Optional.empty() : symbols.line(f.address()));
    }
    boolean anyLine = lines.values().stream().anyMatch(Optional::isPresent);
    if (!anyLine) {
      // No source files are known: every function is in callgrind's unknown file.
      sb.append("fl=(1) ???\n");
    }
    Map<String, Integer> files = new LinkedHashMap<>();
    String currentFile = null;
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
      String file = anyLine ? fileOf(lines.get(f.getKey())) : null;
      if (anyLine && !file.equals(currentFile)) {
        sb.append("fl=").append(compressed(file, files)).append('\n');
        currentFile = file;
      }
      int line = lineOf(lines.get(f.getKey()));
      sb.append("fn=").append(name(f.getKey(), ids, ambiguous)).append('\n');
      sb.append(costs(line, f.getValue(), n));
      for (Map.Entry<StackProfile.Frame, long[]> e :
          edges.getOrDefault(f.getKey(), Map.of()).entrySet()) {
        if (anyLine) {
          String calleeFile = fileOf(lines.get(e.getKey()));
          if (!calleeFile.equals(file)) {
            sb.append("cfi=").append(compressed(calleeFile, files)).append('\n');
          }
        }
        sb.append("cfn=").append(name(e.getKey(), ids, ambiguous)).append('\n');
        sb.append("calls=")
            .append(e.getValue()[n])
            .append(' ')
            .append(lineOf(lines.get(e.getKey())))
            .append('\n');
        // The call site's pc is not in the profile: the cost is at the caller's first line.
        sb.append(costs(line, e.getValue(), n));
      }
      sb.append('\n');
    }
    return sb.toString();
  }

  /**
   * A profile keyed by single code addresses (a pc per entry, {@code T.PC} keys) as callgrind
   * lines: each entry's weight at its pc's source line, in its function and file, so that
   * callgrind_annotate and KCachegrind show the weight beside the source. A function is in the file
   * of its entry ({@code fl=}); its lines in another file (inlined from a header) follow {@code
   * fi=}. Empty when no address of the profile has a source line. {@code pcs} maps each address to
   * its weight.
   */
  public static Optional<String> ofLines(
      Map<Long, Long> pcs, String weight, String command, SymbolTable symbols) {
    // function -> file -> line -> weight, and each function's own file (that of its entry).
    Map<String, Map<String, Map<Integer, Long>>> byFunction = new LinkedHashMap<>();
    Map<String, String> home = new LinkedHashMap<>();
    long total = 0;
    boolean anyLine = false;
    for (Map.Entry<Long, Long> e : pcs.entrySet()) {
      Optional<LineTable.SourceLine> l = symbols.line(e.getKey());
      anyLine |= l.isPresent();
      Optional<Symbol> s = symbols.lookup(e.getKey());
      String fn = s.map(Symbol::name).orElse(String.format("0x%x", e.getKey()));
      home.computeIfAbsent(fn, k -> fileOf(s.flatMap(x -> symbols.line(x.address())).or(() -> l)));
      byFunction
          .computeIfAbsent(fn, k -> new LinkedHashMap<>())
          .computeIfAbsent(fileOf(l), k -> new java.util.TreeMap<>())
          .merge(lineOf(l), e.getValue(), Long::sum);
      total += e.getValue();
    }
    if (!anyLine) {
      return Optional.empty();
    }
    StringBuilder sb = new StringBuilder();
    header(sb, command, List.of(new StackProfile.ValueType(weight, "count")));
    sb.append("summary: ").append(total).append("\n\n");
    Map<String, Integer> files = new LinkedHashMap<>();
    Map<String, Integer> names = new LinkedHashMap<>();
    List<String> functions = new ArrayList<>(byFunction.keySet());
    functions.sort(java.util.Comparator.comparing(home::get)); // one fl= per file
    String current = null;
    for (String fn : functions) {
      String file = home.get(fn);
      if (!file.equals(current)) {
        sb.append(current == null ? "" : "\n").append("fl=").append(compressed(file, files));
        sb.append('\n');
        current = file;
      }
      sb.append("fn=").append(compressed(fn, names)).append('\n');
      Map<String, Map<Integer, Long>> byFile = byFunction.get(fn);
      byFile.getOrDefault(file, Map.of()).forEach((line, w) -> costLine(sb, line, w));
      for (Map.Entry<String, Map<Integer, Long>> f : byFile.entrySet()) {
        if (!f.getKey().equals(file)) {
          // Lines of another file inside this function (inlined from a header).
          sb.append("fi=").append(compressed(f.getKey(), files)).append('\n');
          f.getValue().forEach((line, w) -> costLine(sb, line, w));
          current = null; // the next function names its file again
        }
      }
    }
    return Optional.of(sb.append('\n').toString());
  }

  private static void costLine(StringBuilder sb, int line, long weight) {
    sb.append(line).append(' ').append(weight).append('\n');
  }

  private static void header(StringBuilder sb, String command, List<StackProfile.ValueType> types) {
    sb.append("# callgrind format\nversion: 1\ncreator: acf\n");
    sb.append("cmd: ").append(command).append('\n');
    sb.append("positions: line\n");
    List<String> events = new ArrayList<>();
    for (StackProfile.ValueType t : types) {
      String e = event(t.type());
      events.add(e);
      sb.append("event: ").append(e).append(" : ").append(t.type()).append('\n');
    }
    sb.append("events: ").append(String.join(" ", events)).append('\n');
  }

  /** A source file's path, or callgrind's unknown file. */
  private static String fileOf(Optional<LineTable.SourceLine> l) {
    return l.map(LineTable.SourceLine::path).orElse("???");
  }

  private static int lineOf(Optional<LineTable.SourceLine> l) {
    return l.map(LineTable.SourceLine::line).orElse(0);
  }

  /** {@code (id) text} the first time, {@code (id)} after (file and function name compression). */
  private static String compressed(String text, Map<String, Integer> ids) {
    Integer id = ids.get(text);
    if (id != null) {
      return "(" + id + ")";
    }
    ids.put(text, ids.size() + 1);
    return "(" + ids.size() + ") " + text;
  }

  private static void add(long[] into, long[] values) {
    for (int i = 0; i < values.length; i++) {
      into[i] += values[i];
    }
  }

  private static String costs(int line, long[] v, int n) {
    StringBuilder sb = new StringBuilder(Integer.toString(line));
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
