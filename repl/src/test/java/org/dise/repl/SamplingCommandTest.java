package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;
import static org.dise.repl.ConfigCommandTest.acf;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.dise.repl.common.ExitStatus;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code acf run --sampling ...} and {@code acf sweep}: the accuracy figures in the summary,
 * summary.json and phases.csv, a trigger declared in the ACF or carried by a configuration, and
 * one-line errors for bad strategies.
 */
class SamplingCommandTest {
  static final Path ROOT = RepositoryRoot.path();
  static final String ACF = ROOT.resolve("examples/acf/sampled_regions.acf").toString();
  static final String PHASES = ROOT.resolve("examples/programs/bin/phases").toString();

  @Test
  void shadowExhaustiveReportsAccuracyAndWritesThePhaseTrace(@TempDir Path dir) throws Exception {
    ConfigCommandTest.Result r =
        ConfigCommandTest.runInto(
            ACF,
            dir,
            "--sampling",
            "phase:third",
            "--interval",
            "1M",
            "--shadow-exhaustive",
            PHASES,
            "2");
    assertThat(r.status()).isEqualTo(0);
    assertThat(r.stderr()).contains("sampling phase:third, interval 1,000,000");
    assertThat(r.stderr()).contains("sampled_fraction");
    assertThat(r.stderr())
        .containsMatch(
            "Branch_handler +count_error 0\\.0(\\d)(\\d)\\d \\(\\1\\.\\2\\d%\\)  hot_error");
    // The same figures in percent, as acf sweep and acf compare print them.
    assertThat(r.stderr()).containsMatch("sampled_fraction +0\\.\\d{4} \\(\\d+\\.\\d\\d%\\)");
    String json = Files.readString(dir.resolve("summary.json"));
    assertThat(json).containsMatch("\"sampled_fraction\": 0\\.[0-4]");
    assertThat(json).contains("\"count_error\": ");
    assertThat(json).contains("\"hot_error\": ");
    assertThat(json).containsMatch("\"hot_weight_error\": [01]\\.\\d{6}");
    assertThat(r.stderr()).containsMatch("hot_error [0-9.]+ \\([0-9.]+%\\)  hot_weight_error");
    assertThat(json).contains("\"sampling\": \"phase:third\"");
    // Every setting of the estimator, defaults included, so that the result says what made it.
    assertThat(json)
        .contains(
            "\"trigger_settings\": {\"interval\": 1000000, \"counter\": 0, \"buckets\": 32,"
                + " \"threshold\": 25, \"table\": 20, \"policy\": \"third\", \"seed\": 1,"
                + " \"predictor\": \"last\", \"scaling\": \"nearest\", \"reach\": 50}");
    List<String> phases = Files.readAllLines(dir.resolve("phases.csv"));
    assertThat(phases.get(0)).isEqualTo("interval,phase,predicted,sampled");
    assertThat(phases.size()).isAtLeast(25);
    assertThat(phases.get(1)).isEqualTo("0,0,-1,0");
    assertThat(phases.stream().filter(l -> l.endsWith(",1")).count()).isAtLeast(3L);
    List<String> estimate = Files.readAllLines(dir.resolve("Branch_handler.estimate.csv"));
    assertThat(estimate.get(0)).isEqualTo("key,estimate,exact");
    assertThat(estimate.get(1)).matches("0x[0-9a-f]+,[0-9]+\\.[0-9],[0-9]+");
  }

  @Test
  void aTriggerInTheAcfRunsAndTheCommandLineOverridesIt(@TempDir Path dir) throws Exception {
    Path acfFile = dir.resolve("t.acf");
    Files.writeString(
        acfFile,
        Files.readString(Path.of(ACF))
            + "trigger every = periodic(interval = 1000000, period = 4);\n");
    ConfigCommandTest.Result declared = acf("run", "--acf", acfFile.toString(), PHASES, "1");
    assertThat(declared.status()).isEqualTo(0);
    assertThat(declared.stderr()).contains("sampling periodic:4, interval 1,000,000");
    String cfg = dir.resolve("t.dcfg").toString();
    assertThat(acf("compile", acfFile.toString(), "-o", cfg).status()).isEqualTo(0);
    ConfigCommandTest.Result config = acf("run", "--config", cfg, PHASES, "1");
    assertThat(config.stderr()).contains("sampling periodic:4, interval 1,000,000");
    ConfigCommandTest.Result over =
        acf("run", "--acf", acfFile.toString(), "--sampling", "random:5:3", PHASES, "1");
    assertThat(over.stderr()).contains("sampling random:5:3, interval 1,000,000");
    Path out = dir.resolve("scaled");
    ConfigCommandTest.Result scaled =
        ConfigCommandTest.runInto(
            ACF,
            out,
            "--sampling",
            "phase:third",
            "--interval",
            "500K",
            "--scaling",
            "phase",
            PHASES,
            "1");
    assertThat(scaled.status()).isEqualTo(0);
    String json = Files.readString(out.resolve("summary.json"));
    assertThat(json)
        .containsMatch(
            "\"trigger_settings\": \\{\"interval\": 500000, [^}]*\"scaling\": \"phase\", \"reach\": 50\\}");
  }

