package org.dise.repl.common;

import java.util.Collection;
import java.util.Map;

/**
 * summary.json's members as text, written as Jackson's {@code ObjectMapper} writes them (compact,
 * the same escapes), without loading Jackson: building a mapper loads about 370 classes, which a
 * run with {@code --out} paid only to write this one file (docs/benchmarks.md, issue 14). It takes
 * the values {@link RunSummary} puts in: maps, lists, strings, whole numbers, doubles, booleans and
 * null; {@code SummaryJsonTest} holds it to Jackson's output.
 */
public final class SummaryJson {
  private SummaryJson() {}

  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  /** {@code value} as JSON; an unexpected type is an {@link IllegalArgumentException}. */
  public static String write(Object value) {
    StringBuilder out = new StringBuilder();
    write(value, out);
    return out.toString();
  }

  private static void write(Object v, StringBuilder out) {
    if (v == null) {
      out.append("null");
    } else if (v instanceof String s) {
      string(s, out);
    } else if (v instanceof Long
        || v instanceof Integer
        || v instanceof Short
        || v instanceof Byte) {
      out.append(v);
    } else if (v instanceof Double d) {
      out.append(Double.toString(d));
    } else if (v instanceof Boolean b) {
      out.append(b.booleanValue());
    } else if (v instanceof Json.Num n) {
      out.append(n.text()); // as read (acf report --format json passes summary.json through)
    } else if (v instanceof Map<?, ?> m) {
      out.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : m.entrySet()) {
        if (!(e.getKey() instanceof String key)) {
          throw new IllegalArgumentException("a map key that is not a string: " + e.getKey());
        }
        if (!first) {
          out.append(',');
        }
        first = false;
        string(key, out);
        out.append(':');
        write(e.getValue(), out);
      }
      out.append('}');
    } else if (v instanceof Collection<?> c) {
      out.append('[');
      boolean first = true;
      for (Object o : c) {
        if (!first) {
          out.append(',');
        }
        first = false;
        write(o, out);
      }
      out.append(']');
    } else {
      throw new IllegalArgumentException("no JSON form for " + v.getClass().getName());
    }
  }

  /** A JSON string: quote, backslash and control characters escaped as Jackson does. */
  private static void string(String s, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\t' -> out.append("\\t");
        case '\r' -> out.append("\\r");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        default -> {
          if (c < 0x20) {
            out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xf]);
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
