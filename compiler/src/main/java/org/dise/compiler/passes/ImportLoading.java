package org.dise.compiler.passes;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.dise.compiler.ast.AcfFile;
import org.dise.compiler.ast.Item;
import org.dise.compiler.diag.Diagnostics;
import org.dise.compiler.diag.SourceFile;
import org.dise.compiler.lib.LibraryResolver;
import org.dise.compiler.parse.AcfParsing;

/**
 * Pass "import-loading": parses the files that {@code import} items name (relative files and
 * library modules through the {@link LibraryResolver}), each once, and reports missing files and
 * import cycles.
 */
public final class ImportLoading {
  public static final String NAME = "import-loading";

  private final LibraryResolver library;
  private final Diagnostics diags;
  private final Map<String, Optional<AcfFile>> cache = new HashMap<>();
  private final Map<AcfFile, String> keys = new IdentityHashMap<>();
  private final Map<AcfFile, Map<Item.Import, AcfFile>> imports = new IdentityHashMap<>();
  private final LinkedHashSet<String> inProgress = new LinkedHashSet<>();
  private final Map<Path, String> filesRead = new java.util.LinkedHashMap<>();

  public ImportLoading(LibraryResolver library, Diagnostics diags) {
    this.library = library;
    this.diags = diags;
  }

  /** Loads everything {@code main} needs; {@code mainPath} may be null (text from a REPL). */
  public LoadedProgram run(AcfFile main, Path mainPath) {
    String key =
        mainPath == null
            ? "main:" + main.source().name()
            : "file:" + mainPath.toAbsolutePath().normalize();
    keys.put(main, key);
    cache.put(key, Optional.of(main));
    inProgress.add(key);
    follow(main, mainPath);
    inProgress.remove(key);
    Optional<AcfFile> prelude = Optional.empty();
    if (!isLibrary(key, LibraryResolver.PRELUDE)) {
      prelude =
          load(
              "lib:" + LibraryResolver.PRELUDE,
              null,
              () -> library.resolve(LibraryResolver.PRELUDE));
    }
    return new LoadedProgram(main, imports, prelude);
  }

  private static boolean isLibrary(String key, String name) {
    return key.equals("lib:" + name);
  }

  private void follow(AcfFile file, Path path) {
    Map<Item.Import, AcfFile> resolved = new IdentityHashMap<>();
    imports.put(file, resolved);
    for (Item.Import imp : importItems(file.items())) {
      String target = imp.target().text();
      Optional<AcfFile> loaded;
      String fileKey = keys.get(file);
      if (imp.isFile()) {
        if (path != null) {
          Path p = path.toAbsolutePath().getParent().resolve(target).normalize();
          String k = "file:" + p;
          if (inProgress.contains(k)) {
            cycle(imp, k);
            continue;
          }
          if (!Files.isRegularFile(p)) {
            diags.error(
                imp.target().span(),
                "cannot find imported file `" + target + "`",
                "file imports are relative to the importing file's folder");
            continue;
          }
          Path shown = Path.of(file.source().name()).getParent();
          String display =
              (shown == null ? Path.of(target) : shown.resolve(target)).normalize().toString();
          loaded = load(k, p, () -> read(p, display));
        } else if (fileKey.startsWith("lib:")) {
          String base = fileKey.substring(4);
          int slash = base.lastIndexOf('/');
          String name =
              (slash < 0 ? "" : base.substring(0, slash + 1)) + target.replaceFirst("\\.acf$", "");
          loaded = library(imp, name);
          if (loaded == null) {
            continue;
          }
        } else {
          diags.error(
              imp.target().span(),
              "cannot import `" + target + "` from a source that is not a file");
          continue;
        }
      } else {
        loaded = library(imp, target.replace('.', '/'));
        if (loaded == null) {
          continue;
        }
      }
      loaded.ifPresent(f -> resolved.put(imp, f));
    }
  }

  /** Loads a library module; null after reporting a cycle or a missing module. */
  private Optional<AcfFile> library(Item.Import imp, String name) {
    String k = "lib:" + name;
    if (inProgress.contains(k)) {
      cycle(imp, k);
      return null;
    }
    if (!cache.containsKey(k) && library.resolve(name).isEmpty()) {
      diags.error(imp.target().span(), "cannot find library module `" + imp.target().text() + "`");
      return null;
    }
    return load(k, null, () -> library.resolve(name));
  }

  private void cycle(Item.Import imp, String key) {
    List<String> chain = new ArrayList<>();
    boolean on = false;
    for (String k : inProgress) {
      on |= k.equals(key);
      if (on) {
        chain.add(display(k));
      }
    }
    chain.add(display(key));
    diags.error(imp.span(), "import cycle: " + String.join(" -> ", chain));
  }

  private static String display(String key) {
    if (key.startsWith("file:")) {
      return Path.of(key.substring(5)).getFileName().toString();
    }
    return key.substring(key.indexOf(':') + 1);
  }

  private interface Source {
    Optional<SourceFile> get();
  }

  private Optional<AcfFile> load(String key, Path path, Source source) {
    Optional<AcfFile> cached = cache.get(key);
    if (cached != null) {
      return cached;
    }
    Optional<SourceFile> src = source.get();
    Optional<AcfFile> parsed = src.flatMap(s -> AcfParsing.parse(s, diags));
    cache.put(key, parsed);
    if (parsed.isPresent()) {
      keys.put(parsed.get(), key);
      inProgress.add(key);
      follow(parsed.get(), path);
      inProgress.remove(key);
    }
    return parsed;
  }

  /**
   * Every imported file read, by absolute path, with the text read: what a compilation depends on
   * besides its main files and the library (the run's cache of compiled sets checks them).
   */
  public Map<Path, String> filesRead() {
    return java.util.Collections.unmodifiableMap(filesRead);
  }

  private Optional<SourceFile> read(Path p, String display) {
    try {
      String text = Files.readString(p, StandardCharsets.UTF_8);
      filesRead.put(p, text);
      return Optional.of(new SourceFile(display, text));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** Import items of a file, and misplaced ones inside blocks (reported by name resolution). */
  private static List<Item.Import> importItems(List<Item> items) {
    List<Item.Import> out = new ArrayList<>();
    for (Item i : items) {
      if (i instanceof Item.Import imp) {
        out.add(imp);
      }
    }
    return out;
  }
}
