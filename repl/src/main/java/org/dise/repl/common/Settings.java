package org.dise.repl.common;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The tool's settings by their environment variable names (docs/configuration.md): the environment
 * first, then the optional file {@code $XDG_CONFIG_HOME/acf/config.toml} (else {@code
 * ~/.config/acf/config.toml}; {@code ACF_CONFIG} names another), which holds the same names as
 * {@code NAME = "value"} lines. The file is the flat subset of TOML that these settings need (one
 * key per line, a string or a bare word, {@code #} comments), read here in a few lines rather than
 * through a TOML library for six strings; a line that is not of that form is reported once on
 * stderr with its line number and ignored.
 */
public final class Settings {
  private Settings() {}

  /** Every setting the tool reads, with what it does (docs/configuration.md has the same list). */
  public static final Map<String, String> KNOWN =
      Map.of(
          "ACF_DEBUG", "any value: as --verbose (debug detail, stack traces for internal errors)",
          "ACF_COLOR",
              "always or never: colour diagnostics and reports (NO_COLOR also turns it off)",
          "ACF_CACHE", "the folder of compiled ACFs, or off",
          "ACF_HISTORY", "the REPL's history file",
          "ACF_CDS", "off: no class-data archive (launchers)",
          "ACF_JAVA_OPTS", "the JVM options, replacing the launchers' (launchers)");

  private static Map<String, String> file;

  /** The value of {@code name}: the environment's, else the config file's, else null. */
  public static String get(String name) {
    String v = System.getenv(name);
    if (v != null) {
      return v;
    }
    return fromFile().get(name);
  }

  /** The config file's path. */
  public static Path path() {
    String explicit = System.getenv("ACF_CONFIG");
    if (explicit != null && !explicit.isEmpty()) {
      return Path.of(explicit);
    }
    return xdgFolder("XDG_CONFIG_HOME", ".config").resolve("config.toml");
  }

  /**
   * acf's folder in an XDG base directory: {@code $VARIABLE/acf} (for example XDG_CACHE_HOME), else
   * {@code ~/HOME_FOLDER/acf} when the variable is unset or blank.
   */
  public static Path xdgFolder(String variable, String homeFolder) {
    String xdg = System.getenv(variable);
    Path base =
        xdg != null && !xdg.isBlank()
            ? Path.of(xdg)
            : Path.of(System.getProperty("user.home"), homeFolder);
    return base.resolve("acf");
  }

  private static synchronized Map<String, String> fromFile() {
    if (file == null) {
      Path p = path();
      file = Files.isRegularFile(p) ? parse(p, read(p)) : Map.of();
    }
    return file;
  }

  private static String read(Path p) {
    try {
      return Files.readString(p, StandardCharsets.UTF_8);
    } catch (IOException e) {
      System.err.println("acf: " + p + ": cannot read: " + UserError.why(e));
      return "";
    }
  }

  /** {@code NAME = "value"} or {@code NAME = word} per line; comments and blank lines skipped. */
  public static Map<String, String> parse(Path p, String text) {
    Map<String, String> out = new LinkedHashMap<>();
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      java.util.regex.Matcher m =
          java.util.regex.Pattern.compile(
                  "([A-Za-z_][A-Za-z0-9_]*)\\s*=\\s*(\"((?:[^\"\\\\]|\\\\.)*)\"|([^\\s#\"]+))\\s*(#.*)?")
              .matcher(line);
      if (!m.matches()) {
        System.err.println(
            "acf: " + p + ":" + (i + 1) + ": expected NAME = \"value\"; line ignored");
        continue;
      }
      String value = m.group(3) != null ? m.group(3).replaceAll("\\\\(.)", "$1") : m.group(4);
      out.put(m.group(1).toUpperCase(java.util.Locale.ROOT), value);
    }
    return out;
  }
}
