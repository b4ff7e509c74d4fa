package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * When ./acf builds its jar again: on a fresh clone (no jar), and when any input of the jar (a
 * module's main sources or resources, a pom) is newer than it, however it changed (a file edited in
 * place, a file added by a pull or an editor's rename). Asked with ACF_LAUNCHER=jar-stale on a copy
 * of the launcher in a small tree, which answers without building anything.
 */
class LauncherStalenessTest {
  private static final Instant SOURCES = Instant.now().minusSeconds(200);
  private static final Instant BUILT = Instant.now().minusSeconds(100);

  @TempDir Path root;

  @BeforeEach
  void checkout() throws Exception {
    Files.copy(RepositoryRoot.resolve("acf"), root.resolve("acf"));
    for (String f :
        new String[] {
          "pom.xml",
          "repl/pom.xml",
          "repl/src/main/java/org/dise/repl/Main.java",
          "runtime/emulator/pom.xml",
          "runtime/emulator/src/main/java/org/dise/emulator/Cpu.java",
          "repl/src/test/java/org/dise/repl/MainTest.java"
        }) {
      write(f, SOURCES);
    }
    oldDirectories(root);
  }

  private void write(String relative, Instant time) throws Exception {
    Path p = root.resolve(relative);
    Files.createDirectories(p.getParent());
    Files.writeString(p, "x\n");
    Files.setLastModifiedTime(p, FileTime.from(time));
  }

  /** Every directory's time set back to the sources', as a checkout made long ago. */
  private static void oldDirectories(Path dir) throws Exception {
    try (var walk = Files.walk(dir)) {
      for (Path d : walk.filter(Files::isDirectory).toList()) {
        Files.setLastModifiedTime(d, FileTime.from(SOURCES));
      }
    }
  }

  private String jarStale() throws Exception {
    ProcessBuilder pb = new ProcessBuilder("bash", root.resolve("acf").toString());
    pb.environment().put("ACF_LAUNCHER", "jar-stale");
    pb.redirectErrorStream(true);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assertThat(p.waitFor()).isEqualTo(0);
    return out;
  }

  /** The launcher's answer after the file's time is set to now (an edit in place). */
  private String touchedNow(String relative) throws Exception {
    Files.setLastModifiedTime(root.resolve(relative), FileTime.from(Instant.now()));
    return jarStale();
  }

  private void build() throws Exception {
    write("repl/target/acf.jar", BUILT);
    oldDirectories(root.resolve("repl/src"));
    oldDirectories(root.resolve("runtime"));
  }

  @Test
  void aFreshCloneBuildsAndABuiltJarIsCurrent() throws Exception {
    assertThat(jarStale()).isEqualTo("stale");
    build();
    assertThat(jarStale()).isEqualTo("current");
  }

  @Test
  void aSourceEditedInPlaceMakesTheJarStale() throws Exception {
    build();
    // Only the file's own time moves: its directory's stays where it was.
    assertThat(touchedNow("runtime/emulator/src/main/java/org/dise/emulator/Cpu.java"))
        .isEqualTo("stale");
  }

  @Test
  void anEditedPomMakesTheJarStale() throws Exception {
    build();
    assertThat(touchedNow("repl/pom.xml")).isEqualTo("stale");
  }

  @Test
  void aFileAddedWithAnOldTimeMakesTheJarStaleThroughItsDirectory() throws Exception {
    // A pull or a rename can bring a file whose own time is older than the jar; its directory's
    // time says that something changed there.
    build();
    Path added = root.resolve("repl/src/main/java/org/dise/repl/Added.java");
    Files.writeString(added, "x\n");
    Files.setLastModifiedTime(added, FileTime.from(SOURCES));
    assertThat(jarStale()).isEqualTo("stale");
  }

  @Test
  void anEditedTestSourceLeavesTheJarCurrent() throws Exception {
    build();
    assertThat(touchedNow("repl/src/test/java/org/dise/repl/MainTest.java")).isEqualTo("current");
  }
}
