package org.dise.repl;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
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

  /** As {@link #load(List)}; {@code consequence} ends the error summary. */
  static ProductionSet load(List<Path> files, String consequence) {
    if (files.size() > 1) {
      // Several ACFs compose inside one file (`use` blocks); across files is not done yet.
      throw new UserError("--acf: one file for now; compose ACFs in one file with `use`",
          Main.EXIT_USAGE);
    }
    Path file = files.get(0);
    Frontend.Result r = Frontend.standard().check(CheckCommand.read(file), file);
    Diagnostics diags = r.diagnostics();
    Optional<ProductionSet> set = Optional.empty();
    if (r.program().isPresent()) {
      CheckedProgram p = r.program().get();
      set = Lowering.lower(p, diags);
    }
    if (diags.errorCount() > 0 || diags.warningCount() > 0) {
      System.err.print(DiagnosticRenderer.renderAll(diags.sorted()));
    }
    if (set.isEmpty()) {
      throw new UserError(file + ": " + diags.errorCount()
          + (diags.errorCount() == 1 ? " error" : " errors") + "; " + consequence);
    }
    return set.get();
  }
}
