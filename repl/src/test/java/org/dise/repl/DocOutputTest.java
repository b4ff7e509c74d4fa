package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The doc tests' comparison: elisions, and a refresh that keeps them (DocOutput). */
class DocOutputTest {
  @Test
  void anElisionLineStandsForAnyNumberOfLines() {
    List<String> doc = List.of("first", "...", "last");
    assertThat(DocOutput.merge(doc, List.of("first", "last")).changes()).isEqualTo(0);
    assertThat(DocOutput.merge(doc, List.of("first", "a", "b", "last")).changes()).isEqualTo(0);
    assertThat(DocOutput.merge(doc, List.of("first", "a", "b")).changes()).isGreaterThan(0);
    assertThat(DocOutput.merge(List.of("a"), List.of("a", "b")).changes()).isGreaterThan(0);
  }

  @Test
  void anElisionInALineStandsForAnyTextAndTrailingBlanksDoNotCount() {
    assertThat(DocOutput.lineMatches("compiler: acf ...", "compiler: acf 0.2.0 (commit 0b2d)"))
        .isTrue();
    assertThat(DocOutput.lineMatches("  ... bytes, ok", "  768 bytes, ok   ")).isTrue();
    assertThat(DocOutput.lineMatches("a.b", "axb")).isFalse(); // no other pattern syntax
    assertThat(DocOutput.lineMatches("x ... y", "x z")).isFalse();
  }

  @Test
  void aRefreshKeepsElisionsAndMatchedLinesAndReplacesChangedFigures() {
    List<String> doc =
        List.of(
            "profile strides: 191 keys, count 1,893",
            "  ...",
            "  overhead   225.65%",
            "compiler: acf ...",
            "...");
    List<String> printed =
        List.of(
            "profile strides: 190 keys, count 1,870",
            "  row 1",
            "  row 2",
            "  overhead   224.10%",
            "compiler: acf 0.3.0",
            "tail 1",
            "tail 2");
    DocOutput.Merge m = DocOutput.merge(doc, printed);
    assertThat(m.changes()).isGreaterThan(0);
    assertThat(m.lines())
        .containsExactly(
            "profile strides: 190 keys, count 1,870",
            "  ...",
            "  overhead   224.10%",
            "compiler: acf ...",
            "...")
        .inOrder();
    // The refreshed text matches what was printed.
    assertThat(DocOutput.merge(m.lines(), printed).changes()).isEqualTo(0);
  }

  @Test
  void aRefreshAddsNewLinesAndDropsGoneOnes() {
    DocOutput.Merge m = DocOutput.merge(List.of("a", "gone", "c"), List.of("a", "c", "new"));
    assertThat(m.lines()).containsExactly("a", "c", "new").inOrder();
  }

  @Test
  void commandsAreSplitAsAShellSplitsThem() {
    assertThat(DocBlock.words("./acf run --acf 'a b.acf' \"x\\\"y\" c\\ d # comment"))
        .containsExactly("./acf", "run", "--acf", "a b.acf", "x\"y", "c d")
        .inOrder();
  }

  @Test
  void blocksAreFoundAfterTheirMarkerWithOptionsAndContinuedCommands() {
    List<DocBlock> blocks =
        DocBlock.parse(
            "x.md",
            List.of(
                "text",
                "<!-- doctest: stderr status=1 needs=gcc,qemu -->",
                "```console",
                "$ ./acf run \\",
                "    prog",
                "out 1",
                "$ acf check a.acf",
                "```",
                "    <!-- doctest -->",
                "    ```console",
                "    $ an example in a code block, not a block",
                "    ```"));
    assertThat(blocks).hasSize(1);
    DocBlock b = blocks.get(0);
    assertThat(b.options().streams()).containsExactly("stderr");
    assertThat(b.options().status()).isEqualTo(1);
    assertThat(b.options().needs()).containsExactly("gcc", "qemu").inOrder();
    assertThat(b.commands()).hasSize(2);
    assertThat(DocBlock.words(b.commands().get(0).text())).containsExactly("./acf", "run", "prog");
    assertThat(b.commands().get(0).output()).containsExactly("out 1");
    assertThat(b.commands().get(1).output()).isEmpty();
  }

  @Test
  void aMarkerWithoutAConsoleFenceIsAnErrorNamingTheLine() {
    IllegalArgumentException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class,
            () -> DocBlock.parse("x.md", List.of("<!-- doctest -->", "```java", "```")));
    assertThat(e).hasMessageThat().contains("x.md:2:");
  }
}
