package org.dise.runtime.profiles.sink;

import java.nio.file.Path;
import org.dise.runtime.dise.Catalogue;
import org.dise.testsupport.Golden;
import org.junit.jupiter.api.Test;

/**
 * The component table of spec/acf-language.md is the catalogue's: it is generated, and this test
 * fails when the two differ ({@code -Dacf.updateGolden=true} rewrites the table).
 */
class CatalogueDocTest {
  static final Path SPEC = Path.of("../../spec/acf-language.md");

  @Test
  void specTableIsTheCatalogue() {
    Golden.assertSection(SPEC, "catalogue", Catalogue.markdownTable());
  }
}
