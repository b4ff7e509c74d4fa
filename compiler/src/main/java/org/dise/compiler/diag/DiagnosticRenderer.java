package org.dise.compiler.diag;

import java.util.List;

/**
 * Renders diagnostics for people: {@code file:line:col: error: message}, the source line, a {@code
 * ^~~~} underline of the span, and the hint (after bpftrace's diagnostics).
 */
public final class DiagnosticRenderer {
  private DiagnosticRenderer() {}

  public static String render(Diagnostic d) {
    return render(d, false);
  }

  // ANSI SGR sequences, used only when the caller knows it writes to a terminal.
  private static final String BOLD = "\u001b[1m";
  private static final String RED = "\u001b[1;31m";
  private static final String MAGENTA = "\u001b[1;35m";
  private static final String GREEN = "\u001b[1;32m";
  private static final String CYAN = "\u001b[36m";
  private static final String RESET = "\u001b[0m";

  /**
   * As {@link #render(Diagnostic)}; with {@code colour}, the location is bold, the severity red
   * (error) or magenta (warning), the underline green and the hint cyan, as compilers colour their
   * diagnostics on a terminal.
   */
  public static String render(Diagnostic d, boolean colour) {
    StringBuilder sb = new StringBuilder();
    if (colour) {
      Span at = d.span();
      String sev = d.severity() == Severity.ERROR ? RED : MAGENTA;
      sb.append(BOLD)
          .append(at.file().name())
          .append(':')
          .append(at.line())
          .append(':')
          .append(at.column())
          .append(':')
          .append(RESET)
          .append(' ')
          .append(sev)
          .append(d.severity().label())
          .append(':')
          .append(RESET)
          .append(' ')
          .append(BOLD)
          .append(d.message())
          .append(RESET)
          .append('\n');
    } else {
      sb.append(d.headline()).append('\n');
    }
    Span s = d.span();
    SourceFile f = s.file();
    if (!s.isNone() && f.lineCount() > 0 && !f.text().isEmpty()) {
      int line = s.line();
      String text = f.lineText(line).replace('\t', ' ');
      sb.append("    ").append(text).append('\n');
      int col = s.column();
      int lineEndCol = text.codePointCount(0, text.length()) + 1;
      int endCol =
          s.end() > s.start() && f.line(s.end() - 1) == line
              ? f.column(s.end() - 1) + 1
              : Math.min(lineEndCol, col + 1);
      int width = Math.max(1, endCol - col);
      sb.append("    ")
          .append(" ".repeat(Math.max(0, col - 1)))
          .append(colour ? GREEN : "")
          .append('^')
          .append("~".repeat(width - 1))
          .append(colour ? RESET : "")
          .append('\n');
    }
    if (d.hint() != null) {
      sb.append("    ")
          .append(colour ? CYAN + "hint:" + RESET : "hint:")
          .append(' ')
          .append(d.hint())
          .append('\n');
    }
    return sb.toString();
  }

  public static String renderAll(List<Diagnostic> ds) {
    return renderAll(ds, false);
  }

  /** Every diagnostic, in order; coloured as {@link #render(Diagnostic, boolean)} says. */
  public static String renderAll(List<Diagnostic> ds, boolean colour) {
    StringBuilder sb = new StringBuilder();
    for (Diagnostic d : ds) {
      sb.append(render(d, colour));
    }
    return sb.toString();
  }

  /** The closing line: {@code 2 errors, 1 warning}. */
  public static String summary(Diagnostics ds) {
    int e = ds.errorCount();
    int w = ds.warningCount();
    return e + (e == 1 ? " error, " : " errors, ") + w + (w == 1 ? " warning" : " warnings");
  }

  /** Diagnostics as a JSON array for editors: one object per diagnostic, 1-based positions. */
  public static String json(List<Diagnostic> ds) {
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < ds.size(); i++) {
      Diagnostic d = ds.get(i);
      Span s = d.span();
      int endOffset = Math.max(s.start(), s.end());
      sb.append(i == 0 ? "\n  " : ",\n  ")
          .append('{')
          .append("\"file\": ")
          .append(quote(s.file().name()))
          .append(", \"severity\": ")
          .append(quote(d.severity().label()))
          .append(", \"line\": ")
          .append(s.line())
          .append(", \"column\": ")
          .append(s.column())
          .append(", \"endLine\": ")
          .append(s.file().line(endOffset))
          .append(", \"endColumn\": ")
          .append(s.file().column(endOffset))
          .append(", \"message\": ")
          .append(quote(d.message()))
          .append(", \"hint\": ")
          .append(d.hint() == null ? "null" : quote(d.hint()))
          .append('}');
    }
    return sb.append(ds.isEmpty() ? "]" : "\n]").toString();
  }

  static String quote(String s) {
    StringBuilder sb = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
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
}
