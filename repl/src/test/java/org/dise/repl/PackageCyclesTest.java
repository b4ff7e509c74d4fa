package org.dise.repl;

import static com.google.common.truth.Truth.assertWithMessage;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.api.Test;

/**
 * No circle between the packages of the whole tree (issue 26): the front ends (the command line
 * {@code org.dise.repl} over the REPL shell, the LSP server and the HTML view, all over {@code
 * org.dise.repl.common} and the session), and below them every runtime module (the emulator's
 * packages, the engine's {@code sink <- trigger <- dise}, profiles' own packages, timing), the
 * compiler, the center and the experiments; and no file of another package reaches up to {@code
 * Main}. Read by {@code scripts/package-cycles.py}; skipped, saying why, without python3.
 */
class PackageCyclesTest {
  @Test
  void noPackageCircleInTheTreeAndNothingReachesUpToMain() throws Exception {
    Path root = RepositoryRoot.path();
    Process p;
    try {
      p =
          new ProcessBuilder("python3", "scripts/package-cycles.py", ".")
              .directory(root.toFile())
              .redirectErrorStream(true)
              .start();
    } catch (java.io.IOException e) {
      System.out.println(
          "PackageCyclesTest: skipped: python3 cannot be started: " + e.getMessage());
      return;
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertWithMessage("package-cycles.py did not finish")
        .that(p.waitFor(60, TimeUnit.SECONDS))
        .isTrue();
    // None: a new circle fails, naming its edges and the files that make them.
    assertWithMessage(out)
        .that(out.lines().filter(l -> l.startsWith("circle: ")).toList())
        .isEmpty();
    assertWithMessage(out).that(out).contains(" 0 circles, 0 files naming Main");
  }
}
