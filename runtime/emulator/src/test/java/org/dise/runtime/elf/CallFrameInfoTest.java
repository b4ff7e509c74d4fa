package org.dise.runtime.elf;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.api.Test;

/**
 * The unwind table read from {@code .eh_frame} (libc's functions in a static program) and {@code
 * .debug_frame} (a {@code -g} build's own functions) agrees, row by row, with binutils' {@code
 * readelf --debug-dump=frames-interp}: the CFA rule and every saved register's slot.
 */
class CallFrameInfoTest {
  static final String READELF = "riscv64-linux-gnu-readelf";
  static final Map<String, Integer> REGS =
      Map.ofEntries(
          Map.entry("ra", 1),
          Map.entry("sp", 2),
          Map.entry("gp", 3),
          Map.entry("tp", 4),
          Map.entry("s0", 8),
          Map.entry("s1", 9),
          Map.entry("s2", 18),
          Map.entry("s3", 19),
          Map.entry("s4", 20),
          Map.entry("s5", 21),
          Map.entry("s6", 22),
          Map.entry("s7", 23),
          Map.entry("s8", 24),
          Map.entry("s9", 25),
          Map.entry("s10", 26),
          Map.entry("s11", 27));

  @Test
  void rowsAgreeWithReadelf() throws Exception {
    Binutils.assume("CallFrameInfoTest", READELF);
    Path root = RepositoryRoot.path();
    for (Path program :
        List.of(
            root.resolve("examples/programs/bin/callstack"),
            root.resolve("integration-tests/src/test/c/bin/recurse"))) {
      CallFrameInfo cfi = CallFrameInfo.of(ElfFile.read(program));
      assertThat(cfi.size()).isGreaterThan(100);
      List<String> lines =
          Binutils.lines(READELF, "--debug-dump=frames-interp", program.toString());
      Pattern fde = Pattern.compile(".* FDE cie=\\S+ pc=([0-9a-f]+)\\.\\.([0-9a-f]+)");
      List<String> columns = List.of();
      long fdeStart = -1;
      int rows = 0;
      for (String line : lines) {
        Matcher m = fde.matcher(line);
        if (m.matches()) {
          fdeStart = Long.parseUnsignedLong(m.group(1), 16);
          continue;
        }
        if (line.contains(" CIE")) {
          fdeStart = -1; // a CIE's own initial row
          continue;
        }
        String t = line.trim();
        if (t.startsWith("LOC")) {
          columns = List.of(t.split("\\s+"));
          continue;
        }
        if (fdeStart < 0 || !t.matches("[0-9a-f]{16}\\s.*")) {
          continue;
        }
        String[] cells = t.split("\\s+");
        long loc = Long.parseUnsignedLong(cells[0], 16);
        CallFrameInfo.Row row = cfi.rowAt(loc);
        String where = program.getFileName() + " at 0x" + Long.toHexString(loc);
        assertWithMessage(where).that(row).isNotNull();
        assertWithMessage(where).that(row.function()).isEqualTo(fdeStart);
        Matcher cfa = Pattern.compile("(\\w+)\\+(\\d+)").matcher(cells[1]);
        if (!cfa.matches()) {
          continue; // an expression: readelf prints "exp"
        }
        assertWithMessage(where).that(row.cfaRegister()).isEqualTo(REGS.get(cfa.group(1)));
        assertWithMessage(where).that(row.cfaOffset()).isEqualTo(Long.parseLong(cfa.group(2)));
        for (int i = 2; i < cells.length && i < columns.size(); i++) {
          Integer reg = REGS.get(columns.get(i));
          if (reg == null) {
            continue; // an f register
          }
          String cell = cells[i];
          String what = where + " " + columns.get(i);
          if (cell.startsWith("c")) {
            assertWithMessage(what).that(row.rules()[reg]).isEqualTo(CallFrameInfo.Rule.OFFSET);
            assertWithMessage(what)
                .that(row.values()[reg])
                .isEqualTo(Long.parseLong(cell.substring(1)));
          } else if (cell.equals("u")) {
            assertWithMessage(what)
                .that(row.rules()[reg])
                .isAnyOf(CallFrameInfo.Rule.SAME, CallFrameInfo.Rule.UNDEFINED);
          }
        }
        rows++;
      }
      assertWithMessage(program.toString()).that(rows).isGreaterThan(500);
    }
  }

  @Test
  void aPcWithoutAnFdeHasNoRow() throws Exception {
    CallFrameInfo cfi =
        CallFrameInfo.of(
            ElfFile.read(RepositoryRoot.path().resolve("examples/programs/bin/callstack")));
    // callstack's own functions (gcc 12, no -g) have no CFI; main is one of them.
    long main =
        ElfFile.read(RepositoryRoot.path().resolve("examples/programs/bin/callstack"))
            .symbols()
            .byName("main")
            .get()
            .address();
    assertThat(cfi.rowAt(main)).isNull();
    assertThat(CallFrameInfo.EMPTY.rowAt(main)).isNull();
  }
}
