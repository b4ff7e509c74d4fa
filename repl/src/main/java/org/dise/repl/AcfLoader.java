package org.dise.repl;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.dise.compiler.Composition;
import org.dise.compiler.Frontend;
import org.dise.compiler.diag.DiagnosticRenderer;
import org.dise.compiler.diag.Diagnostics;
import org.dise.compiler.lower.Lowering;
import org.dise.compiler.sem.CheckedProgram;
import org.dise.runtime.dise.ProductionSet;

/** Checks and lowers the ACF files of {@code --acf}, reporting diagnostics as {@code acf check}. */
final class AcfLoader {
  private AcfLoader() {}

  static ProductionSet load(List<Path> files) {
    return load(files, "nothing was run");
  }

  /**
   * As {@link #load(List)}; {@code consequence} ends the error summary. Several files compose
   * into one production set in the order given (see {@link Composition}).
   */
  static ProductionSet load(List<Path> files, String consequence) {
    Diagnostics diags = new Diagnostics();
    List<CheckedProgram> programs = new ArrayList<>();
    for (Path file : files) {
      Frontend.Result r = Frontend.standard().check(CheckCommand.read(file), file);
      r.diagnostics().all().forEach(diags::add);
      r.program().ifPresent(programs::add);
    }
    Optional<ProductionSet> set = Optional.empty();
    if (programs.size() == files.size() && diags.errorCount() == 0) {
      Optional<CheckedProgram> composed = Composition.compose(programs,
          files.stream().map(Path::toString).toList(), diags);
      if (composed.isPresent()) {
        set = Lowering.lower(composed.get(), diags);
      }
    }
    if (diags.errorCount() > 0 || diags.warningCount() > 0) {
      System.err.print(DiagnosticRenderer.renderAll(diags.sorted(), Tty.colourStderr()));
    }
    if (set.isEmpty()) {
      String what = files.size() == 1 ? files.get(0).toString() : String.join(" + ",
          files.stream().map(Path::toString).toList());
      throw new UserError(what + ": " + diags.errorCount()
          + (diags.errorCount() == 1 ? " error" : " errors") + "; " + consequence);
    }
    return set.get();
  }

  /** Checks and lowers ACF text (a built-in ACF of a command); its errors are internal. */
  static ProductionSet compile(String name, String text) {
    Frontend.Result r = Frontend.standard().check(
        new org.dise.compiler.diag.SourceFile(name, text), Path.of(name));
    Diagnostics diags = r.diagnostics();
    Optional<ProductionSet> set = r.program().flatMap(p -> Lowering.lower(p, diags));
    if (set.isEmpty()) {
      throw new IllegalStateException(name + ": " + DiagnosticRenderer.renderAll(diags.sorted()));
    }
    return set.get();
  }
}
