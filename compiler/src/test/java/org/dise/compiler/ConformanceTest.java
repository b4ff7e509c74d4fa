package org.dise.compiler;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.dise.compiler.ast.AcfFile;
import org.dise.compiler.diag.DiagnosticRenderer;
import org.dise.compiler.diag.Diagnostics;
import org.dise.compiler.diag.SourceFile;
import org.dise.compiler.format.Formatter;
import org.dise.compiler.lib.DirectoryLibraryResolver;
import org.dise.compiler.parse.AcfParsing;
import org.dise.compiler.sem.ProgramPrinter;
import org.dise.testsupport.Golden;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.function.ThrowingConsumer;

/**
 * Runs the golden files of spec/conformance: each {@code valid/X.acf} must check without errors and
 * print {@code X.expected} (warnings, then the checked program), and survive the formatter ({@code
 * parse(print(parse(x))) == parse(x)}, and formatting is idempotent); each {@code invalid/X.acf}
 * must produce exactly the diagnostics in {@code X.expected}. Run with {@code
 * -Dacf.updateGolden=true} to rewrite the expectations.
 */
class ConformanceTest {
  static final Path ROOT = Path.of("..", "spec", "conformance");

  static Frontend frontend() {
    return Frontend.standard().withLibrary(new DirectoryLibraryResolver(ROOT.resolve("lib")));
  }

  /** The name a file has in diagnostics: relative to the conformance root, portable. */
  static String display(Path p) {
    return ROOT.relativize(p).toString().replace('\\', '/');
  }

  static Frontend.Result check(Path file) throws IOException {
    String text = Files.readString(file, StandardCharsets.UTF_8);
    return frontend().check(new SourceFile(display(file), text), file);
  }

  /** One test a {@code .acf} file of {@code dir}, in name order, named by its path. */
  static Stream<DynamicTest> forEachFile(String dir, ThrowingConsumer<Path> test)
      throws IOException {
    try (Stream<Path> s = Files.list(ROOT.resolve(dir))) {
      List<Path> files = s.filter(p -> p.toString().endsWith(".acf")).sorted().toList();
      return DynamicTest.stream(files.stream(), ConformanceTest::display, test);
    }
  }

  static void compare(Path acf, String actual) throws IOException {
    Path expected = Path.of(acf.toString().replaceFirst("\\.acf$", ".expected"));
    Golden.assertMatches(expected, actual);
  }

  @TestFactory
  Stream<DynamicTest> valid() throws IOException {
    return forEachFile(
        "valid",
        acf -> {
          Frontend.Result r = check(acf);
          String diags = DiagnosticRenderer.renderAll(r.diagnostics().sorted());
          assertWithMessage(diags).that(r.ok()).isTrue();
          String out =
              (diags.isEmpty() ? "" : diags + "\n") + ProgramPrinter.print(r.program().get());
          compare(acf, out);
          roundTrip(r.ast().get());
        });
  }

  @TestFactory
  Stream<DynamicTest> invalid() throws IOException {
    return forEachFile(
        "invalid",
        acf -> {
          Frontend.Result r = check(acf);
          assertWithMessage("expected errors").that(r.ok()).isFalse();
          compare(acf, DiagnosticRenderer.renderAll(r.diagnostics().sorted()));
        });
  }

  /** The formatter's contract on every valid file, library fixtures included. */
  @TestFactory
  Stream<DynamicTest> formatterRoundTrip() throws IOException {
    return forEachFile(
        "lib",
        acf -> {
          Diagnostics d = new Diagnostics();
          Optional<AcfFile> ast =
              AcfParsing.parse(
                  new SourceFile(display(acf), Files.readString(acf, StandardCharsets.UTF_8)), d);
          assertWithMessage(DiagnosticRenderer.renderAll(d.all())).that(ast.isPresent()).isTrue();
          roundTrip(ast.get());
        });
  }

  static void roundTrip(AcfFile ast) {
    String printed = Formatter.format(ast);
    Diagnostics d = new Diagnostics();
    Optional<AcfFile> again = AcfParsing.parse(new SourceFile("formatted", printed), d);
    assertWithMessage(printed + DiagnosticRenderer.renderAll(d.all()))
        .that(again.isPresent())
        .isTrue();
    assertWithMessage(printed).that(again.get()).isEqualTo(ast);
    assertThat(Formatter.format(again.get())).isEqualTo(printed);
  }
}
