package org.dise.compiler.gen;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.dise.compiler.Frontend;
import org.dise.compiler.diag.DiagnosticRenderer;
import org.dise.compiler.diag.Diagnostics;
import org.dise.compiler.diag.SourceFile;
import org.dise.compiler.lower.Lowering;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.dise.SpecializedEngine;
import org.dise.testsupport.Golden;
import org.junit.jupiter.api.Test;

/**
 * The generated engine's source, compared as a whole file with {@code
 * spec/conformance/codegen/X.java.expected} ({@code -Dacf.updateGolden=true} rewrites it); its
 * behaviour is compared with the interpreter's in integration-tests' EngineEndToEndTest.
 */
class EngineGeneratorTest {
  static final Path DIR = Path.of("..", "spec", "conformance", "codegen");

  static ProductionSet lower(Path acf) throws Exception {
    String text = Files.readString(acf, StandardCharsets.UTF_8);
    Frontend.Result r =
        Frontend.standard().check(new SourceFile(acf.getFileName().toString(), text), acf);
    Diagnostics diags = r.diagnostics();
    ProductionSet set = r.program().flatMap(p -> Lowering.lower(p, diags)).orElse(null);
    assertWithMessage(DiagnosticRenderer.renderAll(diags.sorted())).that(set).isNotNull();
    return set;
  }

  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"watch_and_pairs", "tagging", "maps"})
  void generatedSourceMatchesTheGoldenFile(String name) throws Exception {
    Path acf = DIR.resolve(name + ".acf");
    String actual = EngineGenerator.generate(lower(acf), "GoldenEngine").toString();
    Path expected = DIR.resolve(name + ".java.expected");
    Golden.assertMatches(expected, actual);
  }

  @Test
  void oneClassPerProductionSetCompiledOnce() throws Exception {
    ProductionSet set = lower(DIR.resolve("watch_and_pairs.acf"));
    SpecializedEngine a = EngineCompiler.load(set);
    SpecializedEngine b = EngineCompiler.load(lower(DIR.resolve("watch_and_pairs.acf")));
    assertThat(a).isNotSameInstanceAs(b);
    assertThat(a.getClass()).isSameInstanceAs(b.getClass());
    assertThat(a.getClass().getSimpleName()).isEqualTo(EngineCompiler.className(set));
    assertThat(a.productionSet()).isEqualTo(set);
  }
}
