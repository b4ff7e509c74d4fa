package org.dise.runtime.format;

import static com.google.common.truth.Truth.assertThat;

import java.util.List;
import org.dise.runtime.elf.ElfFile;
import org.dise.runtime.elf.SymbolTable;
import org.dise.runtime.sink.ProfileTable;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.api.Test;

/**
 * The line column goes after each column naming a code address (a map's {@code function}, a call
 * pair's {@code caller} and {@code callee}), empty where a pc has no line, and not at all for a
 * program without {@code -g}; a pc-keyed profile becomes its weight per pc.
 */
class SourceColumnsTest {
  static SymbolTable symbols(String program) throws Exception {
    return ElfFile.read(RepositoryRoot.path().resolve(program)).symbols();
  }

  static final String LINES = "integration-tests/src/test/c/bin/lines";

  @Test
  void mapAndCallPairColumnsGetTheirLines() throws Exception {
    SymbolTable s = symbols(LINES);
    long main = s.byName("main").orElseThrow().address();
    long mix = s.byName("mix").orElseThrow().address();
    long printf = s.byName("printf").orElseThrow().address();
    ProfileTable map =
        new ProfileTable(
            List.of("key", "function", "count"),
            List.of(
                List.of(hex(main + 0x10), "main+0x10", "5"), List.of(hex(printf), "printf", "1")),
            List.of("key"),
            "count");
    ProfileTable t = SourceColumns.of(map, s);
    assertThat(t.header()).containsExactly("key", "function", "line", "count").inOrder();
    assertThat(t.rows().get(0).get(2)).isEqualTo("lines.c:13");
    assertThat(t.rows().get(1).get(2)).isEmpty(); // libc: no line table
    assertThat(t.key()).containsExactly("key");
    assertThat(PcWeights.of(t).orElseThrow()).containsExactly(main + 0x10, 5L, printf, 1L);

    ProfileTable pairs =
        new ProfileTable(
            List.of("caller", "callee", "count", "caller_address", "callee_address"),
            List.of(List.of("main+0x28", "mix", "1", hex(main + 0x28), hex(mix))),
            List.of("caller_address", "callee_address"),
            "count");
    ProfileTable p = SourceColumns.of(pairs, s);
    assertThat(p.header())
        .containsExactly(
            "caller",
            "caller_line",
            "callee",
            "callee_line",
            "count",
            "caller_address",
            "callee_address")
        .inOrder();
    assertThat(p.rows().get(0)).containsAtLeast("lines.c:15", "lines_util.c:2");
    assertThat(PcWeights.of(p)).isEmpty(); // two addresses per entry
  }

  @Test
  void programWithoutDebugInfoIsUnchanged() throws Exception {
    SymbolTable s = symbols("examples/programs/bin/hello");
    long main = s.byName("main").orElseThrow().address();
    ProfileTable map =
        new ProfileTable(
            List.of("key", "function", "count"),
            List.<List<String>>of(List.of(hex(main), "main", "5")),
            List.of("key"),
            "count");
    assertThat(SourceColumns.of(map, s)).isSameInstanceAs(map);
    assertThat(Callgrind.ofLines(PcWeights.of(map).orElseThrow(), "count", "x", s)).isEmpty();
  }

  private static String hex(long a) {
    return "0x" + Long.toHexString(a);
  }
}
