package org.dise.compiler.diag;

/** How bad a diagnostic is: errors stop the toolchain, warnings and notes do not. */
public enum Severity {
  ERROR,
  WARNING,
  NOTE;

  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
