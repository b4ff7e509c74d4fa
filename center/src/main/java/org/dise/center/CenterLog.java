package org.dise.center;

/**
 * Values from the network written into the center's log: control characters escaped, so that a
 * {@code %0A} in a query or a newline in a program name cannot forge a log line.
 */
public final class CenterLog {
  private CenterLog() {}

  /**
   * {@code s} with backslashes doubled and control characters as escapes (backslash-n, backslash-u
   * and four hex digits).
   */
  public static String escape(String s) {
    if (s == null) {
      return "null";
    }
    StringBuilder sb = null;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean control =
          c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f) || c == 0x2028 || c == 0x2029;
      if (!control && c != '\\') {
        if (sb != null) {
          sb.append(c);
        }
        continue;
      }
      if (sb == null) {
        sb = new StringBuilder(s.length() + 16).append(s, 0, i);
      }
      switch (c) {
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> sb.append(String.format("\\u%04x", (int) c));
      }
    }
    return sb == null ? s : sb.toString();
  }
}
