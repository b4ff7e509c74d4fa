package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import com.google.perftools.profiles.ProfileProto;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.dise.repl.ConfigCommandTest.Result;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 32, finding 4: a program built with {@code -g} gets its source lines in every output
 * (callgrind {@code fl=} and line numbers, pprof Function filename/start_line and Line.line, a
 * {@code line} column, {@code acf report --by line}); one without keeps its output. {@code
 * bin/lines} is two compilation units whose main runs a loop of 200,000 iterations at
 * lines.c:12-13.
 */
class SourceLinesTest {
  static final Path LINES =
      ConfigCommandTest.ROOT.resolve("integration-tests/src/test/c/bin/lines");
  static final Path HELLO = ConfigCommandTest.ROOT.resolve("examples/programs/bin/hello");

  /** Every ALU instruction counted by its pc, and the calling contexts. */
  static final String ACF =
      "import profiles;\nuse calling_context;\n"
          + "sink pcs = count_map();\n"
          + "Alu: T.OPCLASS == alu => Count, null\n"
          + "Count: call(pcs, T.PC); T.INSN\n";

  @TempDir static Path tmp;
  static Path out;
  static Path plain;

  @BeforeAll
  static void runIt() throws Exception {
    Path acf = tmp.resolve("lines.acf");
    Files.writeString(acf, ACF);
    out = tmp.resolve("out");
    plain = tmp.resolve("plain");
    for (Object[] run : new Object[][] {{out, LINES}, {plain, HELLO}}) {
      Result r = ConfigCommandTest.runInto(acf.toString(), (Path) run[0], run[1].toString());
      assertWithMessage(r.stderr()).that(r.status()).isEqualTo(0);
    }
  }

  /** The cost lines of {@code function}'s block in a callgrind file: {@code [line, cost]}. */
  static List<long[]> costLines(List<String> callgrind, String function) {
    List<long[]> costs = new ArrayList<>();
    boolean in = false;
    for (String l : callgrind) {
      if (l.startsWith("fn=")) {
        in = l.endsWith(" " + function);
      } else if (in && l.matches("\\d+ \\d+( \\d+)*")) {
        String[] f = l.split(" ");
        costs.add(new long[] {Long.parseLong(f[0]), Long.parseLong(f[1])});
      } else if (l.startsWith("cfn=") || l.isEmpty()) {
        in = false;
      }
    }
    return costs;
  }

  @Test
  void callgrindOfPcsPutsMainsHotLoopOnItsSourceLines() throws Exception {
    List<String> cg = Files.readAllLines(out.resolve("callgrind.out.pcs"));
    int fl =
        cg.indexOf(
            cg.stream()
                .filter(l -> l.matches("fl=\\(\\d+\\) /.*/lines\\.c"))
                .findFirst()
                .orElseThrow());
    assertThat(cg.get(fl + 1)).isEqualTo("fn=(1) main");
    List<long[]> main = costLines(cg, "main");
    // The loop's body (line 13) runs 3 ALU instructions 200,000 times; its header (line 12) one.
    assertThat(main.stream().filter(c -> c[0] == 13).findFirst().orElseThrow()[1])
        .isEqualTo(600_000L);
    assertThat(main.stream().filter(c -> c[0] == 12).findFirst().orElseThrow()[1])
        .isAtLeast(200_000L);
    assertThat(main.stream().noneMatch(c -> c[0] == 0)).isTrue();
    // The second compilation unit's function is in its own file.
    assertThat(cg).contains("fn=(2) mix");
    assertThat(cg.get(cg.indexOf("fn=(2) mix") - 1)).matches("fl=\\(\\d+\\) /.*/lines_util\\.c");
  }

  @Test
  void callgrindOfCallingContextsNamesFilesAndLines() throws Exception {
    List<String> cg = Files.readAllLines(out.resolve("callgrind.out.CallingContext"));
    int main = cg.indexOf("fn=(1) main");
    assertThat(main).isGreaterThan(0);
    assertThat(cg.get(main - 1)).matches("fl=\\(1\\) /.*/lines\\.c");
    // main's self cost is at its first line (lines.c:10), its call of mix in lines_util.c.
    assertThat(cg.get(main + 1)).startsWith("10 ");
    assertThat(cg).contains("cfn=(2) mix");
    assertThat(cg.get(cg.indexOf("cfn=(2) mix") - 1)).matches("cfi=\\(2\\) /.*/lines_util\\.c");
    assertThat(cg.get(cg.indexOf("cfn=(2) mix") + 1)).isEqualTo("calls=1 2");
  }

