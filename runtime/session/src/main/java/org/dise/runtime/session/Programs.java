package org.dise.runtime.session;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import org.dise.runtime.Machine;
import org.dise.runtime.elf.ElfException;
import org.dise.runtime.elf.ElfFile;
import org.dise.runtime.elf.LinkMap;
import org.dise.runtime.elf.ProgramSymbols;

/**
 * Loading a guest program and reading its symbols, with every problem as a one-line {@link
 * SessionError} that names the file and says why: {@code PROGRAM: no such file}, {@code is a
 * directory, not a program}, {@code cannot run: WHY} (not a RISC-V ELF), {@code cannot read: WHY}.
 */
public final class Programs {
  private Programs() {}

  /** {@code program} (argv[0] as given) loaded with {@code args}, nothing run yet. */
  public static Machine load(Path program, List<String> args, Machine.Options options) {
    checkFile(program);
    try {
      return Machine.load(program, args, options);
    } catch (ElfException | IOException e) {
      throw refused(program, e);
    }
  }

  /** Why {@code program} cannot be loaded, in one line. */
  private static SessionError refused(Path program, Exception e) {
    if (e instanceof ElfException) {
      return new SessionError(program + ": cannot run: " + e.getMessage());
    }
    if (e instanceof NoSuchFileException) {
      return new SessionError(program + ": no such file");
    }
    return new SessionError(program + ": cannot read: " + SessionError.why((IOException) e));
  }

  /** As {@link #load}, with the emulator's notices and the guest's stdout thrown away (benches). */
  public static Machine loadQuiet(Path program, List<String> args, Machine.Options options) {
    Machine m =
        load(program, args, options.withNotices(new PrintStream(OutputStream.nullOutputStream())));
    m.kernel().setStdio(1, null, OutputStream.nullOutputStream());
    return m;
  }

  private static void checkFile(Path program) {
    if (!Files.exists(program)) {
      throw new SessionError(program + ": no such file");
    }
    if (Files.isDirectory(program)) {
      throw new SessionError(program + ": is a directory, not a program");
    }
  }

  /**
   * The symbols {@code symbol(NAME)} resolves against, and a note on where they came from for a
   * dynamically linked program (null for a static one).
   */
  public record Symbols(ProgramSymbols symbols, String note) {}

  /**
   * The symbols of {@code program} (and, when it is dynamically linked, of the libraries mapped at
   * start-up: {@link Machine#startupSymbols}) at the addresses a run with {@code options} (null:
   * the defaults) gives them.
   */
  public static Symbols symbols(Path program, Machine.Options options) {
    checkFile(program);
    ElfFile elf;
    try {
      elf = ElfFile.read(program);
    } catch (ElfException | IOException e) {
      throw refused(program, e);
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
            .filter(x -> x.kind() != LinkMap.Kind.PROGRAM)
            .map(LinkMap.LoadedObject::name)
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
            + ", as NAME or NAME@LIBRARY); a symbol of a library it opens later (dlopen) binds"
            + " when that library loads, in patterns only");
  }
}
