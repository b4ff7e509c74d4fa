package org.dise.runtime.elf;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.api.Test;

/**
 * The line table read from {@code .debug_line} agrees, row by row, with binutils' {@code objdump
 * --dwarf=decodedline}: file, line, address, is_stmt and the ends of sequences, for DWARF 5 (gcc's
 * default) and DWARF 4 programs of two compilation units; and a pc finds its line.
 */
class LineTableTest {
  static final String OBJDUMP = "riscv64-linux-gnu-objdump";
  static final Path C = Path.of("integration-tests/src/test/c/bin");

  /** {@code lines.c 12 0x10636 3 x} or {@code lines.c - 0x10670}. */
  static final Pattern ROW =
      Pattern.compile("^(\\S+)\\s+(\\d+|-)\\s+(0x[0-9a-f]+)(?:\\s+(\\d+))?(\\s+x)?\\s*$");

  @Test
  void rowsAgreeWithObjdump() throws Exception {
    Binutils.assume("LineTableTest", OBJDUMP);
    for (String name : List.of("lines", "lines4", "recurse")) {
      Path program = RepositoryRoot.path().resolve(C).resolve(name);
      LineTable t = LineTable.of(ElfFile.read(program));
      assertThat(t.problems()).isEmpty();
      List<String> expected = new ArrayList<>();
      for (String line : Binutils.lines(OBJDUMP, "--dwarf=decodedline", program.toString())) {
        Matcher m = ROW.matcher(line);
        if (m.matches() && !line.startsWith("File name")) {
          boolean end = m.group(2).equals("-");
          expected.add(
              String.format(
                  "%s %s %s%s",
                  m.group(1),
                  end ? "-" : m.group(2),
                  m.group(3),
                  end ? "" : m.group(5) != null ? " x" : ""));
        }
      }
      List<String> actual = new ArrayList<>();
      for (LineTable.Row r : t.rows()) {
        actual.add(
            String.format(
                "%s %s 0x%x%s",
                r.name(),
                r.endSequence() ? "-" : Integer.toString(r.line()),
                r.address(),
                r.endSequence() ? "" : r.isStmt() ? " x" : ""));
      }
      assertWithMessage(name).that(actual).hasSize(expected.size());
      assertWithMessage(name).that(actual).containsExactlyElementsIn(expected).inOrder();
      assertWithMessage(name).that(actual.size()).isGreaterThan(30);
    }
  }

  @Test
  void pcFindsItsLineInEitherUnitAndVersion() throws Exception {
    for (String name : List.of("lines", "lines4")) {
      ElfFile elf = ElfFile.read(RepositoryRoot.path().resolve(C).resolve(name));
      LineTable t = LineTable.of(elf);
      long main = elf.symbols().byName("main").orElseThrow().address();
      long mix = elf.symbols().byName("mix").orElseThrow().address();
      // lines.c:10 is `int main(void) {`, lines_util.c:2 is mix's first line.
      assertWithMessage(name).that(t.lookup(main).orElseThrow().toString()).isEqualTo("lines.c:10");
      assertWithMessage(name)
          .that(t.lookup(mix).orElseThrow().toString())
          .isEqualTo("lines_util.c:2");
      // DWARF 5 names the compilation directory in the line table; DWARF 4 only in .debug_info.
      assertWithMessage(name)
          .that(t.lookup(main).orElseThrow().path())
          .matches(
              name.equals("lines") ? "/.*/integration-tests/src/test/c/lines\\.c" : "lines\\.c");
      // Inside main's loop the pcs map to the loop's lines (12 and 13).
      List<Integer> loop = new ArrayList<>();
      for (long pc = main; pc < mix; pc += 2) {
        t.lookup(pc).ifPresent(l -> loop.add(l.line()));
      }
      assertWithMessage(name).that(loop).containsAtLeast(12, 13);
      // Libc has no line table here: its pcs have none.
      long printf = elf.symbols().byName("printf").orElseThrow().address();
      assertWithMessage(name).that(t.lookup(printf)).isEmpty();
      assertWithMessage(name)
          .that(t.rebased(0x1000).lookup(main + 0x1000).orElseThrow().line())
          .isEqualTo(10);
    }
  }

  @Test
  void programWithoutDebugInfoHasAnEmptyTable() throws Exception {
    LineTable t =
        LineTable.of(ElfFile.read(RepositoryRoot.path().resolve("examples/programs/bin/hello")));
    assertThat(t.isEmpty()).isTrue();
    assertThat(t.lookup(0x10000)).isEmpty();
  }

  @Test
  void truncatedSectionKeepsEarlierRowsAndSaysWhy() {
    // A unit whose length runs past the section.
    byte[] bad = {(byte) 0xff, 0x00, 0x00, 0x00, 5, 0};
    LineTable t = LineTable.parse(bad, new byte[0], new byte[0]);
    assertThat(t.isEmpty()).isTrue();
    assertThat(t.problems()).hasSize(1);
    assertThat(t.problems().get(0)).contains(".debug_line unit at 0x0");
  }
}
