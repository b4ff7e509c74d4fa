package org.dise.compiler;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
import org.dise.runtime.dise.HardwareBudget;

/**
 * The compiler's front end: the whole pipeline from text to checked program, assembled here in one
 * place. Every stage reports into one {@link Diagnostics}, so one run reports every error.
 *
 * <pre>
 *   parse -> import-loading -> name-resolution -> sink-uses -> static-patterns -> operands
 *         -> budget -> lints (unused-replacements, shadowed-productions, mixed-logic)
 * </pre>
 *
 * {@link Compiler} adds composition and lowering after it, for one or more files.
 */
public final class Frontend {
  /** The pass names in pipeline order, for documentation and {@code --help}. */
  public static final List<String> PASSES = standard().pipeline().stream().map(Pass::name).toList();

  /** The outcome: the diagnostics, the main file's AST if it parsed, the program if no errors. */
  public record Result(
      Diagnostics diagnostics,
      Optional<AcfFile> ast,
      Optional<CheckedProgram> program,
      Map<Path, String> importedFiles) {
    /** A result that read no imported file. */
    public Result(
        Diagnostics diagnostics, Optional<AcfFile> ast, Optional<CheckedProgram> program) {
      this(diagnostics, ast, program, Map.of());
    }

    public boolean ok() {
      return !diagnostics.hasErrors();
    }
  }

  private final LibraryResolver library;
  private final InstructionTable isa;
  private final HardwareBudget budget;

  /** A front end; components come from the runtime's one catalogue ({@code Catalogue}). */
  public Frontend(LibraryResolver library, InstructionTable isa, HardwareBudget budget) {
    this.library = library;
    this.isa = isa;
    this.budget = budget;
  }

  /** The standard front end: the paper's budget, the runtime's ISA, the classpath library. */
  public static Frontend standard() {
    return new Frontend(
        ClasspathLibraryResolver.standard(), RuntimeInstructionTable.get(), HardwareBudget.PAPER);
  }

  public Frontend withLibrary(LibraryResolver library) {
    return new Frontend(library, isa, budget);
  }

  public Frontend withBudget(HardwareBudget budget) {
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
      diags.error(
          new org.dise.compiler.diag.Span(source, 0, 0),
          "the program is nested too deeply to check");
      return new Result(diags, Optional.empty(), Optional.empty());
    }
  }

  /** One named pass of the front end's pipeline, over one file's {@link Unit}. */
  public record Pass(String name, java.util.function.Consumer<Unit> run) {}

  /** What the passes of one file hand on to each other. */
  public static final class Unit {
    final SourceFile source;
    final Path path;
    final Diagnostics diags;
    Optional<AcfFile> ast = Optional.empty();
    LoadedProgram loaded;
    Map<Path, String> importedFiles = Map.of();
    NameResolution.Result resolved;

    /** The active ACFs and the blocks checked but not instantiated. */
    List<CheckedAcf> all;

    Unit(SourceFile source, Path path, Diagnostics diags) {
      this.source = source;
      this.path = path;
      this.diags = diags;
    }
  }

  /**
   * The pipeline, in order, assembled in this one place (as bpftrace's pass manager): each pass
   * reports into the unit's diagnostics and the later ones still run, so one check reports every
   * error; only a file that does not parse stops after {@code parse}.
   */
  public List<Pass> pipeline() {
    return List.of(
        new Pass("parse", u -> u.ast = AcfParsing.parse(u.source, u.diags)),
        new Pass(
            ImportLoading.NAME,
            u -> {
              ImportLoading loading = new ImportLoading(library, u.diags);
              u.loaded = loading.run(u.ast.get(), u.path);
              u.importedFiles = loading.filesRead();
            }),
        new Pass(
            NameResolution.NAME,
            u -> {
              u.resolved = new NameResolution(budget, isa, u.diags).run(u.loaded);
              u.all = new ArrayList<>(u.resolved.program().acfs());
              u.all.addAll(u.resolved.checkedOnly());
            }),
        new Pass(SinkUseCheck.NAME, u -> SinkUseCheck.run(u.resolved.program(), u.all, u.diags)),
        new Pass(StaticPatternCheck.NAME, u -> StaticPatternCheck.run(u.all, u.diags)),
        new Pass(OperandCheck.NAME, u -> new OperandCheck(isa, u.diags).run(u.all)),
        new Pass(BudgetCheck.NAME, u -> BudgetCheck.run(u.resolved.program(), u.diags)),
        new Pass(UnusedReplacementLint.NAME, u -> UnusedReplacementLint.run(u.ast.get(), u.diags)),
        new Pass(
            ShadowedProductionLint.NAME, u -> ShadowedProductionLint.run(u.all, u.source, u.diags)),
        new Pass(MixedLogicLint.NAME, u -> MixedLogicLint.run(u.ast.get(), u.diags)));
  }

  private Result run(SourceFile source, Path path, Diagnostics diags) {
    Unit u = new Unit(source, path, diags);
    for (Pass p : pipeline()) {
      p.run().accept(u);
      if (u.ast.isEmpty()) {
        return new Result(diags, u.ast, Optional.empty(), u.importedFiles);
      }
    }
    Optional<CheckedProgram> program =
        diags.hasErrors() ? Optional.empty() : Optional.of(u.resolved.program());
    return new Result(diags, u.ast, program, u.importedFiles);
  }
}
