package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.api.Test;

/**
 * Which JVM ./acf runs (README, "Which JDK"): ACF_JAVA when set, otherwise the newest JDK 24 or
 * later under /usr/lib/jvm (its ahead-of-time cache starts a run fastest), otherwise JAVA_HOME's.
 * Asked with ACF_LAUNCHER=which-java, which answers before anything is built or cached.
 */
class LauncherJdkTest {
  private static final Path JVMS = Path.of("/usr/lib/jvm");

  /** "JAVA FEATURE" as the launcher prints it, run with {@code env} added. */
  private static String[] whichJava(Map<String, String> env) throws Exception {
    ProcessBuilder pb = new ProcessBuilder("bash", RepositoryRoot.resolve("acf").toString());
    pb.environment().remove("ACF_JAVA");
    pb.environment().putAll(env);
    pb.environment().put("ACF_LAUNCHER", "which-java");
    pb.redirectErrorStream(true);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assertThat(p.waitFor()).isEqualTo(0);
    return out.split(" ");
  }

  /** The feature release a JDK's release file names, or 0. */
  private static int feature(Path jdk) throws IOException {
    Path release = jdk.resolve("release");
    if (!Files.isRegularFile(release)) {
      return 0;
    }
    for (String line : Files.readAllLines(release)) {
      if (line.startsWith("JAVA_VERSION=\"")) {
        String v = line.substring("JAVA_VERSION=\"".length()).split("[.\"]")[0];
        return v.matches("[0-9]+") ? Integer.parseInt(v) : 0;
      }
    }
    return 0;
  }

  /** The newest feature release of a JDK 24+ under /usr/lib/jvm, or 0 when there is none. */
  private static int newestAotJdk() throws IOException {
    int best = 0;
    if (Files.isDirectory(JVMS)) {
      try (DirectoryStream<Path> dirs = Files.newDirectoryStream(JVMS)) {
        for (Path d : dirs) {
          int f = feature(d);
          if (f >= 24 && Files.isExecutable(d.resolve("bin/java"))) {
            best = Math.max(best, f);
          }
        }
      }
    }
    return best;
  }

  @Test
  void acfJavaChoosesTheJvm() throws Exception {
    Path running = Path.of(System.getProperty("java.home"), "bin", "java");
    String[] chosen = whichJava(Map.of("ACF_JAVA", running.toString()));
    assertThat(chosen[0]).isEqualTo(running.toString());
    // Its feature release is read from the JDK's release file, as the running JVM reports it.
    assertThat(Integer.parseInt(chosen[1])).isEqualTo(Runtime.version().feature());
  }

  @Test
  void withoutAcfJavaJavaHomesJvmRuns() throws Exception {
    String home = System.getProperty("java.home");
    String[] chosen = whichJava(Map.of("JAVA_HOME", home));
    assertThat(chosen[0]).isEqualTo(Path.of(home, "bin", "java").toString());
    assertThat(Integer.parseInt(chosen[1])).isEqualTo(Runtime.version().feature());
  }

  @Test
  void acfJavaAutoChoosesTheNewestJdkWithAnAheadOfTimeCache() throws Exception {
    int newest = newestAotJdk();
    assumeTrue(
        newest > 0,
        "no JDK 24 or later under /usr/lib/jvm: ACF_JAVA=auto falls back to JAVA_HOME's or"
            + " PATH's java with the class-data archive");
    String[] chosen =
        whichJava(Map.of("ACF_JAVA", "auto", "JAVA_HOME", System.getProperty("java.home")));
    assertThat(Integer.parseInt(chosen[1])).isEqualTo(newest);
    Path jdk = Path.of(chosen[0]).getParent().getParent();
    assertThat(jdk.getParent()).isEqualTo(JVMS);
    assertThat(feature(jdk)).isEqualTo(newest);
  }
}
