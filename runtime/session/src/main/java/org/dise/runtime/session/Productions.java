package org.dise.runtime.session;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import org.dise.runtime.Machine;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.dise.SymbolBinding;
import org.dise.runtime.dise.config.ConfigException;
import org.dise.runtime.dise.config.ConfigFormat;
import org.dise.runtime.dise.config.DeployableConfig;
import org.dise.runtime.elf.ProgramSymbols;

/**
 * Where a session's productions come from and how they meet the program: a deployable configuration
 * read here (the runtime alone), or ACF text compiled by the front end that has the compiler and
 * the ACF cache ({@link Source}); then {@code symbol(NAME)} bound to the program's symbols.
 */
public final class Productions {
  private Productions() {}

  /**
   * The compiler's side, which only a front end with the compiler has: the ACF files of {@code
   * --acf} checked and lowered (through the ACF cache), diagnostics printed, a {@link SessionError}
   * when they do not compile.
   */
  @FunctionalInterface
  public interface Source {
    ProductionSet compile(List<Path> acfs);
  }

  /** A deployable configuration from {@code acf compile}; a refusal is one line naming the file. */
  public static DeployableConfig config(Path file) {
    try {
      return ConfigFormat.read(file);
    } catch (ConfigException e) {
      throw new SessionError(e.getMessage());
    }
  }

  /**
   * {@code set} with its program symbols resolved against {@code program} run with {@code options}
   * (null: the defaults); each unresolved symbol is printed on {@code problems} as a diagnostic,
   * with the note on a dynamically linked program's libraries, then the error says how many and
   * ends with {@code consequence} ({@code nothing was run}).
   */
  public static ProductionSet bind(
      ProductionSet set,
      Path program,
      Machine.Options options,
      PrintStream problems,
      String consequence) {
    if (set == null || set.symbols().isEmpty()) {
      return set;
    }
    Programs.Symbols s = Programs.symbols(program, options);
    return bind(set, s.symbols(), s.note(), program.toString(), problems, consequence);
  }

  /** As {@link #bind(ProductionSet, Path, Machine.Options, PrintStream, String)}, symbols given. */
  public static ProductionSet bind(
      ProductionSet set,
      ProgramSymbols symbols,
      String note,
      String program,
      PrintStream problems,
      String consequence) {
    if (set == null || set.symbols().isEmpty()) {
      return set;
    }
    try {
      return SymbolBinding.bind(set, symbols, program);
    } catch (SymbolBinding.UnresolvedSymbolsException e) {
      // Each problem as the compiler prints a diagnostic (file:line:col: error: ...), then one
      // summary line, as for any ACF that does not check.
      e.problems().forEach(problems::println);
      if (note != null) {
        problems.println("note: " + note);
      }
      int n = e.problems().size();
      throw new SessionError(
          n
              + " program symbol"
              + (n == 1 ? "" : "s")
              + " not found in "
              + program
              + "; "
              + consequence);
    }
  }
}
