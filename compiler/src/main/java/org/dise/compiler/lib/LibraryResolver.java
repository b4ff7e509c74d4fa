package org.dise.compiler.lib;

import java.util.Optional;
import org.dise.compiler.diag.SourceFile;

/**
 * Finds the source of a library ACF by name ({@code import hot_methods;} reads {@code
 * hot_methods.acf}; dots are folders). Pluggable: classpath resources at run time, a directory in
 * tests.
 */
public interface LibraryResolver {
  Optional<SourceFile> resolve(String name);

  /** The library module every file imports implicitly (the Fig. 6 handler sinks live there). */
  String PRELUDE = "prelude";

  /** Resolves nothing: a build without a standard library. */
  LibraryResolver NONE = name -> Optional.empty();

  /** Tries this resolver, then the other. */
  default LibraryResolver orElse(LibraryResolver other) {
    return name -> {
      Optional<SourceFile> f = resolve(name);
      return f.isPresent() ? f : other.resolve(name);
    };
  }

  static String relativePath(String name) {
    return name.replace('.', '/') + ".acf";
  }
}
