package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;

import java.util.regex.Pattern;
import org.dise.repl.DamagedInputTest.Run;
import org.dise.repl.common.ExitStatus;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.api.Test;

/**
 * {@code acf bench --list} names every micro-benchmark (the benchmark mains are programs, not
 * tests, so none of them runs here) and the workloads; a name that is neither is refused.
 */
class BenchListTest {
  static final String BIN = RepositoryRoot.resolve("examples/programs/bin").toString();

  @Test
  void listNamesEveryMicroBenchmarkAndTheWorkloads() {
    Run r = DamagedInputTest.acf("bench", "--list", "--dir", BIN);
    assertThat(r.status()).isEqualTo(0);
    for (Benchmarks.Benchmark b : Benchmarks.ALL) {
      assertThat(r.stdout())
          .containsMatch(
              "(?m)^  " + b.name() + " +" + Pattern.quote(b.measures().substring(0, 20)));
    }
    assertThat(r.stdout()).containsMatch("(?m)^  .*\\bjpeg\\b.*\\bmcf\\b");
    assertThat(Benchmarks.names()).isEqualTo("fpu, frontend, stream-finder");
  }

  @Test
  void aNameThatIsNeitherAWorkloadNorABenchmarkIsRefused() {
    Run r = DamagedInputTest.acf("bench", "--dir", BIN, "--no-qemu", "fp");
    assertThat(r.status()).isEqualTo(ExitStatus.USAGE);
    assertThat(r.stderr())
        .contains(
            "fp: no such workload (and fp is no micro-benchmark: fpu,"
                + " frontend, stream-finder)");
    assertThat(r.stderr()).doesNotContain("Exception");
  }
}
