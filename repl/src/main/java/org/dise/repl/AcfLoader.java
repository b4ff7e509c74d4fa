package org.dise.repl;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.dise.compiler.Compiler;
import org.dise.compiler.Composition;
import org.dise.compiler.diag.DiagnosticRenderer;
import org.dise.compiler.diag.Diagnostics;
import org.dise.runtime.dise.ProductionSet;

/** Checks and lowers the ACF files of {@code --acf}, reporting diagnostics as {@code acf check}. */
final class AcfLoader {
  private AcfLoader() {}

  static ProductionSet load(List<Path> files) {
    return load(files, "nothing was run");
  }

  /**
   * As {@link #load(List)}; {@code consequence} ends the error summary. Several files compose into
   * one production set in the order given (see {@link Composition}).
   */
  static ProductionSet load(List<Path> files, String consequence) {
    List<Compiler.Input> inputs = new ArrayList<>();
    for (Path file : files) {
      inputs.add(new Compiler.Input(CheckCommand.read(file), file));
    }
    Compiler.Compilation c = Compiler.standard().compile(inputs);
    Diagnostics diags = c.diagnostics();
    Optional<ProductionSet> set = c.productions();
    if (diags.errorCount() > 0 || diags.warningCount() > 0) {
      System.err.print(DiagnosticRenderer.renderAll(diags.sorted(), Tty.colourStderr()));
    }
    if (set.isEmpty()) {
      String what =
          files.size() == 1
              ? files.get(0).toString()
              : String.join(" + ", files.stream().map(Path::toString).toList());
      throw new UserError(
          what
              + ": "
              + diags.errorCount()
              + (diags.errorCount() == 1 ? " error" : " errors")
              + "; "
              + consequence);
    }
    return set.get();
  }

  /** Checks and lowers ACF text (a built-in ACF of a command); its errors are internal. */
  static ProductionSet compile(String name, String text) {
    Compiler.Compilation c =
        Compiler.standard()
            .compile(
                List.of(
                    new Compiler.Input(
                        new org.dise.compiler.diag.SourceFile(name, text), Path.of(name))));
    Diagnostics diags = c.diagnostics();
    Optional<ProductionSet> set = c.productions();
    if (set.isEmpty()) {
      throw new IllegalStateException(name + ": " + DiagnosticRenderer.renderAll(diags.sorted()));
    }
    return set.get();
  }
}
