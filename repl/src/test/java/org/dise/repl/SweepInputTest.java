package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;
import static org.dise.repl.ConfigCommandTest.acf;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dise.runtime.profiles.sampling.Sweep;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code acf sweep} on a program that reads a file and its standard input and writes a file:
 * --allow-read, --allow-write and --stdin reach every run, the exhaustive first pass included.
 */
class SweepInputTest {
  static final Path ROOT = RepositoryRoot.path();
  static final String PROGRAM = ROOT.resolve("repl/src/test/c/bin/filework").toString();

  /**
   * {@code acf sweep --acf sampled_regions.acf --periods PERIODS --one-in 4 --seeds 1 --thresholds
   * 25 MORE...}: a small grid, one run each for random and phase sampling.
   */
  static String[] smallSweep(String periods, String... more) {
    List<String> line =
        new ArrayList<>(
            List.of(
                "sweep",
                "--acf",
                SamplingCommandTest.ACF,
                "--periods",
                periods,
                "--one-in",
                "4",
                "--seeds",
                "1",
                "--thresholds",
                "25"));
    line.addAll(List.of(more));
    return line.toArray(String[]::new);
  }

  /** A worker is the same sweep: its line gives back every timing and file option (paths too). */
  @Test
  void aWorkersLineKeepsTheTimingAndFileOptions(@TempDir Path dir) throws Exception {
    Path model = Files.writeString(dir.resolve("model.cfg"), "");
    picocli.CommandLine cl = Cli.commandLine();
    String[] line =
        smallSweep(
            "2",
            "--timing",
            "inorder",
            "--timing-config",
            model.toString(),
            "--timing-sample",
            "10K:1K",
            "--allow-read",
            dir.toString());
    SweepCommand given = cl.parseArgs(line).subcommand().commandSpec().commandLine().getCommand();
    List<String> worker = given.workerArgs(dir.resolve("runs"), "0");
    SweepCommand again =
        Cli.commandLine()
            .parseArgs(worker.toArray(String[]::new))
            .subcommand()
            .commandSpec()
            .commandLine()
            .getCommand();
    assertThat(again.timing.values()).isEqualTo(given.timing.values());
    assertThat(again.files.values()).isEqualTo(given.files.values());
  }

  @Test
  void everyRunReadsTheSameInput(@TempDir Path dir) throws Exception {
    Path data = Files.createDirectories(dir.resolve("data"));
    Files.writeString(data.resolve("table.txt"), "weights\n");
    Files.writeString(data.resolve("input.txt"), "a".repeat(30) + "z".repeat(30) + "\n");
    Path outDir = Files.createDirectories(dir.resolve("outdir"));
    Path csv = dir.resolve("sweep.csv");
    ConfigCommandTest.Result r =
        acf(
            smallSweep(
                "1,4",
                "--interval",
                "20K",
                "--allow-read",
                data.toString(),
                "--allow-write",
                outDir.toString(),
                "--stdin",
                data.resolve("input.txt").toString(),
                "--workload",
                PROGRAM + " " + data.resolve("table.txt") + " " + outDir.resolve("result.txt"),
                "--out",
                csv.toString()));
    assertThat(r.stderr()).doesNotContain("Permission");
    assertThat(r.status()).isEqualTo(0);
    List<Sweep.Point> points = Sweep.readCsv(Files.readAllLines(csv));
    assertThat(points).hasSize(4);
    // Every interval sampled: the estimate is the exhaustive profile only if the first pass
    // read the same standard input as the sampled run.
    Sweep.Point all = points.get(0);
    assertThat(all.parameter()).isEqualTo("1");
    assertThat(all.sampledFraction()).isEqualTo(1.0);
    assertThat(all.countError()).isLessThan(0.001);
    assertThat(all.intervals()).isGreaterThan(5L);
    assertThat(Files.readString(outDir.resolve("result.txt"))).startsWith("773 ");
    // The CSV says how it was made: the settings every run shared, defaults included, as
    // constant columns, and an earlier sweep's CSV still reads back.
    List<String> lines = Files.readAllLines(csv);
    List<String> header = List.of(lines.get(0).split(","));
    assertThat(header).containsAtLeast("interval", "phase_aware.policy", "phase_aware.scaling");
    assertThat(header).containsNoneOf("phase_aware.threshold", "periodic.period", "random.seed");
    for (String row : lines.subList(1, lines.size())) {
      List<String> cells = List.of(row.split(","));
      assertThat(cells).hasSize(header.size());
      assertThat(cells.get(header.indexOf("interval"))).isEqualTo("20000");
      assertThat(cells.get(header.indexOf("phase_aware.policy"))).isEqualTo("third");
      assertThat(cells.get(header.indexOf("phase_aware.scaling"))).isEqualTo("nearest");
    }
    ConfigCommandTest.Result again = acf("sweep", "--from", csv.toString());
    assertThat(again.status()).isEqualTo(0);
    assertThat(again.stdout()).contains("sampled fraction at <= 5.0% count error");
  }

  @Test
  void aMissingStdinFileIsAUsageError(@TempDir Path dir) {
    ConfigCommandTest.Result r =
        acf(
            "sweep",
            "--acf",
            ROOT.resolve("examples/acf/sampled_regions.acf").toString(),
            "--stdin",
            dir.resolve("nope.txt").toString(),
            "--workload",
            PROGRAM + " x");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.stderr()).contains("--stdin " + dir.resolve("nope.txt") + ": cannot read");
  }
}
