package org.dise.repl.shell;

import static com.google.common.truth.Truth.assertWithMessage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.dise.repl.AcfJvm;
import org.dise.testsupport.Captured;
import org.dise.testsupport.FixedLengthRoot;
import org.dise.testsupport.Golden;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Golden REPL sessions: each {@code repl/src/test/resources/repl/X.script} runs through {@code acf
 * repl --script} from the repository root, in a process of its own as a user would run it, and its
 * output must equal {@code X.transcript}. {@code -Dacf.updateGolden=true} rewrites the transcripts.
 */
class ReplTranscriptTest {
  static final Path ROOT = RepositoryRoot.path();
  static final Path DIR = ROOT.resolve("repl/src/test/resources/repl");

  static Stream<String> scripts() throws IOException {
    try (Stream<Path> s = Files.list(DIR)) {
      return s
          .map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith(".script"))
          .map(n -> n.substring(0, n.length() - ".script".length()))
          .sorted()
          .toList()
          .stream();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scripts")
  void transcriptMatches(String name) throws Exception {
    Path script = DIR.resolve(name + ".script");
    Path expectedFile = DIR.resolve(name + ".transcript");
    Result r = acf(List.of("repl", "--script", script.toString()));
    assertWithMessage("%s: stderr (no stack trace, nothing outside the transcript)", name)
        .that(r.stderr())
        .isEmpty();
    Golden.assertMatches(expectedFile, r.stdout());
    // Every script in this folder contains a mistake on purpose, so the status is 1.
    assertWithMessage("%s: exit status", name).that(r.status()).isEqualTo(1);
  }

  /** The output of the acf command line run in its own JVM from the repository root. */
  record Result(int status, String stdout, String stderr) {}

  static Result acf(List<String> args) throws Exception {
    // The guest's startup code reads its own canonical path (/proc/self/exe), so instruction
    // counts depend on where the repository is checked out. The session sees the repository
    // from a path of the same length everywhere, its programs as hard links there, so
    // transcripts do not.
    Path link = FixedLengthRoot.create("acf-golden", "examples/programs/bin");
    List<String> cmd = AcfJvm.command(List.of("-Xss16m", "-Duser.dir=" + link));
    cmd.addAll(args);
    try {
      Captured c = Captured.process(cmd, ROOT, 300);
      return new Result(c.status(), c.stdout(), c.stderr());
    } finally {
      FixedLengthRoot.remove(link);
    }
  }
}
