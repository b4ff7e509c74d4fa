package org.dise.compiler;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.dise.compiler.ast.AcfFile;
import org.dise.compiler.diag.Diagnostics;
import org.dise.compiler.diag.SourceFile;
import org.dise.compiler.isa.InstructionTable;
import org.dise.compiler.isa.RuntimeInstructionTable;
import org.dise.compiler.lib.ClasspathLibraryResolver;
import org.dise.compiler.lib.LibraryResolver;
import org.dise.compiler.parse.AcfParsing;
import org.dise.compiler.passes.BudgetCheck;
import org.dise.compiler.passes.ImportLoading;
import org.dise.compiler.passes.LoadedProgram;
import org.dise.compiler.passes.MixedLogicLint;
import org.dise.compiler.passes.NameResolution;
import org.dise.compiler.passes.OperandCheck;
import org.dise.compiler.passes.ShadowedProductionLint;
import org.dise.compiler.passes.SinkUseCheck;
import org.dise.compiler.passes.StaticPatternCheck;
import org.dise.compiler.passes.UnusedReplacementLint;
import org.dise.compiler.sem.CheckedAcf;
import org.dise.compiler.sem.CheckedProgram;

/**
 * The compiler's front end: the whole pipeline from text to checked program, assembled here in
 * one place. Every stage reports into one {@link Diagnostics}, so one run reports every error.
 *
 * <pre>
 *   parse -> import-loading -> name-resolution -> static-patterns -> operands -> budget
 *         -> lints (unused-replacements, shadowed-productions, mixed-logic)
 * </pre>
 */
public final class Frontend {
  /** The pass names in pipeline order, for documentation and {@code --help}. */
  public static final List<String> PASSES = List.of("parse", ImportLoading.NAME,
      NameResolution.NAME, SinkUseCheck.NAME, StaticPatternCheck.NAME, OperandCheck.NAME, BudgetCheck.NAME,
      UnusedReplacementLint.NAME, ShadowedProductionLint.NAME, MixedLogicLint.NAME);

  /** The outcome: the diagnostics, the main file's AST if it parsed, the program if no errors. */
  public record Result(Diagnostics diagnostics, Optional<AcfFile> ast,
      Optional<CheckedProgram> program) {
    public boolean ok() {
      return !diagnostics.hasErrors();
    }
  }

  private final LibraryResolver library;
  private final InstructionTable isa;
  private final Budget budget;

  /** A front end; components come from the runtime's one catalogue ({@code Catalogue}). */
  public Frontend(LibraryResolver library, InstructionTable isa, Budget budget) {
    this.library = library;
    this.isa = isa;
    this.budget = budget;
  }

  /** The standard front end: the paper's budget, the runtime's ISA, the classpath library. */
  public static Frontend standard() {
    return new Frontend(ClasspathLibraryResolver.standard(), RuntimeInstructionTable.get(),
        Budget.PAPER);
  }

  public Frontend withLibrary(LibraryResolver library) {
    return new Frontend(library, isa, budget);
  }

  public Frontend withBudget(Budget budget) {
    return new Frontend(library, isa, budget);
  }

  /** Checks a file; an unreadable file is a diagnostic-free {@link IOException}. */
  public Result checkFile(Path path) throws IOException {
    String text = Files.readString(path, StandardCharsets.UTF_8);
    return check(new SourceFile(path.toString(), text), path);
  }

  /** Checks source text; {@code path} (may be null) anchors relative imports. */
  public Result check(SourceFile source, Path path) {
    Diagnostics diags = new Diagnostics();
    try {
      return run(source, path, diags);
    } catch (StackOverflowError e) {
      diags.error(new org.dise.compiler.diag.Span(source, 0, 0),
          "the program is nested too deeply to check");
      return new Result(diags, Optional.empty(), Optional.empty());
    }
  }

  private Result run(SourceFile source, Path path, Diagnostics diags) {
    Optional<AcfFile> ast = AcfParsing.parse(source, diags);
    if (ast.isEmpty()) {
      return new Result(diags, ast, Optional.empty());
    }
    LoadedProgram loaded = new ImportLoading(library, diags).run(ast.get(), path);
    NameResolution.Result resolved =
        new NameResolution(budget, isa, diags).run(loaded);
    List<CheckedAcf> all = new ArrayList<>(resolved.program().acfs());
    all.addAll(resolved.checkedOnly());
    SinkUseCheck.run(resolved.program(), all, diags);
    StaticPatternCheck.run(all, diags);
    new OperandCheck(isa, diags).run(all);
    BudgetCheck.run(resolved.program(), diags);
    UnusedReplacementLint.run(ast.get(), diags);
    ShadowedProductionLint.run(all, source, diags);
    MixedLogicLint.run(ast.get(), diags);
    Optional<CheckedProgram> program =
        diags.hasErrors() ? Optional.empty() : Optional.of(resolved.program());
    return new Result(diags, ast, program);
  }
}
