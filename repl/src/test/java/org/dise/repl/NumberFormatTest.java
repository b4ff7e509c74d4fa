package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.api.Test;

/**
 * A run's report prints its numbers as the documentation shows them (8,408 and 1.0000x) whatever
 * the host's locale: a fresh JVM whose default locale is German, where the JDK would print 8.408
 * and 1,0000x, prints the same report as any other.
 */
class NumberFormatTest {
  static final Path ROOT = RepositoryRoot.path();

  @Test
  void aReportsNumbersDoNotFollowTheHostsLocale() throws Exception {
    Process p =
        new ProcessBuilder(
                AcfJvm.java(),
                "-Xss16m",
                "-Duser.language=de",
                "-Duser.country=DE",
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName(),
                "run",
                "--no-cache",
                "--acf",
                ROOT.resolve("examples/acf/flag_off_regions.acf").toString(),
                ROOT.resolve("examples/programs/bin/hello").toString())
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isEqualTo(0);
    assertThat(out).containsMatch("application instructions +\\d{1,3}(,\\d{3})+\\n");
    assertThat(out).containsMatch("overhead +1\\.0000x\\n");
  }
}
