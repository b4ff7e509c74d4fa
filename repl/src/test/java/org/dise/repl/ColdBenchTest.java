package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;

import java.util.List;
import org.dise.repl.common.ExitStatus;
import org.junit.jupiter.api.Test;

/** {@code acf bench --cold}: fresh processes, their all-thread CPU time, ratios and medians. */
class ColdBenchTest {
  /** The launcher: this test's own class path, so the fresh JVM runs the code under test. */
  static final String LAUNCHER =
      "java -Xss16m -cp " + System.getProperty("java.class.path") + " org.dise.repl.Main";

  static final String BIN = ConfigCommandTest.ROOT.resolve("examples/programs/bin").toString();

  /** {@code acf bench --cold OPTIONS... --dir BIN --launcher LAUNCHER hello}. */
  private static ConfigCommandTest.Result coldHello(String... options) {
    List<String> line = new java.util.ArrayList<>(List.of("bench", "--cold"));
    line.addAll(List.of(options));
    line.addAll(List.of("--dir", BIN, "--launcher", LAUNCHER, "hello"));
    return ConfigCommandTest.acf(line.toArray(String[]::new));
  }

  @Test
  void childCpuTimeIsReadFromTheShellsTimesReport() {
    assertThat(ColdBench.childCpu("0m0.010000s 0m0.002000s\n1m2.500000s 0m0.250000s\n"))
        .isWithin(1e-9)
        .of(62.75);
    assertThat(ColdBench.childCpu("0m0.01s 0m0.00s\n0m1.25s 0m0.50s\n")).isWithin(1e-9).of(1.75);
    assertThat(ColdBench.childCpu("")).isNaN();
  }

  @Test
  void aBusyChildsCpuTimeAndExitStatusAreMeasured() throws Exception {
    ColdBench.Times t =
        ColdBench.time(
            List.of("sh", "-c", "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done; exit 3"));
    assertThat(t.status()).isEqualTo(3);
    assertThat(t.cpu()).isGreaterThan(0.05);
    assertThat(t.wall()).isAtLeast(t.cpu() / 4); // the child is one thread: wall bounds its CPU
  }

  @Test
  void medianAndGeometricMean() {
    ColdBench.Times m =
        ColdBench.median(
            List.of(
                new ColdBench.Times(3, 0.3, 0),
                new ColdBench.Times(1, 0.9, 0),
                new ColdBench.Times(2, 0.1, 0)));
    assertThat(m.wall()).isEqualTo(2.0);
    assertThat(m.cpu()).isEqualTo(0.3);
    assertThat(ColdBench.geomean(List.of(2.0, 8.0))).isWithin(1e-9).of(4.0);
  }

  @Test
  void repeatedRoundsGiveTheMedianOfEachRoundsRatioAndItsRange() {
    // Round 2 ran on a busy machine, both sides five times slower: its ratio is still 2x, and so
    // is the median of the rounds' ratios, where the median of each side (3 s over 1 s) says 3x.
    List<ColdBench.Times> ours =
        List.of(
            new ColdBench.Times(3, 3, 0),
            new ColdBench.Times(10, 10, 0),
            new ColdBench.Times(2, 2, 0));
    List<ColdBench.Times> qemu =
        List.of(
            new ColdBench.Times(1, 1, 0),
            new ColdBench.Times(5, 5, 0),
            new ColdBench.Times(1, 1, 0));
    double[] wall = ColdBench.roundRatios(ours, qemu, false);
    assertThat(wall).usingTolerance(1e-9).containsExactly(new double[] {2, 2, 3}).inOrder();
    assertThat(ColdBench.medianOf(wall)).isEqualTo(2.0);
    assertThat(ColdBench.medianOf(ColdBench.roundRatios(ours, qemu, true))).isEqualTo(2.0);
    assertThat(ColdBench.median(ours).wall() / ColdBench.median(qemu).wall()).isEqualTo(3.0);
  }

  @Test
  void repeatedColdRunsPrintTheRangeOfTheRoundsRatios() {
    if (!BenchCommand.onPath("qemu-riscv64")) {
      System.out.println("skipped: qemu-riscv64 is not on PATH (.ci/run installs it)");
      return;
    }
    ConfigCommandTest.Result r = coldHello("--repeat", "2");
    assertThat(r.status()).isEqualTo(0);
    assertThat(r.stdout()).contains("wall/q range");
    assertThat(r.stdout())
        .containsMatch("(?m)^hello( +[0-9.]+){4}( +[0-9.]+x){2} +[0-9.]+-[0-9.]+x$");
    assertThat(r.stdout()).contains("the median of each round's ratio");
  }

  @Test
  void coldBenchRunsHelloAsAFreshProcessAndPrintsItsRow() {
    ConfigCommandTest.Result r = coldHello();
    assertThat(r.stderr()).isEmpty();
    assertThat(r.status()).isEqualTo(0);
    assertThat(r.stdout()).contains("cold runs: java");
    assertThat(r.stdout()).containsMatch("(?m)^hello +[0-9.]+ +[0-9.]+");
    assertThat(r.stdout()).doesNotContain("exit status");
    if (BenchCommand.onPath("qemu-riscv64")) {
      assertThat(r.stdout()).containsMatch("(?m)^geomean +[0-9.]+x +[0-9.]+x");
    }
  }

  @Test
  void timingModelsAreColumnsBesideThePlainRun() {
    ConfigCommandTest.Result r = coldHello("--no-qemu", "--timing", "inorder,ooo");
    assertThat(r.status()).isEqualTo(0);
    // The plain command line, and a column of time over it per model.
    assertThat(r.stdout()).contains("run PROGRAM");
    assertThat(r.stdout()).containsMatch("inorder/plain +inorder-cpu/plain +ooo/plain");
    assertThat(r.stdout()).containsMatch("(?m)^hello( +[0-9.]+){2}( +[0-9.]+x){4}");
    ConfigCommandTest.Result bad = coldHello("--timing", "inorder,o3");
    assertThat(bad.status()).isEqualTo(ExitStatus.USAGE);
    assertThat(bad.stderr()).contains("unknown timing model `o3`");
  }

  @Test
  @SuppressWarnings("unchecked")
  void coldBenchAsJsonCarriesEachRowsFigures() throws Exception {
    ConfigCommandTest.Result r = coldHello("--format", "json", "--no-qemu", "--timing", "inorder");
    assertThat(r.status()).isEqualTo(0);
    java.util.Map<String, Object> doc =
        new com.fasterxml.jackson.databind.ObjectMapper()
            .readValue(r.stdout(), java.util.Map.class);
    assertThat((List<String>) doc.get("command")).contains("run");
    List<java.util.Map<String, Object>> rows =
        (List<java.util.Map<String, Object>>) doc.get("workloads");
    assertThat(rows).hasSize(1);
    java.util.Map<String, Object> hello = rows.get(0);
    assertThat(hello.get("workload")).isEqualTo("hello");
    assertThat(hello.get("exit_status")).isEqualTo(0);
    assertThat(((Number) hello.get("seconds")).doubleValue()).isGreaterThan(0.0);
    assertThat(hello.get("qemu")).isNull();
    List<java.util.Map<String, Object>> confs =
        (List<java.util.Map<String, Object>>) hello.get("configurations");
    assertThat(confs).hasSize(1);
    assertThat(confs.get(0).get("name")).isEqualTo("inorder");
    assertThat(((Number) confs.get(0).get("over_plain")).doubleValue()).isGreaterThan(0.0);
    assertThat(doc).containsKey("machine");
  }
}
