package org.dise.compiler;

import java.nio.file.Path;
import org.dise.compiler.diag.DiagnosticRenderer;
import org.dise.compiler.diag.SourceFile;
import org.dise.compiler.lib.DirectoryLibraryResolver;

/** Shared helpers: the front end with the conformance fixtures as its library. */
final class TestSupport {
  static final Path LIB = Path.of("..", "spec", "conformance", "lib");

  private TestSupport() {}

  static Frontend frontend() {
    return Frontend.standard().withLibrary(new DirectoryLibraryResolver(LIB));
  }

  static Frontend.Result check(String text) {
    return frontend().check(new SourceFile("t.acf", text), null);
  }

  /** Every diagnostic, rendered, in source order. */
  static String rendered(String text) {
    return DiagnosticRenderer.renderAll(check(text).diagnostics().sorted());
  }

  /** The first lines of every diagnostic ({@code t.acf:1:2: error: ...}), one per line. */
  static String headlines(String text) {
    StringBuilder sb = new StringBuilder();
    check(text).diagnostics().sorted().forEach(d -> sb.append(d.headline()).append('\n'));
    return sb.toString().strip();
  }
}
