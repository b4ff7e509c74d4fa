package org.dise.runtime.sink;

import static com.google.common.truth.Truth.assertWithMessage;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.dise.testsupport.Golden;
import org.junit.jupiter.api.Test;

/**
 * The component table of spec/acf-language.md is the catalogue's: it is generated, and this test
 * fails when the two differ ({@code -Dacf.updateGolden=true} rewrites the table).
 */
class CatalogueDocTest {
  static final Path SPEC = Path.of("../../spec/acf-language.md");
  static final String BEGIN = "<!-- catalogue:begin -->\n";
  static final String END = "<!-- catalogue:end -->";

  @Test
  void specTableIsTheCatalogue() throws Exception {
    String text = Files.readString(SPEC, StandardCharsets.UTF_8);
    int b = text.indexOf(BEGIN);
    int e = text.indexOf(END);
    String table = text.substring(b + BEGIN.length(), e);
    String expected = Catalogue.markdownTable();
    if (Golden.updating()) {
      Files.writeString(
          SPEC,
          text.substring(0, b + BEGIN.length()) + expected + text.substring(e),
          StandardCharsets.UTF_8);
      return;
    }
    assertWithMessage("spec/acf-language.md's component table; rerun with -Dacf.updateGolden=true")
        .that(table)
        .isEqualTo(expected);
  }
}
