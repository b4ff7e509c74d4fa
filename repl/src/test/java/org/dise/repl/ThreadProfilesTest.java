package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.dise.repl.ConfigCommandTest.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Threads are scheduled deterministically, so two runs of a multithreaded program under the same
 * ACF write byte-identical profiles (issue 28); a forked process's profile goes to pid-N.
 */
class ThreadProfilesTest {
  private static final Path ISA =
      ConfigCommandTest.ROOT.resolve("runtime/emulator/src/test/resources/isa");

  private static List<Path> profileFiles(Path dir) throws Exception {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile)
          .filter(p -> !p.getFileName().toString().equals("summary.json")) // holds times
          .sorted()
          .toList();
    }
  }

  @Test
  void twoRunsOfAMultithreadedProgramWriteTheSameProfiles(@TempDir Path tmp) throws Exception {
    String acf = "import profiles;\nuse hot_call_pairs;\nuse calling_context;\n";
    Path a = tmp.resolve("a");
    Path b = tmp.resolve("b");
    profiled(tmp, acf, a, "threads.elf");
    profiled(tmp, acf, b, "threads.elf");
    List<Path> fa = profileFiles(a);
    assertThat(fa).isNotEmpty();
    for (Path f : fa) {
      Path g = b.resolve(a.relativize(f));
      assertThat(Files.readAllBytes(g)).isEqualTo(Files.readAllBytes(f));
    }
  }

  /**
   * Runs the test program NAME (the last of {@code more}, after options) from the ISA tests under
   * the ACF text, written to DIR/p.acf, with its run directory in OUT; the run must succeed.
   */
  private static Result profiled(Path dir, String acfText, Path out, String... more)
      throws Exception {
    Path acf = Files.writeString(dir.resolve("p.acf"), acfText);
    String[] line = more.clone();
    line[line.length - 1] = ISA.resolve(line[line.length - 1]).toString();
    Result r = ConfigCommandTest.runInto(acf.toString(), out, line);
    assertThat(r.status()).isEqualTo(0);
    return r;
  }

  @Test
  void eachThreadHasItsOwnCallingContextStack(@TempDir Path tmp) throws Exception {
    Path out = tmp.resolve("out");
    profiled(tmp, "import profiles;\nuse calling_context;\n", out, "threads.elf");
    List<String> rows = Files.readAllLines(out.resolve("CallingContext.csv"));
    long workerInstructions = 0;
    for (String row : rows.subList(1, rows.size())) {
      String[] c = row.split(",");
      String stack = c[5];
      // A worker's calls are on its own stack, rooted where the thread started; a switch in the
      // middle of a call chain never grafts one thread's frames onto another's.
      if (stack.contains("add_atomic") || stack.contains("add_locked")) {
        assertThat(stack).startsWith("__thread_start;start_thread;add_");
        workerInstructions += Long.parseLong(c[1]);
      }
      if (stack.contains("start_thread")) {
        assertThat(stack).doesNotContain("main");
      }
    }
    // add_atomic's loops: 4 threads x 20,000 iterations of a dozen instructions and more.
    assertThat(workerInstructions).isGreaterThan(1_000_000L);
  }

  @Test
  void mapsKeyedByTheThreadIdTellThreadsApart(@TempDir Path tmp) throws Exception {
    String acf =
        "sink per_thread = count_map();\n"
            + "Call: T.OPCLASS == proc_call => C, null\n"
            + "C: call(per_thread, T.TID, T.TARGET); T.INSN\n";
    for (String threshold : List.of("0", "1")) {
      Path out = tmp.resolve("out" + threshold);
      profiled(tmp, acf, out, "--translate-threshold", threshold, "threads.elf");
      List<String> rows = Files.readAllLines(out.resolve("per_thread.csv"));
      // The four workers of the locked counter (threads 1001-1004) lock 1,000 times each.
      for (int tid = 1001; tid <= 1004; tid++) {
        assertThat(rows).contains(tid + ",0x22abc,pthread_mutex_lock,1000");
      }
      assertThat(rows.stream().filter(l -> l.startsWith("1000,")).count()).isGreaterThan(10L);
    }
  }

  @Test
  void eachForkedProcessHasItsProfileAndCommandLine(@TempDir Path tmp) throws Exception {
    Path out = tmp.resolve("out");
    Result r = profiled(tmp, "import profiles;\nuse hot_call_pairs;\n", out, "processes.elf");
    assertThat(r.stderr()).contains("acf: 12 more processes profiled");
    String child = Files.readString(out.resolve("pid-1001/summary.json"));
    assertThat(child).contains("\"process\":{\"pid\":1001,\"argv\":[");
    assertThat(child).contains("processes.elf");
    assertThat(Files.readString(out.resolve("summary.json")))
        .contains("\"process\":{\"pid\":1000,");
  }
}
