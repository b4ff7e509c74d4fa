package org.dise.compiler.diag;

import java.util.Arrays;

/** The text of one ACF file with its display name, and the map from offsets to lines. */
public final class SourceFile {
  private final String name;
  private final String text;
  private final int[] lineStarts;

  public SourceFile(String name, String text) {
    this.name = name;
    this.text = text;
    int n = 1;
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) == '\n') {
        n++;
      }
    }
    lineStarts = new int[n];
    int k = 1;
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) == '\n') {
        lineStarts[k++] = i + 1;
      }
    }
  }

  /** The name diagnostics print: the path as the user gave it, or {@code lib:NAME}. */
  public String name() {
    return name;
  }

  public String text() {
    return text;
  }

  /** 1-based line of a 0-based character offset. */
  public int line(int offset) {
    int i = Arrays.binarySearch(lineStarts, Math.max(0, Math.min(offset, text.length())));
    return (i >= 0 ? i : -i - 2) + 1;
  }

  /** 1-based column of an offset, counting code points so that `⇒` is one column. */
  public int column(int offset) {
    int o = Math.max(0, Math.min(offset, text.length()));
    int start = lineStarts[line(o) - 1];
    return text.codePointCount(start, o) + 1;
  }

  /** The text of a 1-based line without its line terminator. */
  public String lineText(int line) {
    int start = lineStarts[line - 1];
    int end = line < lineStarts.length ? lineStarts[line] - 1 : text.length();
    if (end > start && text.charAt(end - 1) == '\r') {
      end--;
    }
    return text.substring(start, Math.max(start, end));
  }

  public int lineCount() {
    return lineStarts.length;
  }

  @Override
  public String toString() {
    return name;
  }
}
