package org.dise.repl;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.dise.compiler.Compiler;
import org.dise.compiler.Composition;
import org.dise.compiler.diag.DiagnosticRenderer;
import org.dise.compiler.diag.Diagnostics;
import org.dise.repl.common.Tty;
import org.dise.repl.common.UserError;
import org.dise.repl.common.Verbosity;
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
    long t0 = System.nanoTime();
    ProductionSet set = result(files, Compiler.standard().compile(inputs), consequence);
    Verbosity.debug(System.err, "compiled %s in %.0f ms", files, (System.nanoTime() - t0) / 1e6);
    return set;
  }

  /** The set {@code c} produced, after printing its diagnostics; a user error if it has none. */
  private static ProductionSet result(
      List<Path> files, Compiler.Compilation c, String consequence) {
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

  /**
   * As {@link #load(List)}, through {@code cache} (may be null): a set compiled before from the
   * same texts is read back without the compiler; a set compiled now with no diagnostic is kept.
   */
  static ProductionSet load(List<Path> files, AcfCache cache) {
    AcfCache.Lookup lookup = cache == null ? null : cache.lookup(files);
    if (lookup != null) {
      ProductionSet cached = cache.get(lookup);
      if (cached != null) {
        Verbosity.debug(System.err, "ACF cache: hit for " + files + ", the compiler not loaded");
        return cached;
      }
    }
    Verbosity.debug(
        System.err,
        cache == null
            ? "ACF cache: off (--no-cache, ACF_CACHE=off, or outside the launcher); compiling "
                + files
            : "ACF cache: miss for " + files + "; compiling");
    long t0 = System.nanoTime();
    List<Compiler.Input> inputs = new ArrayList<>();
    boolean same = lookup != null;
    for (int i = 0; i < files.size(); i++) {
      org.dise.compiler.diag.SourceFile source = CheckCommand.read(files.get(i));
      inputs.add(new Compiler.Input(source, files.get(i)));
      // Kept only if the compiler read the bytes the key was made of.
      same &=
          lookup != null
              && source
                  .text()
                  .equals(
                      new String(lookup.texts().get(i), java.nio.charset.StandardCharsets.UTF_8));
    }
    Compiler.Compilation c = Compiler.standard().compile(inputs);
    ProductionSet set = result(files, c, "nothing was run");
    boolean keep = same && c.diagnostics().all().isEmpty();
    if (keep) {
      cache.put(lookup, set, c.importedFiles());
    }
    Verbosity.debug(
        System.err,
        "compiled %s in %.0f ms%s",
        files,
        (System.nanoTime() - t0) / 1e6,
        keep
            ? "; kept in the ACF cache"
            : cache == null ? "" : "; not cached (it has diagnostics, or changed while read)");
    return set;
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
