package org.dise.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** Cases kept as files: a folder's test programs, ACFs or documents, in a stable order. */
public final class TestFiles {
  private TestFiles() {}

  /**
   * The files directly in {@code dir} whose names end with {@code suffix} ({@code ".elf"}), sorted,
   * so that the cases run and are named in the same order on every machine.
   */
  public static List<Path> endingWith(Path dir, String suffix) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
    }
  }

  /** {@link #endingWith}'s files by name, without the suffix ({@code "atomics"}). */
  public static List<String> namesEndingWith(Path dir, String suffix) throws IOException {
    return endingWith(dir, suffix).stream()
        .map(p -> p.getFileName().toString())
        .map(n -> n.substring(0, n.length() - suffix.length()))
        .toList();
  }
}
