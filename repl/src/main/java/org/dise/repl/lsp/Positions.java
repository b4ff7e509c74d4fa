package org.dise.repl.lsp;

import org.dise.compiler.diag.Span;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.Range;

/**
 * Offsets in a text and LSP positions (0-based line, character in UTF-16 code units, which is what
 * a Java string index counts: the protocol's default encoding).
 */
final class Positions {
  private Positions() {}

  static Position position(String text, int offset) {
    int o = Math.max(0, Math.min(offset, text.length()));
    int line = 0;
    int lineStart = 0;
    for (int i = 0; i < o; i++) {
      if (text.charAt(i) == '\n') {
        line++;
        lineStart = i + 1;
      }
    }
    return new Position(line, o - lineStart);
  }

  static int offset(String text, Position p) {
    int line = 0;
    int i = 0;
    while (line < p.getLine() && i < text.length()) {
      if (text.charAt(i++) == '\n') {
        line++;
      }
    }
    int end = text.indexOf('\n', i);
    end = end < 0 ? text.length() : end;
    return Math.min(i + Math.max(0, p.getCharacter()), end);
  }

  static Range range(String text, int start, int end) {
    return new Range(position(text, start), position(text, Math.max(start, end)));
  }

  static Range range(Span span) {
    return range(span.file().text(), span.start(), span.end());
  }
}
