package org.dise.compiler.diag;

import java.util.Objects;

/** One message about the source: where, how bad, what, and optionally how to fix it. */
public record Diagnostic(Severity severity, Span span, String message, String hint) {
  public Diagnostic {
    Objects.requireNonNull(severity, "severity");
    Objects.requireNonNull(span, "span");
    Objects.requireNonNull(message, "message");
  }

  /** {@code file:line:col: severity: message}, the first line of the rendered form. */
  public String headline() {
    return span.file().name()
        + ":"
        + span.line()
        + ":"
        + span.column()
        + ": "
        + severity.label()
        + ": "
        + message;
  }
}
