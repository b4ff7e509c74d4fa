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
    Path acf = tmp.resolve("p.acf");
    Files.writeString(acf, "import profiles;\nuse hot_call_pairs;\nuse calling_context;\n");
    String program = ISA.resolve("threads.elf").toString();
    Path a = tmp.resolve("a");
    Path b = tmp.resolve("b");
    Result ra =
        ConfigCommandTest.acf("run", "--acf", acf.toString(), "--out", a.toString(), program);
    Result rb =
        ConfigCommandTest.acf("run", "--acf", acf.toString(), "--out", b.toString(), program);
    assertThat(ra.status()).isEqualTo(0);
    assertThat(rb.status()).isEqualTo(0);
    List<Path> fa = profileFiles(a);
    assertThat(fa).isNotEmpty();
    for (Path f : fa) {
      Path g = b.resolve(a.relativize(f));
      assertThat(Files.readAllBytes(g)).isEqualTo(Files.readAllBytes(f));
    }
  }

  @Test
  void eachForkedProcessHasItsProfileAndCommandLine(@TempDir Path tmp) throws Exception {
    Path acf = tmp.resolve("p.acf");
    Files.writeString(acf, "import profiles;\nuse hot_call_pairs;\n");
    Path out = tmp.resolve("out");
    Result r =
        ConfigCommandTest.acf(
            "run",
            "--acf",
            acf.toString(),
            "--out",
            out.toString(),
            ISA.resolve("processes.elf").toString());
    assertThat(r.status()).isEqualTo(0);
    assertThat(r.stderr()).contains("acf: 12 more processes profiled");
    String child = Files.readString(out.resolve("pid-1001/summary.json"));
    assertThat(child).contains("\"process\":{\"pid\":1001,\"argv\":[");
    assertThat(child).contains("processes.elf");
    assertThat(Files.readString(out.resolve("summary.json")))
        .contains("\"process\":{\"pid\":1000,");
  }
}
