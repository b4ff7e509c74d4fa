package org.dise.repl.shell;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.dise.runtime.dise.DiseEngine;
import org.dise.runtime.isa.DecodedInsn;

/**
 * A conditional breakpoint ({@code :break when EXPR}): a production matching (checked before the
 * instruction it matches runs), or a state of the HPS counters ({@code counter N OP V},
 * {@code zero_N}, {@code overflow_N}, negated with {@code !}) or of a sink's count of events
 * ({@code sink NAME count OP V}), which stops the program after the instruction that makes it
 * true (edge-triggered: a condition already true when the program resumes stops it only once it
 * has been false).
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

  private static final Pattern COUNTER = Pattern.compile(
      "counter\\s*(\\d+)\\s*(==|!=|<=|>=|<|>)\\s*(-?(?:0[xX][0-9a-fA-F_]+|[0-9_]+))");
  private static final Pattern SINK = Pattern.compile(
      "sink\\s+([A-Za-z_][A-Za-z0-9_]*)\\s+count\\s*(==|!=|<=|>=|<|>)\\s*([0-9_]+|0[xX][0-9a-fA-F_]+)");
  private static final Pattern FLAG = Pattern.compile("(!)?\\s*(zero|overflow)_(\\d+)"
      + "(?:\\s*==\\s*([01]))?");

  /**
   * Parses a condition; {@code productionIndex} finds a production by label (-1: none). A
   * {@code pc == ...} condition is an address breakpoint and is handled by the caller.
   *
   * @throws ReplError saying what is accepted
   */
  static BreakCondition parse(String text, java.util.function.ToIntFunction<String> production,
      DiseEngine engine) {
    int counters = engine.hps().count();
    String t = text.strip();
    Matcher m = SINK.matcher(t);
    if (m.matches()) {
      String name = m.group(1);
      int sink = -1;
      for (int i = 0; i < engine.sinks().size(); i++) {
        if (engine.sinks().get(i).name().equals(name)) {
          sink = i;
        }
      }
      if (sink < 0) {
        throw new ReplError("no sink named " + name + " in the running set (sinks: "
            + String.join(", ", engine.sinks().stream().map(s -> s.name()).toList()) + ")");
      }
      int index = sink;
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
        throw new ReplError("no production labelled " + t + " in the running set (:tables"
            + " lists them)");
      }
      return new BreakCondition(t + " matches") {
        @Override
        boolean before(DiseEngine engine, DecodedInsn d) {
          return engine.matchesNow(d, p);
        }
      };
    }
    throw new ReplError("cannot read the condition `" + t + "`: write a production label (P3),"
        + " counter N == V (or != < <= > >=), zero_N, overflow_N, !zero_N, sink NAME count >= V,"
        + " or pc == symbol(f)");
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
    long v = body.startsWith("0x") || body.startsWith("0X")
        ? Long.parseUnsignedLong(body.substring(2), 16) : Long.parseLong(body);
    return neg ? -v : v;
  }
}
