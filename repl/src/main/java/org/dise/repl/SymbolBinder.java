package org.dise.repl;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.dise.SymbolBinding;
import org.dise.runtime.elf.ElfException;
import org.dise.runtime.elf.ElfFile;
import org.dise.runtime.elf.ProgramSymbols;

/**
 * Resolves the program symbols of a production set ({@code symbol(NAME)}) against the program a
 * command is about to run, turning every problem into a user error that names the ACF's line and
 * column.
 */
final class SymbolBinder {
  private SymbolBinder() {}

  /** {@code set} with its symbols resolved against {@code program} (itself when it has none). */
  static ProductionSet bind(ProductionSet set, Path program) {
    if (set == null || set.symbols().isEmpty()) {
      return set;
    }
    try {
      return SymbolBinding.bind(set, symbols(program), program.toString());
    } catch (SymbolBinding.UnresolvedSymbolsException e) {
      // Each problem as the compiler prints a diagnostic (file:line:col: error: ...), then one
      // summary line, as for any ACF that does not check.
      e.problems().forEach(System.err::println);
      int n = e.problems().size();
      throw new UserError(
          n
              + " program symbol"
              + (n == 1 ? "" : "s")
              + " not found in "
              + program
              + "; nothing was run");
    }
  }

  /** The symbols of {@code program} at the addresses the loader will put them. */
  static ProgramSymbols symbols(Path program) {
    if (!Files.exists(program)) {
      throw new UserError(program + ": no such file");
    }
    if (Files.isDirectory(program)) {
      throw new UserError(program + ": is a directory, not a program");
    }
    try {
      ElfFile elf = ElfFile.read(program);
      return elf.programSymbols().rebased(elf.loadBias());
    } catch (ElfException e) {
      throw new UserError(program + ": cannot run: " + e.getMessage());
    } catch (NoSuchFileException e) {
      throw new UserError(program + ": no such file");
    } catch (IOException e) {
      throw new UserError(program + ": cannot read: " + UserError.why(e));
    }
  }
}
