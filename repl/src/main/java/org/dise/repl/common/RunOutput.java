package org.dise.repl.common;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The directory {@code acf run --out DIR} writes, checked before the guest runs so that a profile
 * is never lost after a long run: DIR must be new, empty, or a run directory acf wrote before (it
 * has summary.json), whose files are then removed so that no stale profile of an earlier run mixes
 * into {@code acf report}. A directory holding anything else is refused.
 */
public final class RunOutput {
  private RunOutput() {}

  public static void prepare(Path dir) {
    if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(dir)) {
      throw new UserError(
          "--out " + dir + ": not a directory (profiles go to DIR/NAME.json);" + " nothing was run",
          ExitStatus.USAGE);
    }
    if (!Files.isDirectory(dir)) {
      try {
        Files.createDirectories(dir);
      } catch (IOException e) {
        throw new UserError(
            "--out " + dir + ": cannot create: " + UserError.why(e) + "; nothing was run",
            ExitStatus.USAGE);
      }
      return;
    }
    List<Path> entries;
    try (Stream<Path> s = Files.list(dir)) {
      entries = s.toList();
    } catch (IOException e) {
      throw new UserError("--out " + dir + ": cannot read: " + UserError.why(e), ExitStatus.USAGE);
    }
    if (entries.isEmpty()) {
      checkWritable(dir);
      return;
    }
    if (!Files.isRegularFile(dir.resolve("summary.json"))) {
      throw new UserError(
          "--out "
              + dir
              + ": the directory holds files that are not an earlier"
              + " acf run's (no summary.json); use a new or empty directory; nothing was run",
          ExitStatus.USAGE);
    }
    checkWritable(dir);
    for (Path p : entries) {
      try {
        delete(p);
      } catch (IOException e) {
        throw new UserError(
            "--out "
                + dir
                + ": cannot remove the earlier run's "
                + p.getFileName()
                + ": "
                + UserError.why(e)
                + "; nothing was run",
            ExitStatus.USAGE);
      }
    }
  }

  private static void checkWritable(Path dir) {
    if (!Files.isWritable(dir)) {
      throw new UserError("--out " + dir + ": not writable; nothing was run", ExitStatus.USAGE);
    }
  }

  private static void delete(Path p) throws IOException {
    if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
      try (Stream<Path> s = Files.walk(p)) {
        for (Path q : s.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(q);
        }
      }
    } else {
      Files.delete(p);
    }
  }
}
