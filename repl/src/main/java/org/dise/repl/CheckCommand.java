package org.dise.repl;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.dise.compiler.Frontend;
import org.dise.compiler.diag.Diagnostic;
import org.dise.compiler.diag.DiagnosticRenderer;
import org.dise.compiler.diag.SourceFile;
import org.dise.compiler.lib.ClasspathLibraryResolver;
import org.dise.compiler.lib.DirectoryLibraryResolver;
import org.dise.compiler.lib.LibraryResolver;
import org.dise.compiler.passes.ProgramSymbolCheck;
import org.dise.compiler.sem.ProgramPrinter;
import org.dise.repl.common.ExitStatus;
import org.dise.repl.common.Tty;
import org.dise.repl.common.UserError;
import org.dise.repl.common.Verbosity;
import org.dise.runtime.elf.ProgramSymbols;
import org.dise.runtime.session.Programs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code acf check}: runs the front end on ACF files and reports every problem. */
@Command(
    name = "check",
    mixinStandardHelpOptions = true,
    description = {
      "Parse and check ACF files: names, types, patterns, replacement operands and the hardware"
          + " budget. Exits 0 when there is no error, 1 when there is one, 2 on a usage error.",
    },
    footer = {
      "",
      "Examples:",
      "  ./acf check examples/acf/*.acf",
      "  ./acf check --lib spec/conformance/lib \\",
      "      spec/conformance/valid/paper_notation.acf",
      "  ./acf check --diagnostics=json my.acf    # for editors",
      "  ./acf check --print my.acf               # also print the checked program",
      "  ./acf check --strict my.acf              # lost instructions are errors",
      "  ./acf check --program examples/programs/bin/arrays \\",
      "      examples/acf/array_loads.acf           # symbol(NAME) against a build",
    })
public final class CheckCommand implements Callable<Integer> {

  @Parameters(arity = "1..*", paramLabel = "FILE", description = "ACF files to check.")
  List<Path> files = new ArrayList<>();

  @Option(
      names = "--diagnostics",
      paramLabel = "FORMAT",
      description = "text (default: file:line:col, source line, underline) or json.")
  OutputFormat format = OutputFormat.text;

  @Option(
      names = "--lib",
      paramLabel = "DIR",
      description = "A folder of library ACFs searched before the standard library.")
  List<Path> libs = new ArrayList<>();

  @Option(
      names = "--strict",
      description =
          "Make the lints that point at lost work errors: a replacement without T.INSN (or"
              + " delete) behind a pattern that matches the program's instructions.")
  boolean strict;

  @Option(names = "--print", description = "Print the checked program of each valid file.")
  boolean print;

  @Option(
      names = "--program",
      paramLabel = "PROG",
      description =
          "Also check every symbol(NAME) and symbol_end(NAME) against this RISC-V"
              + " program, as acf run does when it loads it.")
  Path program;

  @Override
  public Integer call() {
    Frontend frontend = Frontend.standard().withLibrary(resolver(libs)).withStrict(strict);
    Programs.Symbols found = program == null ? null : Programs.symbols(program, null);
    ProgramSymbols symbols = found == null ? null : found.symbols();
    if (found != null && found.note() != null) {
      Verbosity.notice(System.err, "note: " + found.note());
    }
    List<Diagnostic> all = new ArrayList<>();
    int errors = 0;
    int warnings = 0;
    for (Path file : files) {
      Frontend.Result r = frontend.check(read(file), file);
      if (symbols != null && r.program().isPresent()) {
        ProgramSymbolCheck.run(
            r.program().get(), symbols, program.toString(), found.note() != null, r.diagnostics());
      }
      errors += r.diagnostics().errorCount();
      warnings += r.diagnostics().warningCount();
      all.addAll(r.diagnostics().sorted());
      if (format == OutputFormat.text) {
        // --quiet keeps errors and warnings, and drops notes.
        List<Diagnostic> shown =
            r.diagnostics().sorted().stream()
                .filter(
                    d -> !Verbosity.quiet() || d.severity() != org.dise.compiler.diag.Severity.NOTE)
                .toList();
        System.err.print(DiagnosticRenderer.renderAll(shown, Tty.colourStderr()));
      }
      if (print && r.program().isPresent()) {
        System.out.print(ProgramPrinter.print(r.program().get()));
      }
    }
    if (format == OutputFormat.json) {
      System.out.println(DiagnosticRenderer.json(all));
    } else if (errors + warnings > 0) {
      System.err.println(
          errors
              + (errors == 1 ? " error, " : " errors, ")
              + warnings
              + (warnings == 1 ? " warning" : " warnings"));
    }
    return errors > 0 ? ExitStatus.FAILURE : 0;
  }

  static LibraryResolver resolver(List<Path> libs) {
    LibraryResolver r = LibraryResolver.NONE;
    for (Path dir : libs) {
      if (!Files.isDirectory(dir)) {
        throw new UserError("--lib " + dir + ": not a folder", ExitStatus.USAGE);
      }
      r = r.orElse(new DirectoryLibraryResolver(dir));
    }
    return r.orElse(ClasspathLibraryResolver.standard());
  }

  static SourceFile read(Path file) {
    if (Files.isDirectory(file)) {
      throw new UserError(
          "cannot read " + file + ": a directory, not an ACF file", ExitStatus.USAGE);
    }
    if (!Files.isRegularFile(file)) {
      throw new UserError(
          "cannot read "
              + file
              + ": "
              + (Files.exists(file) ? "not a regular file" : "no such file"),
          ExitStatus.USAGE);
    }
    try {
      return new SourceFile(file.toString(), Files.readString(file, StandardCharsets.UTF_8));
    } catch (java.nio.charset.CharacterCodingException e) {
      // Its message is "Input length = 4"; the likely mistake is a program given as the ACF.
      throw new UserError(
          "cannot read "
              + file
              + ": not a UTF-8 text file (an ACF is text;"
              + " `acf run --acf X.acf PROGRAM` takes the program last)",
          ExitStatus.USAGE);
    } catch (IOException e) {
      throw new UserError("cannot read " + file + ": " + UserError.why(e), ExitStatus.USAGE);
    } catch (RuntimeException e) {
      throw new UserError(
          "cannot read "
              + file
              + ": "
              + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()),
          ExitStatus.USAGE);
    }
  }
}
