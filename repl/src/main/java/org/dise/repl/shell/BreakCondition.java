package org.dise.repl.shell;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.dise.runtime.dise.DiseEngine;
import org.dise.runtime.elf.SymbolTable;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.sink.ProfileTable;

/**
 * A conditional breakpoint ({@code :break when EXPR}): a production matching (checked before the
 * instruction it matches runs), or a state of the HPS counters ({@code counter N OP V}, {@code
 * zero_N}, {@code overflow_N}, negated with {@code !}) or of a sink ({@code sink NAME count OP V}:
 * its recorded events; {@code sink NAME[KEY] OP V}: one entry's weight in its profile), which stops
 * the program after the instruction that makes it true (edge-triggered: a condition already true
 * when the program resumes stops it only once it has been false).
 */
abstract class BreakCondition {
  final String text;

  BreakCondition(String text) {
    this.text = text;
  }

  /** Before {@code d} runs: true to stop in front of it. */
  boolean before(DiseEngine engine, DecodedInsn d) {
    return false;
  }

  /** The state now, for the counter and sink conditions; null for the others. */
  Boolean state(DiseEngine engine) {
    return null;
  }

  private static final Pattern COUNTER =
      Pattern.compile(
          "counter\\s*(\\d+)\\s*(==|!=|<=|>=|<|>)\\s*(-?(?:0[xX][0-9a-fA-F_]+|[0-9_]+))");
  private static final Pattern SINK =
      Pattern.compile(
          "sink\\s+([A-Za-z_][A-Za-z0-9_]*)\\s+count\\s*(==|!=|<=|>=|<|>)\\s*([0-9_]+|0[xX][0-9a-fA-F_]+)");
  private static final Pattern SINK_KEY =
      Pattern.compile(
          "sink\\s+([A-Za-z_][A-Za-z0-9_]*)\\s*\\[\\s*([^\\]]+?)\\s*\\]\\s*(?:count\\s*)?"
              + "(==|!=|<=|>=|<|>)\\s*([0-9_]+|0[xX][0-9a-fA-F_]+)");
  private static final Pattern FLAG =
      Pattern.compile("(!)?\\s*(zero|overflow)_(\\d+)" + "(?:\\s*==\\s*([01]))?");

  /**
   * Parses a condition; {@code productionIndex} finds a production by label (-1: none). A {@code pc
   * == ...} condition is an address breakpoint and is handled by the caller.
   *
   * @throws ReplError saying what is accepted
   */
  static BreakCondition parse(
      String text,
      java.util.function.ToIntFunction<String> production,
      DiseEngine engine,
      SymbolTable symbols) {
    int counters = engine.hps().count();
    String t = text.strip();
    Matcher m = SINK_KEY.matcher(t);
    if (m.matches()) {
      int index = sink(engine, m.group(1));
      String key = m.group(2);
      String op = m.group(3);
      long v = parse(m.group(4));
      return new BreakCondition(t) {
        private long seen = -1;
        private long weight;

        @Override
        Boolean state(DiseEngine e) {
          // The profile is read again only when the sink recorded something since.
          if (e.calls(index) != seen) {
            seen = e.calls(index);
            weight = keyWeight(e.sinks().get(index).table(symbols), key);
          }
          return compare(weight, op, v);
        }
      };
    }
    m = SINK.matcher(t);
    if (m.matches()) {
      int index = sink(engine, m.group(1));
      String op = m.group(2);
      long v = parse(m.group(3));
      return new BreakCondition(t) {
        @Override
        Boolean state(DiseEngine e) {
          return compare(e.calls(index), op, v);
        }
      };
    }
    m = COUNTER.matcher(t);
    if (m.matches()) {
      int c = counter(m.group(1), counters);
      String op = m.group(2);
      long v = parse(m.group(3));
      return new BreakCondition(t) {
        @Override
        Boolean state(DiseEngine e) {
          return compare(e.hps().value(c), op, v);
        }
      };
    }
    m = FLAG.matcher(t.toLowerCase(Locale.ROOT));
    if (m.matches()) {
      boolean negate = m.group(1) != null ^ "0".equals(m.group(4));
      boolean overflow = m.group(2).equals("overflow");
      int c = counter(m.group(3), counters);
      return new BreakCondition(t) {
        @Override
        Boolean state(DiseEngine e) {
          boolean f = overflow ? e.hps().overflow(c) : e.hps().zero(c);
          return f != negate;
        }
      };
    }
    if (t.matches("[A-Za-z_][A-Za-z0-9_.#]*")) {
      int p = production.applyAsInt(t);
      if (p < 0) {
        throw new ReplError(
            "no production labelled " + t + " in the running set (:tables" + " lists them)");
      }
      return new BreakCondition(t + " matches") {
        @Override
        boolean before(DiseEngine engine, DecodedInsn d) {
          return engine.matchesNow(d, p);
        }
      };
    }
    throw new ReplError(
        "cannot read the condition `"
            + t
            + "`: write a production label (P3),"
            + " counter N == V (or != < <= > >=), zero_N, overflow_N, !zero_N, sink NAME count >= V,"
            + " sink NAME[KEY] >= V, or pc == symbol(f)");
  }

  private static int sink(DiseEngine engine, String name) {
    for (int i = 0; i < engine.sinks().size(); i++) {
      if (engine.sinks().get(i).name().equals(name)) {
        return i;
      }
    }
    throw new ReplError(
        "no sink named "
            + name
            + " in the running set (sinks: "
            + String.join(", ", engine.sinks().stream().map(s -> s.name()).toList())
            + ")");
  }

  /**
   * The weight of a profile's entries for {@code key}: the entry whose key is exactly it (as {@code
   * acf compare} keys them: {@code 0x10552|0x19e4e}), else the sum over the rows that have it as a
   * cell (a function name, an address).
   */
  static long keyWeight(ProfileTable t, String key) {
    Long exact = t.weights().get(key);
    if (exact != null) {
      return exact;
    }
    int w = t.header().indexOf(t.weight());
    long sum = 0;
    for (List<String> r : t.rows()) {
      if (r.contains(key)) {
        sum += Long.parseLong(r.get(w));
      }
    }
    return sum;
  }

  private static boolean compare(long x, String op, long v) {
    return switch (op) {
      case "==" -> x == v;
      case "!=" -> x != v;
      case "<" -> x < v;
      case "<=" -> x <= v;
      case ">" -> x > v;
      default -> x >= v;
    };
  }

  private static int counter(String n, int counters) {
    int c = Integer.parseInt(n);
    if (c >= counters) {
      throw new ReplError("no counter " + c + " (counters 0.." + (counters - 1) + ")");
    }
    return c;
  }

  private static long parse(String s) {
    s = s.replace("_", "");
    boolean neg = s.startsWith("-");
    String body = neg ? s.substring(1) : s;
    long v =
        body.startsWith("0x") || body.startsWith("0X")
            ? Long.parseUnsignedLong(body.substring(2), 16)
            : Long.parseLong(body);
    return neg ? -v : v;
  }
}
