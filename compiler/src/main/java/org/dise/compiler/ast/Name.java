package org.dise.compiler.ast;

import java.util.Locale;
import org.dise.compiler.diag.Span;

/** An identifier as written; names of the language compare case-insensitively ({@link #key}). */
public record Name(String text, Span span) implements Node {
  /** The form names are compared and looked up by. */
  public String key() {
    return text.toLowerCase(Locale.ROOT);
  }

  @Override
  public String toString() {
    return text;
  }
}