  @Test
  void pprofFunctionsHaveFileAndStartLine() throws Exception {
    ProfileProto.Profile p;
    try (InputStream in =
        new GZIPInputStream(Files.newInputStream(out.resolve("CallingContext.pb.gz")))) {
      p = ProfileProto.Profile.parseFrom(in);
    }
    ProfileProto.Function main =
        p.getFunctionList().stream()
            .filter(f -> p.getStringTable((int) f.getName()).equals("main"))
            .findFirst()
            .orElseThrow();
    assertThat(p.getStringTable((int) main.getFilename()))
        .endsWith("/integration-tests/src/test/c/lines.c");
    assertThat(main.getStartLine()).isEqualTo(10);
    ProfileProto.Location loc =
        p.getLocationList().stream()
            .filter(l -> l.getLine(0).getFunctionId() == main.getId())
            .findFirst()
            .orElseThrow();
    assertThat(loc.getLine(0).getLine()).isEqualTo(10);
    // libc was built without -g: its functions have no file.
    ProfileProto.Function printf =
        p.getFunctionList().stream()
            .filter(f -> p.getStringTable((int) f.getName()).equals("printf"))
            .findFirst()
            .orElseThrow();
    assertThat(printf.getFilename()).isEqualTo(0);
  }

  @Test
  void reportByLineSumsPcsPerSourceLine() {
    Result r = ConfigCommandTest.acf("report", "--by", "line", "--profile", "pcs", out.toString());
    assertWithMessage(r.stderr()).that(r.status()).isEqualTo(0);
    List<String> lines = r.stdout().lines().toList();
    assertThat(lines.get(1).trim()).matches("line\\s+count\\s+%");
    assertThat(lines.get(2).trim()).matches("lines\\.c:13\\s+600000\\s+7\\d\\.\\d");
    assertThat(lines.get(3).trim()).startsWith("lines.c:12");
    // By function still works on the same run, and the entries show their line.
    Result f =
        ConfigCommandTest.acf("report", "--by", "function", "--profile", "pcs", out.toString());
    assertThat(f.stdout().lines().toList().get(2).trim()).startsWith("main ");
    Result e = ConfigCommandTest.acf("report", "--profile", "pcs", out.toString());
    assertThat(e.stdout().lines().toList().get(1)).contains("line");
    assertThat(e.stdout()).containsMatch("main\\+0x[0-9a-f]+\\s+lines\\.c:13\\s+200000");
  }

  @Test
  void viewTablesHaveTheLineColumn() throws Exception {
    Path page = tmp.resolve("view.html");
    Result r = ConfigCommandTest.acf("view", "-o", page.toString(), out.toString());
    assertWithMessage(r.stderr()).that(r.status()).isEqualTo(0);
    String html = Files.readString(page);
    assertThat(html).contains("\"columns\": [\"key\",\"function\",\"line\",\"count\"]");
    assertThat(html).containsMatch("\"main\\+0x[0-9a-f]+\",\"lines\\.c:13\"");
  }

  @Test
  void programWithoutDebugInfoKeepsItsOutput() throws Exception {
    Result r =
        ConfigCommandTest.acf("report", "--by", "line", "--profile", "pcs", plain.toString());
    assertThat(r.stdout()).contains("have no source lines (build the program with -g)");
    assertThat(Files.readString(plain.resolve("pcs.csv")).lines().findFirst().orElseThrow())
        .isEqualTo("key,function,count");
    assertThat(Files.exists(plain.resolve("callgrind.out.pcs"))).isFalse();
    assertThat(Files.readAllLines(plain.resolve("callgrind.out.CallingContext")))
        .contains("fl=(1) ???");
  }

  @Test
  void callgrindAnnotateReadsTheLines() throws Exception {
    if (!Files.isExecutable(Path.of("/usr/bin/callgrind_annotate"))) {
      System.out.println("skipped: callgrind_annotate is not installed (Debian package valgrind)");
      return;
    }
    Process p =
        new ProcessBuilder("callgrind_annotate", out.resolve("callgrind.out.pcs").toString())
            .redirectErrorStream(true)
            .start();
    String text = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor()).isEqualTo(0);
    assertThat(text).containsMatch("[0-9,]+ \\([ 0-9.]+%\\)\\s+/.*/lines\\.c:main");
    // The source is annotated line by line when it is where it was compiled (not in CI's copy).
    String compiled =
        Files.readAllLines(out.resolve("callgrind.out.pcs")).stream()
            .filter(l -> l.matches("fl=\\(\\d+\\) /.*/lines\\.c"))
            .findFirst()
            .orElseThrow()
            .replaceFirst("fl=\\(\\d+\\) ", "");
    if (Files.exists(Path.of(compiled))) {
      assertThat(text).containsMatch("600,000 \\([ 0-9.]+%\\)\\s+s \\+= \\(i \\* 7\\)");
    }
  }
}
