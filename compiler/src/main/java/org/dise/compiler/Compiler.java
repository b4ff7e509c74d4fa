package org.dise.compiler;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.dise.compiler.diag.Diagnostics;
import org.dise.compiler.diag.SourceFile;
import org.dise.compiler.lower.Lowering;
import org.dise.compiler.sem.CheckedProgram;
import org.dise.runtime.dise.ProductionSet;

/**
 * The compiler's one entry point: {@code compile(files) -> (diagnostics, production set)}. Its
 * passes are one list: the {@link Frontend}'s pipeline for each file, then {@code composition}
 * (several files share counters and sinks, {@link Composition}) and {@code lowering} (the PT, CT
 * and RT of a {@link ProductionSet}). {@code acf run --acf}, {@code acf compile}, {@code acf bench}
 * and the built-in ACFs of commands all come through here.
 */
public final class Compiler {
  /** The passes after the front end's, in order. */
  public static final List<String> BACK_END = List.of("composition", "lowering");

  /** One source: its text and the path its relative imports resolve against (may be null). */
  public record Input(SourceFile source, Path path) {}

  /** The outcome: every diagnostic, each file's front-end result, and the set if no errors. */
  public record Compilation(
      Diagnostics diagnostics,
      List<Frontend.Result> files,
      Optional<CheckedProgram> program,
      Optional<ProductionSet> productions) {
    public boolean ok() {
      return productions.isPresent();
    }

    /** Every file the inputs imported, transitively, by absolute path, with the text read. */
    public java.util.Map<Path, String> importedFiles() {
      java.util.Map<Path, String> all = new java.util.LinkedHashMap<>();
      files.forEach(f -> all.putAll(f.importedFiles()));
      return all;
    }
  }

  private final Frontend frontend;

  public Compiler(Frontend frontend) {
    this.frontend = frontend;
  }

  public static Compiler standard() {
    return new Compiler(Frontend.standard());
  }

  /** Every pass name, in order: the front end's, then composition and lowering. */
  public List<String> passes() {
    List<String> names =
        new ArrayList<>(frontend.pipeline().stream().map(Frontend.Pass::name).toList());
    names.addAll(BACK_END);
    return names;
  }

  /**
   * Compiles {@code inputs} into one production set; a later stage runs only when the earlier ones
   * reported no error, so their diagnostics are not followed by consequential ones.
   */
  public Compilation compile(List<Input> inputs) {
    Diagnostics diags = new Diagnostics();
    List<Frontend.Result> results = new ArrayList<>();
    List<CheckedProgram> programs = new ArrayList<>();
    for (Input in : inputs) {
      Frontend.Result r = frontend.check(in.source(), in.path());
      results.add(r);
      r.diagnostics().all().forEach(diags::add);
      r.program().ifPresent(programs::add);
    }
    Optional<CheckedProgram> composed = Optional.empty();
    Optional<ProductionSet> set = Optional.empty();
    if (programs.size() == inputs.size() && diags.errorCount() == 0 && !inputs.isEmpty()) {
      composed =
          Composition.compose(
              programs, inputs.stream().map(i -> i.source().name()).toList(), diags);
      if (composed.isPresent()) {
        set = Lowering.lower(composed.get(), diags);
      }
    }
    return new Compilation(diags, results, composed, set);
  }
}
