package org.dise.repl;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The little JSON that profile files need: string quoting for writing, and a reader that gives
 * objects as maps, arrays as lists, strings as strings, {@code true}/{@code false} as booleans,
 * {@code null} as null and numbers as {@link Num} (their text, so counts keep every digit).
 */
final class Json {
  /** A JSON number as written. */
  record Num(String text) {
    @Override
    public String toString() {
      return text;
    }
  }

  private final String s;
  private int i;

  private Json(String s) {
    this.s = s;
  }

  /** {@code text} as a JSON string literal. */
  static String quote(String text) {
    StringBuilder sb = new StringBuilder("\"");
    for (char c : text.toCharArray()) {
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\t' -> sb.append("\\t");
        case '\r' -> sb.append("\\r");
        default -> {
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    return sb.append('"').toString();
  }

  /**
   * Parses one JSON value.
   *
   * @throws IllegalArgumentException with the line and column where the text stops being JSON
   */
  static Object parse(String text) {
    Json j = new Json(text);
    Object v = j.value();
    j.space();
    if (j.i != text.length()) {
      throw j.error("unexpected text after the value");
    }
    return v;
  }

  private Object value() {
    space();
    if (i >= s.length()) {
      throw error("unexpected end of input");
    }
    char c = s.charAt(i);
    if (c == '{') {
      i++;
      Map<String, Object> m = new LinkedHashMap<>();
      space();
      if (peek('}')) {
        return m;
      }
      do {
        space();
        if (i >= s.length() || s.charAt(i) != '"') {
          throw error("expected a string key");
        }
        String k = string();
        space();
        expect(':');
        m.put(k, value());
        space();
      } while (accept(','));
      expect('}');
      return m;
    }
    if (c == '[') {
      i++;
      List<Object> l = new ArrayList<>();
      space();
      if (peek(']')) {
        return l;
      }
      do {
        l.add(value());
        space();
      } while (accept(','));
      expect(']');
      return l;
    }
    if (c == '"') {
      return string();
    }
    for (String w : new String[] {"true", "false", "null"}) {
      if (s.startsWith(w, i)) {
        i += w.length();
        return w.equals("null") ? null : Boolean.valueOf(w);
      }
    }
    int start = i;
    while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
      i++;
    }
    if (start == i) {
      throw error("unexpected `" + c + "`");
    }
    return new Num(s.substring(start, i));
  }

  private String string() {
    i++;
    StringBuilder sb = new StringBuilder();
    while (i < s.length() && s.charAt(i) != '"') {
      char c = s.charAt(i++);
      if (c == '\\' && i < s.length()) {
        char e = s.charAt(i++);
        switch (e) {
          case 'n' -> sb.append('\n');
          case 't' -> sb.append('\t');
          case 'r' -> sb.append('\r');
          case 'b' -> sb.append('\b');
          case 'f' -> sb.append('\f');
          case 'u' -> {
            if (i + 4 > s.length()) {
              throw error("bad \\u escape");
            }
            sb.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
            i += 4;
          }
          default -> sb.append(e);
        }
      } else {
        sb.append(c);
      }
    }
    expect('"');
    return sb.toString();
  }

  private void space() {
    while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
      i++;
    }
  }

  private boolean peek(char c) {
    if (i < s.length() && s.charAt(i) == c) {
      i++;
      return true;
    }
    return false;
  }

  private boolean accept(char c) {
    return peek(c);
  }

  private void expect(char c) {
    if (!peek(c)) {
      throw error("expected `" + c + "`");
    }
  }

  private IllegalArgumentException error(String message) {
    int line = 1;
    int col = 1;
    for (int k = 0; k < Math.min(i, s.length()); k++) {
      if (s.charAt(k) == '\n') {
        line++;
        col = 1;
      } else {
        col++;
      }
    }
    return new IllegalArgumentException(line + ":" + col + ": " + message);
  }
}
