package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.dise.testsupport.FixedLengthRoot;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 32, finding 5: docs/custom-profiles.md showed {@code profile strides: 349 keys, count
 * 5,645} where the run gave 190 keys. The tutorial's figures are the runs' own: each profile
 * heading and table line the tutorial quotes must be what the command it shows prints.
 */
class TutorialFiguresTest {
  private static final Path DOC = RepositoryRoot.resolve("docs/custom-profiles.md");

  /**
   * Runs the tutorial's command. The guest's start-up code reads its own canonical path, so the
   * instruction totals depend on where the repository is checked out (by a few instructions per
   * character): the program runs from a hard link under a path of fixed length, as the REPL
   * transcripts do, and the tutorial says its totals may differ by that much.
   */
  private static String run(Path out, String acf, String program) {
    Path link = FixedLengthRoot.create("acf-tutorial", "examples/programs/bin");
    try {
      ConfigCommandTest.Result r =
          ConfigCommandTest.acf(
              "run",
              "--no-progress",
              "--acf",
              RepositoryRoot.resolve(acf).toString(),
              "--out",
              out.toString(),
              link.resolve(program).toString());
      assertThat(r.status()).isEqualTo(0);
      return r.stderr();
    } finally {
      FixedLengthRoot.remove(link);
    }
  }

  /** The doc's indented lines that start with {@code prefix}, stripped. */
  private static java.util.List<String> quoted(String prefix) throws Exception {
    return Files.readAllLines(DOC).stream()
        .filter(l -> l.startsWith("    ") && l.strip().startsWith(prefix))
        .map(String::strip)
        .toList();
  }

  @Test
  void theStrideHistogramFiguresAreTheRunsOwn(@TempDir Path dir) throws Exception {
    String printed =
        run(dir.resolve("out"), "examples/acf/load_strides.acf", "examples/programs/bin/maps");
    var headings = quoted("profile strides:");
    assertThat(headings).isNotEmpty();
    for (String h : headings) {
      assertThat(printed).contains(h);
    }
    for (String line : quoted("@[0x10656, walk+0x10]")) {
      assertThat(printed).contains(line);
    }
  }

  @Test
  void theArrayLoadsFiguresAreTheRunsOwn(@TempDir Path dir) throws Exception {
    String printed =
        run(dir.resolve("loads"), "examples/acf/array_loads.acf", "examples/programs/bin/arrays");
    var lines = quoted("profile hot_loads:");
    lines = new java.util.ArrayList<>(lines);
    lines.addAll(quoted("0x10658  sum_hot"));
    lines.addAll(quoted("0x106bc  pick_hot"));
    assertThat(lines).hasSize(3);
    for (String l : lines) {
      assertThat(printed).contains(l);
    }
  }
}
