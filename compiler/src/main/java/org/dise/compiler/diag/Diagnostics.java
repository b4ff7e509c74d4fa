package org.dise.compiler.diag;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/** The collector every stage reports into, so that one run reports every problem. */
public final class Diagnostics {
  private final List<Diagnostic> all = new ArrayList<>();
  private final java.util.Set<String> seen = new java.util.HashSet<>();

  public void error(Span span, String message) {
    add(new Diagnostic(Severity.ERROR, span, message, null));
  }

  public void error(Span span, String message, String hint) {
    add(new Diagnostic(Severity.ERROR, span, message, hint));
  }

  public void warning(Span span, String message) {
    add(new Diagnostic(Severity.WARNING, span, message, null));
  }

  public void warning(Span span, String message, String hint) {
    add(new Diagnostic(Severity.WARNING, span, message, hint));
  }

  public void add(Diagnostic d) {
    // The same message at the same place twice (e.g. an instantiated block used twice) is noise.
    String key =
        d.severity()
            + "@"
            + System.identityHashCode(d.span().file())
            + ":"
            + d.span().start()
            + ":"
            + d.message();
    if (seen.add(key)) {
      all.add(d);
    }
  }

  public boolean hasErrors() {
    return all.stream().anyMatch(d -> d.severity() == Severity.ERROR);
  }

  public int errorCount() {
    return (int) all.stream().filter(d -> d.severity() == Severity.ERROR).count();
  }

  public int warningCount() {
    return (int) all.stream().filter(d -> d.severity() == Severity.WARNING).count();
  }

  /** All diagnostics in source order (file name, then offset), stable for equal positions. */
  public List<Diagnostic> sorted() {
    List<Diagnostic> copy = new ArrayList<>(all);
    copy.sort(
        Comparator.comparing((Diagnostic d) -> d.span().file().name())
            .thenComparingInt(d -> d.span().start()));
    return Collections.unmodifiableList(copy);
  }

  public List<Diagnostic> all() {
    return Collections.unmodifiableList(all);
  }
}
