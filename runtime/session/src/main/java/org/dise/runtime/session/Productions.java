package org.dise.runtime.session;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import org.dise.runtime.Machine;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.dise.SymbolBinding;
import org.dise.runtime.dise.SymbolRef;
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
      if (note == null) {
        return SymbolBinding.bind(set, symbols, program);
      }
      // Dynamically linked: a symbol no object has at start-up may come with a library the
      // program opens later; the engine binds it then (spec/emulator.md).
      SymbolBinding.Binding b = SymbolBinding.bindDeferring(set, symbols, program);
      for (SymbolRef r : b.late()) {
        problems.println(waiting(r, symbols, program));
      }
      return b.set();
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

  /** The warning that {@code ref} waits for a library to load, with a spelling hint when near. */
  static String waiting(SymbolRef ref, ProgramSymbols symbols, String program) {
    String hint =
        SymbolBinding.explain(ref, symbols, program)
            .map(SymbolBinding.Unresolved::hint)
            .orElse(null);
    return (ref.origin().isEmpty() ? "" : ref.origin() + ": ")
        + "warning: "
        + program
        + " and the libraries it maps at start-up have no symbol `"
        + ref.name()
        + "`: "
        + ref.spelling()
        + " binds when a library the program opens later (dlopen) defines it, and until then"
        + " the productions naming it match nothing"
        + (hint == null ? "" : "\n  hint: " + hint);
  }

  /**
   * One warning per symbol that was still waiting for its library when {@code engine}'s process
   * ended (none for an engine that waits for nothing): its productions never matched.
   */
  public static List<String> neverBound(org.dise.runtime.dise.ProfilingEngine engine) {
    if (!(engine instanceof org.dise.runtime.dise.DiseEngine d)) {
      return List.of();
    }
    return d.unbound().stream()
        .map(
            r ->
                (r.origin().isEmpty() ? "" : r.origin() + ": ")
                    + "warning: no library the program loaded defines `"
                    + r.name()
                    + "`, so the productions naming "
                    + r.spelling()
                    + " matched nothing")
        .toList();
  }
}
