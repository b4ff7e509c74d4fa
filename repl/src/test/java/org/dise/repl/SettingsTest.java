package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.dise.repl.common.Settings;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.api.Test;

/**
 * Issue 32, conventions: the environment variables were spread over the README, help texts and
 * launcher comments, with no config file. docs/configuration.md lists them and the config file
 * takes the same names.
 */
class SettingsTest {
  @Test
  void theConfigFileTakesTheSameNames() {
    Map<String, String> m =
        Settings.parse(
            Path.of("config.toml"),
            "# comment\nACF_COLOR = \"never\"\n\nacf_cache = /tmp/c  # a bare word\n"
                + "ACF_HISTORY = \"a \\\"quoted\\\" name\"\nnot a setting\n");
    assertThat(m)
        .containsExactly(
            "ACF_COLOR", "never", "ACF_CACHE", "/tmp/c", "ACF_HISTORY", "a \"quoted\" name");
  }

  @Test
  void everySettingTheCodeReadsIsDocumented() throws Exception {
    String doc = Files.readString(RepositoryRoot.resolve("docs/configuration.md"));
    for (String name : Settings.KNOWN.keySet()) {
      assertThat(doc).contains("| `" + name + "` |");
    }
    // ... and every ACF_ variable the sources read is one of them.
    try (var files = Files.walk(RepositoryRoot.resolve("repl/src/main/java"))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
        var m =
            java.util.regex.Pattern.compile("getenv\\(\"(ACF_[A-Z_]+)\"\\)")
                .matcher(Files.readString(f));
        while (m.find()) {
          assertThat(doc).contains("`" + m.group(1) + "`");
        }
      }
    }
    String launcher = Files.readString(RepositoryRoot.resolve("acf"));
    var m = java.util.regex.Pattern.compile("\\$\\{?(ACF_[A-Z_]+)").matcher(launcher);
    while (m.find()) {
      assertThat(doc).contains("`" + m.group(1) + "`");
    }
  }
}
