package org.dise.testsupport;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestSupportTest {
  @TempDir Path dir;

  @Test
  void theRootIsFoundFromAModuleFolderAndFromBelowIt() throws Exception {
    Path root = RepositoryRoot.path();
    assertThat(Files.exists(root.resolve("test-support/pom.xml"))).isTrue();
    assertThat(RepositoryRoot.find(root.resolve("test-support/src/main"))).isEqualTo(root);
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> RepositoryRoot.find(dir));
    assertThat(e).hasMessageThat().contains(dir.toString());
  }

  @Test
  void caseFilesAreListedByTheirEndingInNameOrder() throws Exception {
    Files.writeString(dir.resolve("b.elf"), "");
    Files.writeString(dir.resolve("a.elf"), "");
    Files.writeString(dir.resolve("c.txt"), "");
    Files.createDirectory(dir.resolve("d"));
    assertThat(TestFiles.endingWith(dir, ".elf"))
        .containsExactly(dir.resolve("a.elf"), dir.resolve("b.elf"))
        .inOrder();
    assertThat(TestFiles.namesEndingWith(dir, ".elf")).containsExactly("a", "b").inOrder();
  }

  @Test
  void goldenComparisonFailsOnADifferenceAndNamesTheUpdateSwitch() throws Exception {
    Path file = dir.resolve("x.expected");
    Files.writeString(file, "one\n");
    Golden.assertMatches(file, "one\n");
    AssertionError diff =
        assertThrows(AssertionError.class, () -> Golden.assertMatches(file, "two\n"));
    assertThat(diff).hasMessageThat().contains("-Dacf.updateGolden=true");
    AssertionError missing =
        assertThrows(
            AssertionError.class, () -> Golden.assertMatches(dir.resolve("none.expected"), "x"));
    assertThat(missing).hasMessageThat().contains("none.expected is missing");
  }

  @Test
  void updateModeWritesTheGoldenFile() {
    Path file = dir.resolve("sub/y.expected");
    String old = System.getProperty(Golden.UPDATE_PROPERTY);
    System.setProperty(Golden.UPDATE_PROPERTY, "true");
    try {
      Golden.assertMatches(file, "written\n");
    } finally {
      if (old == null) {
        System.clearProperty(Golden.UPDATE_PROPERTY);
      } else {
        System.setProperty(Golden.UPDATE_PROPERTY, old);
      }
    }
    Golden.assertMatches(file, "written\n");
  }

  @Test
  void aMissingToolIsReportedNotThrown() {
    assertThat(ExternalTool.missing("acf-no-such-tool-here", "--version"))
        .startsWith("acf-no-such-tool-here not found on PATH");
    assertThat(ExternalTool.missing("true")).isNull();
    assertThat(ExternalTool.missing("false")).contains("exit status 1");
  }

  @Test
  void capturedHoldsBothStreamsAndRestoresThem() {
    java.io.PrintStream out = System.out;
    Captured c =
        Captured.run(
            () -> {
              System.out.print("to out ü");
              System.err.print("to err");
              return 3;
            });
    assertThat(c).isEqualTo(new Captured(3, "to out ü", "to err"));
    assertThat(System.out).isSameInstanceAs(out);
  }
}
