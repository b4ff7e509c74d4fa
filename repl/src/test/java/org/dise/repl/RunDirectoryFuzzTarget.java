package org.dise.repl;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.dise.repl.common.ProfileFormats;
import org.dise.repl.common.RunDirectory;
import org.dise.repl.common.UserError;
import org.dise.runtime.sink.ProfileTable;

/**
 * Fuzz target: the run-directory reader of {@code acf report} and {@code acf compare} on a
 * directory holding a fuzzed profile and a fuzzed summary.json (seeded with files acf run wrote).
 * Reading, then reporting and comparing what was read, must end in a result or a {@link UserError}
 * naming the file, never another exception.
 */
public class RunDirectoryFuzzTarget {
  private static final Path DIR = tempDir();

  @FuzzTest(maxDuration = "10s")
  void runDirectoriesAreReadOrRefusedCleanly(byte[] data) {
    fuzzerTestOneInput(data);
  }

  /**
   * The entry point of the standalone Jazzer driver (longer runs: scripts/fuzz). The input is the
   * profile, a NUL byte, then summary.json (absent without the NUL).
   */
  public static void fuzzerTestOneInput(byte[] data) {
    String text = new String(data, StandardCharsets.UTF_8);
    int nul = text.indexOf('\0');
    String profile = nul < 0 ? text : text.substring(0, nul);
    String summary = nul < 0 ? "" : text.substring(nul + 1);
    try {
      clear();
      Files.writeString(DIR.resolve("p.json"), profile, StandardCharsets.UTF_8);
      if (!summary.isEmpty()) {
        Files.writeString(DIR.resolve("summary.json"), summary, StandardCharsets.UTF_8);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    RunDirectory run;
    try {
      run = RunDirectory.read(DIR);
    } catch (UserError e) {
      return;
    }
    org.dise.repl.common.CostLines.of(run.summary());
    for (var e : run.profiles().entrySet()) {
      ProfileTable t = e.getValue();
      ProfileFormats.terminal(e.getKey(), t, 10);
      ProfileFormats.json(e.getKey(), t);
      ProfileFormats.folded(t);
    }
    // acf compare of the directory with itself: every figure it computes, printed nowhere.
    CompareCommand compare = new CompareCommand();
    compare.a = DIR;
    compare.b = DIR;
    PrintStream out = System.out;
    System.setOut(new PrintStream(OutputStream.nullOutputStream()));
    try {
      compare.call();
    } catch (UserError refused) {
      // a profile compare cannot judge: refused with a message
    } finally {
      System.setOut(out);
    }
  }

  private static void clear() throws IOException {
    try (Stream<Path> s = Files.list(DIR)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  private static Path tempDir() {
    try {
      Path p = Files.createTempDirectory("acf-rundir-fuzz");
      p.toFile().deleteOnExit();
      return p;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
