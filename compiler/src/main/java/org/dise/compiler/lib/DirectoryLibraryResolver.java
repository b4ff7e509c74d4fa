package org.dise.compiler.lib;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.dise.compiler.diag.SourceFile;

/** Resolves library names to files under a directory (tests, {@code acf check --lib DIR}). */
public final class DirectoryLibraryResolver implements LibraryResolver {
  private final Path dir;

  public DirectoryLibraryResolver(Path dir) {
    this.dir = dir;
  }

  @Override
  public Optional<SourceFile> resolve(String name) {
    Path p = dir.resolve(LibraryResolver.relativePath(name));
    if (!Files.isRegularFile(p)) {
      return Optional.empty();
    }
    try {
      return Optional.of(
          new SourceFile("lib:" + name, Files.readString(p, StandardCharsets.UTF_8)));
    } catch (IOException e) {
      return Optional.empty();
    }
  }
}
