package org.dise.repl;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.dise.compiler.ast.AcfFile;
import org.dise.compiler.diag.DiagnosticRenderer;
import org.dise.compiler.diag.Diagnostics;
import org.dise.compiler.diag.SourceFile;
import org.dise.compiler.format.Formatter;
import org.dise.compiler.parse.AcfParsing;
import org.dise.repl.common.ExitStatus;
import org.dise.repl.common.Tty;
import org.dise.repl.common.UserError;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code acf fmt}: prints an ACF file in the canonical form. */
@Command(
    name = "fmt",
    mixinStandardHelpOptions = true,
    description = {
      "Print an ACF file in canonical form: `=>` arrows, replacement before conditional control,"
          + " upper-case fields, four-space indentation; comments are kept. Exits 1 if the file"
          + " does not parse (or, with --check, is not canonical), 2 on a usage error.",
    },
    footer = {
      "",
      "Examples:",
      "  ./acf fmt examples/acf/hot_call_pairs.acf   # paper notation, canonical form",
      "  ./acf fmt --write my.acf                    # rewrite the file in place",
      "  ./acf fmt --check my.acf                    # exit 1 if it is not canonical",
    })
public final class FmtCommand implements Callable<Integer> {
  @Parameters(paramLabel = "FILE", description = "The ACF file to format.")
  Path file;

  @Option(names = "--write", description = "Rewrite the file instead of printing it.")
  boolean write;

  @Option(names = "--check", description = "Print nothing; exit 1 if the file is not canonical.")
  boolean check;

  @Override
  public Integer call() {
    if (check && write) {
      // --check would win silently and the file stay as it was.
      throw new UserError("--check and --write exclude each other", ExitStatus.USAGE);
    }
    SourceFile source = CheckCommand.read(file);
    Diagnostics diags = new Diagnostics();
    Optional<AcfFile> ast = AcfParsing.parse(source, diags);
    if (ast.isEmpty()) {
      System.err.print(DiagnosticRenderer.renderAll(diags.sorted(), Tty.colourStderr()));
      System.err.println(DiagnosticRenderer.summary(diags));
      return ExitStatus.FAILURE;
    }
    String formatted = Formatter.format(ast.get());
    if (check) {
      if (!formatted.equals(source.text())) {
        System.err.println(file + ": not in canonical form (run `acf fmt --write " + file + "`)");
        return ExitStatus.FAILURE;
      }
      return 0;
    }
    if (write) {
      try {
        org.dise.runtime.io.AtomicFiles.writeString(file, formatted);
      } catch (IOException e) {
        throw new UserError("cannot write " + file + ": " + UserError.why(e), ExitStatus.USAGE);
      }
      return 0;
    }
    System.out.print(formatted);
    return 0;
  }
}
