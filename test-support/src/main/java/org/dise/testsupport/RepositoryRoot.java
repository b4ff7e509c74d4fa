package org.dise.testsupport;

import java.nio.file.Files;
import java.nio.file.Path;

/** The checkout's top folder, found from wherever a module's tests run (its own folder). */
public final class RepositoryRoot {
  private static Path root;

  private RepositoryRoot() {}

  /**
   * The nearest folder at or above the working directory that holds the root pom and {@code
   * examples/programs}.
   *
   * @throws IllegalStateException naming the folder the search started from
   */
  public static synchronized Path path() {
    if (root == null) {
      root = find(Path.of("").toAbsolutePath());
    }
    return root;
  }

  /** A path below the root, written with forward slashes. */
  public static Path resolve(String relative) {
    return path().resolve(relative);
  }

  static Path find(Path start) {
    for (Path p = start; p != null; p = p.getParent()) {
      if (Files.isRegularFile(p.resolve("pom.xml"))
          && Files.isDirectory(p.resolve("examples/programs"))) {
        return p;
      }
    }
    throw new IllegalStateException(
        "repository root (pom.xml beside examples/programs) not" + " found at or above " + start);
  }
}