  @Test
  void badStrategiesAreOneLineUsageErrors() {
    ConfigCommandTest.Result r = acf("run", "--acf", ACF, "--sampling", "often", PHASES);
    assertThat(r.status()).isEqualTo(ExitStatus.USAGE);
    assertThat(r.stderr()).startsWith("acf: sampling: unknown sampling strategy 'often'");
    r = acf("run", "--sampling", "periodic:3", PHASES);
    assertThat(r.status()).isEqualTo(ExitStatus.USAGE);
    // The message names the options that were given, not every sampling option.
    assertThat(r.stderr()).isEqualTo("acf: --sampling needs --acf or --config\n");
    r = acf("run", "--acf", ACF, "--interval", "1M", PHASES);
    assertThat(r.status()).isEqualTo(ExitStatus.USAGE);
    assertThat(r.stderr()).startsWith("acf: --interval needs a sampling strategy");
    r = acf("run", "--acf", ACF, "--interval", "1M", "--shadow-exhaustive", PHASES);
    assertThat(r.stderr())
        .startsWith("acf: --interval and --shadow-exhaustive need a sampling strategy");
    r = acf("run", "--acf", ACF, "--sampling", "phase", "--interval", "lots", PHASES);
    assertThat(r.status()).isEqualTo(ExitStatus.USAGE);
    assertThat(r.stderr()).contains("--interval must be a whole number");
    assertThat(r.stderr()).doesNotContain("Exception");
  }

  @Test
  void aBadTriggerInTheAcfNamesTheFileAndTrigger(@TempDir Path dir) throws Exception {
    Path acfFile = dir.resolve("t.acf");
    Files.writeString(
        acfFile, Files.readString(Path.of(ACF)) + "trigger every = periodic(period = 0);\n");
    ConfigCommandTest.Result r = acf("run", "--acf", acfFile.toString(), PHASES, "1");
    // The catalogue's range, refused by the front end at the value's line and column.
    int line = Files.readString(acfFile).split("\n").length;
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.stderr())
        .contains(
            acfFile
                + ":"
                + line
                + ":35: error: parameter `period` of"
                + " `periodic` must be at least 1, got 0");
  }

  @Test
  void withoutTheCodewordProductionsTheRunWarns(@TempDir Path dir) throws Exception {
    String pairs = ROOT.resolve("examples/acf/hot_call_pairs.acf").toString();
    ConfigCommandTest.Result r =
        acf("run", "--acf", pairs, "--sampling", "periodic:2", "--interval", "1M", PHASES, "1");
    assertThat(r.stderr()).doesNotContain("matched no production");
    Path bare = dir.resolve("bare.acf");
    Files.writeString(
        bare,
        "P1: T.OPCLASS == branch && zero_0 => R1, null\n"
            + "R1: call(Branch_handler, T.INSN); T.INSN;\n");
    r =
        acf(
            "run",
            "--acf",
            bare.toString(),
            "--sampling",
            "periodic:2",
            "--interval",
            "1M",
            PHASES,
            "1");
    assertThat(r.stderr()).contains("matched no production");
  }

  @Test
  void sweepWritesAccuracyVersusSampledFraction(@TempDir Path dir) throws Exception {
    Path csv = dir.resolve("s.csv");
    ConfigCommandTest.Result r =
        acf(
            "sweep",
            "--acf",
            ACF,
            "--workload",
            PHASES + " 1",
            "--periods",
            "4",
            "--one-in",
            "4",
            "--seeds",
            "1,2",
            "--thresholds",
            "25",
            "--out",
            csv.toString());
    assertThat(r.status()).isEqualTo(0);
    List<String> lines = Files.readAllLines(csv);
    assertThat(lines.get(0))
        .isEqualTo(
            "workload,strategy,parameter,seed,sampled_fraction,count_error,hot_error,intervals,phases,"
                + "interval,counter,periodic.length,random.length,phase_aware.buckets,"
                + "phase_aware.table,phase_aware.policy,phase_aware.seed,phase_aware.predictor,"
                + "phase_aware.scaling,phase_aware.reach");
    assertThat(lines).hasSize(5);
    assertThat(lines.get(1)).startsWith("phases 1,periodic,4,0,0.");
    assertThat(r.stdout()).contains("sampled fraction at <= 5.0% count error");
    ConfigCommandTest.Result again = acf("sweep", "--from", csv.toString(), "--target", "5,200");
    assertThat(again.status()).isEqualTo(0);
    assertThat(again.stdout()).contains("sampled fraction at <= 200.0% count error");
    assertThat(again.stdout()).containsMatch("phases 1 +periodic 2\\d\\.\\d%");
  }
}
