package org.dise.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

/**
 * The repository seen from a path of the same length in every checkout, for tests whose expected
 * output holds instruction counts: a guest's start-up copies its own path, which /proc/self/exe
 * gives canonically (links resolved, as Linux does), so a link to the repository alone would not
 * hide where it lies. The programs in the named folders are hard links (copies where the file
 * system refuses one) in real folders under {@code /tmp/PREFIX-XXXXXXXXXXXXXXXX/root}; everything
 * else is a link into the repository. The tree is removed when the JVM exits.
 */
public final class FixedLengthRoot {
  private FixedLengthRoot() {}

  /** Builds the tree; {@code programDirs} are paths relative to the repository root. */
  public static Path create(String prefix, String... programDirs) {
    Path top = Path.of(String.format("/tmp/%s-%016x", prefix, new Random().nextLong()));
    Path root = top.resolve("root");
    try {
      Files.createDirectories(root);
      mirror(RepositoryRoot.path(), root, "", List.of(programDirs));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(top)));
    return root;
  }

  /** Removes a tree {@link #create} made, now rather than when the JVM exits. */
  public static void remove(Path root) {
    delete(root.getParent());
  }

  private static void mirror(Path src, Path dst, String rel, List<String> programDirs)
      throws IOException {
    try (Stream<Path> s = Files.list(src)) {
      for (Path child : s.toList()) {
        String name = child.getFileName().toString();
        String childRel = rel.isEmpty() ? name : rel + "/" + name;
        Path target = dst.resolve(name);
        if (programDirs.contains(childRel)) {
          Files.createDirectory(target);
          try (Stream<Path> files = Files.list(child)) {
            for (Path f : files.toList()) {
              Path t = target.resolve(f.getFileName().toString());
              if (Files.isRegularFile(f)) {
                try {
                  Files.createLink(t, f);
                } catch (IOException | UnsupportedOperationException e) {
                  Files.copy(f, t);
                }
              } else {
                Files.createSymbolicLink(t, f);
              }
            }
          }
        } else if (programDirs.stream().anyMatch(d -> d.startsWith(childRel + "/"))) {
          Files.createDirectory(target);
          mirror(child, target, childRel, programDirs);
        } else {
          Files.createSymbolicLink(target, child);
        }
      }
    }
  }

  /** Removes the tree: links and hard links only, never what they lead to. */
  private static void delete(Path top) {
    try (Stream<Path> s = Files.walk(top)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      // a temporary folder left behind is harmless
    }
  }
}
