package org.dise.testsupport;

import static com.google.common.truth.Truth.assertWithMessage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Golden-file comparison: a test's output must equal a committed file; run the tests with {@code
 * -Dacf.updateGolden=true} to rewrite the files from the output instead (then review the diff
 * before committing).
 */
public final class Golden {
  /** The system property that turns comparison into rewriting. */
  public static final String UPDATE_PROPERTY = "acf.updateGolden";

  private Golden() {}

  /** True when the golden files are being rewritten rather than checked. */
  public static boolean updating() {
    return Boolean.getBoolean(UPDATE_PROPERTY);
  }

  /**
   * Fails unless {@code expected} holds exactly {@code actual} (UTF-8); in update mode writes it
   * (creating folders) and passes.
   */
  public static void assertMatches(Path expected, String actual) {
    try {
      if (updating()) {
        if (expected.getParent() != null) {
          Files.createDirectories(expected.getParent());
        }
        Files.writeString(expected, actual, StandardCharsets.UTF_8);
        return;
      }
      assertWithMessage("%s is missing; run with -D%s=true to write it", expected, UPDATE_PROPERTY)
          .that(Files.exists(expected))
          .isTrue();
      assertWithMessage(
              "%s differs (rerun with -D%s=true to rewrite it)", expected, UPDATE_PROPERTY)
          .that(actual)
          .isEqualTo(Files.readString(expected, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(expected.toString(), e);
    }
  }

  /**
   * Fails unless the part of the document {@code doc} between {@code <!-- NAME:begin -->} (and its
   * newline) and {@code <!-- NAME:end -->} is exactly {@code expected}: a table in a spec that is
   * generated from the code. In update mode rewrites that part and passes.
   */
  public static void assertSection(Path doc, String name, String expected) {
    String begin = "<!-- " + name + ":begin -->\n";
    String end = "<!-- " + name + ":end -->";
    try {
      String text = Files.readString(doc, StandardCharsets.UTF_8);
      int b = text.indexOf(begin);
      int e = text.indexOf(end);
      assertWithMessage("%s has no %s...%s section", doc, begin.strip(), end)
          .that(b >= 0 && e > b)
          .isTrue();
      if (updating()) {
        Files.writeString(
            doc,
            text.substring(0, b + begin.length()) + expected + text.substring(e),
            StandardCharsets.UTF_8);
        return;
      }
      assertWithMessage("%s's %s section; rerun with -D%s=true", doc, name, UPDATE_PROPERTY)
          .that(text.substring(b + begin.length(), e))
          .isEqualTo(expected);
    } catch (IOException e) {
      throw new UncheckedIOException(doc.toString(), e);
    }
  }
}
