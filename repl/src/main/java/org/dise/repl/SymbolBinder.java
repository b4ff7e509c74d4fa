package org.dise.repl;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import org.dise.runtime.Machine;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.dise.SymbolBinding;
import org.dise.runtime.elf.ElfException;
import org.dise.runtime.elf.ElfFile;
import org.dise.runtime.elf.ProgramSymbols;

/**
 * Resolves the program symbols of a production set ({@code symbol(NAME)}) against the program a
 * command is about to run, turning every problem into a user error that names the ACF's line and
 * column. A dynamically linked program's symbols include those of the libraries its dynamic linker
 * maps at start-up ({@link Machine#startupSymbols}): {@code symbol(printf)}, {@code
 * symbol("printf@libc.so.6")}.
 */
final class SymbolBinder {
  private SymbolBinder() {}

  /** {@code set} with its symbols resolved against {@code program} (itself when it has none). */
  static ProductionSet bind(ProductionSet set, Path program) {
    return bind(set, program, null);
  }

  /**
   * {@code set} with its symbols resolved against {@code program} run with {@code options} (its
   * sysroot: null for the defaults).
   */
  static ProductionSet bind(ProductionSet set, Path program, Machine.Options options) {
    if (set == null || set.symbols().isEmpty()) {
      return set;
    }
    Symbols s = symbols(program, options);
    try {
      return SymbolBinding.bind(set, s.symbols(), program.toString());
    } catch (SymbolBinding.UnresolvedSymbolsException e) {
      // Each problem as the compiler prints a diagnostic (file:line:col: error: ...), then one
      // summary line, as for any ACF that does not check.
      e.problems().forEach(System.err::println);
      if (s.note() != null) {
        System.err.println("note: " + s.note());
      }
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

  /**
   * The symbols {@code symbol(NAME)} resolves against, and a note on where they came from for a
   * dynamically linked program (null for a static one).
   */
  record Symbols(ProgramSymbols symbols, String note) {}

  /** The symbols of {@code program} at the addresses the loader will put them. */
  static ProgramSymbols symbols(Path program) {
    return symbols(program, null).symbols();
  }

  /**
   * The symbols of {@code program} (and, when it is dynamically linked, of the libraries mapped at
   * start-up) at the addresses a run with {@code options} gives them.
   */
  static Symbols symbols(Path program, Machine.Options options) {
    if (!Files.exists(program)) {
      throw new UserError(program + ": no such file");
    }
    if (Files.isDirectory(program)) {
      throw new UserError(program + ": is a directory, not a program");
    }
    ElfFile elf;
    try {
      elf = ElfFile.read(program);
    } catch (ElfException e) {
      throw new UserError(program + ": cannot run: " + e.getMessage());
    } catch (NoSuchFileException e) {
      throw new UserError(program + ": no such file");
    } catch (IOException e) {
      throw new UserError(program + ": cannot read: " + UserError.why(e));
    }
    ProgramSymbols own = elf.programSymbols().rebased(elf.loadBias());
    if (!elf.isDynamic()) {
      return new Symbols(own, null);
    }
    Machine.Options o =
        (options != null ? options : Machine.Options.defaults())
            .withNotices(new PrintStream(OutputStream.nullOutputStream()));
    Machine m;
    try {
      m = Machine.load(program, List.of(), o);
    } catch (ElfException | IOException e) {
      return new Symbols(
          own,
          program
              + " is dynamically linked and its libraries cannot be loaded here ("
              + e.getMessage()
              + "): only its own symbols were searched; libraries bind when acf run loads it");
    }
    ProgramSymbols all = m.startupSymbols();
    List<String> libs =
        m.linkMap().objects().stream()
            .filter(x -> x.kind() != org.dise.runtime.elf.LinkMap.Kind.PROGRAM)
            .map(org.dise.runtime.elf.LinkMap.LoadedObject::name)
            .toList();
    java.util.Set<String> loaded = new java.util.LinkedHashSet<>();
    for (ProgramSymbols.Entry e : all.entries()) {
      int at = e.name().lastIndexOf('@');
      if (at > 0) {
        loaded.add(e.name().substring(at + 1));
      }
    }
    loaded.addAll(libs);
    return new Symbols(
        all,
        program
            + " is dynamically linked: symbols were looked up in it and in the libraries its"
            + " dynamic linker maps at start-up ("
            + String.join(", ", loaded)
            + ", as NAME or NAME@LIBRARY); a library it opens later (dlopen) is not searched");
  }
}
