package org.dise.repl.lsp;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.dise.compiler.ast.AcfFile;
import org.dise.compiler.diag.Diagnostics;
import org.dise.compiler.diag.SourceFile;
import org.dise.compiler.lib.LibraryResolver;
import org.dise.compiler.parse.AcfParsing;
import org.dise.repl.common.Settings;

/**
 * The sources an open document refers to: library modules (through the same resolver as {@code acf
 * check}) and imported files, parsed once each. A library module lives inside the jar, so
 * go-to-definition points at a read-only copy written under the user's cache folder ({@code
 * $XDG_CACHE_HOME/acf/stdlib/HASH/NAME.acf}), named by the text's hash so that two versions never
 * share a copy.
 */
final class LibrarySources {
  /** A parsed module or file and the URI an editor opens for it. */
  record Source(String uri, SourceFile file, Optional<AcfFile> ast) {}

  private final Map<String, Optional<Source>> modules = new ConcurrentHashMap<>();
  private volatile LibraryResolver resolver;
  private final Path cache;

  LibrarySources(LibraryResolver resolver, Path cache) {
    this.resolver = resolver;
    this.cache = cache;
  }

  static Path defaultCache() {
    return Settings.xdgFolder("XDG_CACHE_HOME", ".cache").resolve("stdlib");
  }

  LibraryResolver resolver() {
    return resolver;
  }

  void setResolver(LibraryResolver resolver) {
    this.resolver = resolver;
    modules.clear();
  }

  /** A library module by import name ({@code profiles}, {@code lib.sub}), or empty. */
  Optional<Source> module(String name) {
    return modules.computeIfAbsent(
        name.toLowerCase(java.util.Locale.ROOT),
        n -> {
          Optional<SourceFile> f = resolver.resolve(n);
          return f.map(s -> new Source(copyOf(n, s.text()), s, parse(s)));
        });
  }

  /** A file import relative to the document's folder (no caching: the user edits it). */
  Optional<Source> file(Path documentDir, String relative) {
    Path p = documentDir == null ? Path.of(relative) : documentDir.resolve(relative);
    try {
      String text = Files.readString(p, StandardCharsets.UTF_8);
      SourceFile s = new SourceFile(p.toString(), text);
      return Optional.of(new Source(p.toUri().toString(), s, parse(s)));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  private static Optional<AcfFile> parse(SourceFile s) {
    return AcfParsing.parse(s, new Diagnostics());
  }

  private String copyOf(String name, String text) {
    try {
      String hash = Integer.toHexString(text.hashCode()) + "-" + text.length();
      Path file = cache.resolve(hash).resolve(LibraryResolver.relativePath(name));
      if (!Files.isRegularFile(file)) {
        Files.createDirectories(file.getParent());
        Path tmp = Files.createTempFile(file.getParent(), ".acf", ".tmp");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        Files.move(
            tmp,
            file,
            java.nio.file.StandardCopyOption.REPLACE_EXISTING,
            java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        file.toFile().setReadOnly();
      }
      return file.toUri().toString();
    } catch (IOException | RuntimeException e) {
      // Without a writable cache the definition cannot be shown, but nothing else breaks.
      return URI.create("acf-lib:/" + LibraryResolver.relativePath(name)).toString();
    }
  }
}
