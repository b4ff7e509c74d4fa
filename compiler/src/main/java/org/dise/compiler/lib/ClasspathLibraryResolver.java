package org.dise.compiler.lib;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.dise.compiler.diag.SourceFile;

/** Resolves library names to classpath resources {@code acf/NAME.acf} (the stdlib-acfs jar). */
public final class ClasspathLibraryResolver implements LibraryResolver {
  private final ClassLoader loader;
  private final String root;

  public ClasspathLibraryResolver(ClassLoader loader, String root) {
    this.loader = loader;
    this.root = root.endsWith("/") ? root : root + "/";
  }

  public static ClasspathLibraryResolver standard() {
    return new ClasspathLibraryResolver(ClasspathLibraryResolver.class.getClassLoader(), "acf/");
  }

  @Override
  public Optional<SourceFile> resolve(String name) {
    String path = root + LibraryResolver.relativePath(name);
    try (InputStream in = loader.getResourceAsStream(path)) {
      if (in == null) {
        return Optional.empty();
      }
      return Optional.of(
          new SourceFile("lib:" + name, new String(in.readAllBytes(), StandardCharsets.UTF_8)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
