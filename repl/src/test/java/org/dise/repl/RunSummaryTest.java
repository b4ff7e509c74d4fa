package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;
import static org.dise.repl.ConfigCommandTest.acf;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.dise.repl.common.Json;
import org.dise.repl.common.Version;
import org.dise.runtime.Machine;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reproducible, self-describing runs: summary.json says what ran (command, tool version, program,
 * ACFs and configurations with their SHA-256, seed, environment, sampling options) and how the HPS
 * counters and DISE registers ended; the guest's environment does not depend on the host's unless
 * asked.
 */
class RunSummaryTest {
  static final Path ROOT = RepositoryRoot.path();
  static final String HELLO = ROOT.resolve("examples/programs/bin/hello").toString();
  static final String REGIONS = ROOT.resolve("examples/acf/hot_code_regions.acf").toString();

  /** Counts branches in a sink and in a 4-bit counter, and leaves 77 in $dr3. */
  static final String COUNTING =
      "sink b = region_counter();\n"
          + "counter c(index = 0, width = 4);\n"
          + "P: T.OPCLASS == branch => R, inc_0\n"
          + "R: li $dr3, 77; call(b, T.PC); T.INSN;\n";

  @SuppressWarnings("unchecked")
  static Map<String, Object> summary(Path dir) throws Exception {
    return (Map<String, Object>)
        Json.parse(Files.readString(dir.resolve("summary.json"), StandardCharsets.UTF_8));
  }

  static long num(Object o) {
    return Long.parseLong(o.toString());
  }

  static String sha256(Path file) throws Exception {
    return ProgramSymbolsCommandTest.sha256(file);
  }

  @Test
  @SuppressWarnings("unchecked")
  void summaryJsonRecordsTheRunAndTheFinalRegisterState(@TempDir Path dir) throws Exception {
    Path acfFile = dir.resolve("counting.acf");
    Files.writeString(acfFile, COUNTING);
    Path out = dir.resolve("out");
    List<String> command =
        List.of(
            "run", "--acf", acfFile.toString(), "--out", out.toString(), "--seed", "7", HELLO, "a");
    ConfigCommandTest.Result r = acf(command.toArray(String[]::new));
    assertThat(r.status()).isEqualTo(0);
    Map<String, Object> s = summary(out);

    List<String> typed = new ArrayList<>(List.of("acf"));
    typed.addAll(command);
    assertThat(s.get("command")).isEqualTo(typed);
    assertThat(s.get("tool_version")).isEqualTo("acf " + Version.VERSION);
    assertThat(s.get("program")).isEqualTo(HELLO);
    assertThat(s.get("program_sha256")).isEqualTo(sha256(Path.of(HELLO)));
    assertThat(s.get("program_args")).isEqualTo(List.of("a"));
    List<Map<String, Object>> acfs = (List<Map<String, Object>>) s.get("acfs");
    assertThat(acfs).hasSize(1);
    assertThat(acfs.get(0).get("path")).isEqualTo(acfFile.toString());
    assertThat(acfs.get(0).get("sha256")).isEqualTo(sha256(acfFile));
    assertThat(s.get("config")).isNull();
    assertThat(num(s.get("seed"))).isEqualTo(7);
    assertThat(s.get("engine")).isEqualTo("interpreted");
    assertThat(s.get("environment")).isEqualTo("default");
    assertThat(s.get("env")).isEqualTo(Machine.DEFAULT_ENV);
    Map<String, Object> sampling = (Map<String, Object>) s.get("sampling_options");
    assertThat(sampling.get("sampling")).isNull();
    assertThat(sampling.get("shadow_exhaustive")).isEqualTo(false);

    // The counter counted the same branches as the sink, modulo its 4 bits.
    long branches = 0;
    for (String line :
        Files.readAllLines(out.resolve("b.csv"))
            .subList(1, Files.readAllLines(out.resolve("b.csv")).size())) {
      branches += Long.parseLong(line.split(",")[2]);
    }
    assertThat(branches).isGreaterThan(16);
    List<Map<String, Object>> counters = (List<Map<String, Object>>) s.get("hps_counters");
    assertThat(num(counters.get(0).get("value"))).isEqualTo(branches % 16);
    assertThat(counters.get(0).get("overflow")).isEqualTo(true);
    assertThat(counters.get(0).get("zero")).isEqualTo(branches % 16 == 0);
    assertThat(((List<Object>) s.get("hps_registers")).stream().map(RunSummaryTest::num).toList())
        .containsExactly(0L, 1L)
        .inOrder();
    List<Object> dise = (List<Object>) s.get("dise_registers");
    assertThat(dise).hasSize(8);
    assertThat(num(dise.get(3))).isEqualTo(77);
    assertThat(num(dise.get(0))).isEqualTo(0);

    // The same state under the cost report.
    assertThat(r.stderr())
        .contains("final state\n  HPS counters   0=" + branches % 16 + " (overflow) 1=0");
    assertThat(r.stderr()).contains("  DISE registers $dr0=0 $dr1=0 $dr2=0 $dr3=77 $dr4=0");
    // acf report shows the scalar members again.
    assertThat(acf("report", out.toString()).stdout())
        .contains("program sha256           " + sha256(Path.of(HELLO)));
  }

  @Test
  @SuppressWarnings("unchecked")
  void aConfigurationRunRecordsTheFileItsHashAndWhereItCameFrom(@TempDir Path dir)
      throws Exception {
    Path cfg = dir.resolve("regions.dcfg");
    assertThat(acf("compile", REGIONS, "-o", cfg.toString()).status()).isEqualTo(0);
    Path out = dir.resolve("out");
    assertThat(
            acf(
                    "run",
                    "--config",
                    cfg.toString(),
                    "--engine",
                    "interpreted",
                    "--out",
                    out.toString(),
                    HELLO)
                .status())
        .isEqualTo(0);
    Map<String, Object> s = summary(out);
    assertThat(s.get("acfs")).isEqualTo(List.of());
    Map<String, Object> c = (Map<String, Object>) s.get("config");
    assertThat(c.get("path")).isEqualTo(cfg.toString());
    assertThat(c.get("sha256")).isEqualTo(sha256(cfg));
    assertThat(c.get("compiled_from")).isEqualTo("hot_code_regions.acf");
    assertThat(c.get("compiler_version")).isEqualTo("acf " + Version.VERSION);
    assertThat(c.get("sources"))
        .isEqualTo(List.of(Map.of("path", REGIONS, "sha256", sha256(Path.of(REGIONS)))));
    assertThat(s.get("engine")).isEqualTo("interpreted");
  }

  @Test
  void theEnvironmentIsTheDefaultUnlessClearedOrTakenFromTheHost(@TempDir Path dir)
      throws Exception {
    assertThat(envOf(dir, "a")).isEqualTo(Machine.DEFAULT_ENV);
    assertThat(envOf(dir, "b", "--env", "HOME=/tmp", "--env", "X=1", "--env", "HOME=/"))
        .isEqualTo(List.of("X=1", "HOME=/"));
    assertThat(envOf(dir, "c", "--clear-env", "--env", "X=1")).isEqualTo(List.of("X=1"));
    // The host's variables are not copied into summary.json.
    assertThat(envOf(dir, "d", "--env-from-host")).isNull();
    assertThat(summary(dir.resolve("d")).get("environment")).isEqualTo("host");
    ConfigCommandTest.Result both = acf("run", "--clear-env", "--env-from-host", HELLO);
    assertThat(both.status()).isEqualTo(2);
    assertThat(both.stderr()).contains("--clear-env and --env-from-host exclude each other");
  }

  static Object envOf(Path dir, String name, String... options) throws Exception {
    List<String> args =
        new ArrayList<>(List.of("run", "--acf", REGIONS, "--out", dir.resolve(name).toString()));
    args.addAll(List.of(options));
    args.add(HELLO);
    assertThat(acf(args.toArray(String[]::new)).status()).isEqualTo(0);
    return summary(dir.resolve(name)).get("env");
  }

  @Test
  void runsWithAndWithoutClearEnvGiveTheSameProfile(@TempDir Path dir) throws Exception {
    Path a = dir.resolve("a");
    Path b = dir.resolve("b");
    assertThat(ConfigCommandTest.runInto(REGIONS, a, HELLO).status()).isEqualTo(0);
    assertThat(acf("run", "--acf", REGIONS, "--clear-env", "--out", b.toString(), HELLO).status())
        .isEqualTo(0);
    assertThat(Files.readString(b.resolve("Branch_handler.csv")))
        .isEqualTo(Files.readString(a.resolve("Branch_handler.csv")));
    String compare = acf("compare", a.toString(), b.toString()).stdout();
    assertThat(compare).contains("count error      0.00%");
    assertThat(compare).contains("no entry moved");
    // Three variables are enough to move it: the default must stay empty to stay comparable.
    Path c = dir.resolve("c");
    assertThat(
            acf(
                    "run",
                    "--acf",
                    REGIONS,
                    "--env",
                    "HOME=/",
                    "--env",
                    "LANG=C",
                    "--env",
                    "PATH=/usr/bin:/bin",
                    "--out",
                    c.toString(),
                    HELLO)
                .status())
        .isEqualTo(0);
    assertThat(acf("compare", a.toString(), c.toString()).stdout())
        .containsMatch("getenv|__tunables_init");
  }

  /** {@code acf ARGS} in a fresh JVM whose environment has {@code extra} added. */
  static void acfProcess(Map<String, String> extra, String... args) throws Exception {
    List<String> cmd = AcfJvm.command(List.of("-Xss16m"), args);
    ProcessBuilder pb =
        new ProcessBuilder(cmd)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD);
    pb.environment().putAll(extra);
    assertThat(pb.start().waitFor()).isEqualTo(0);
  }

  @Test
  void twoRunsFromDifferentHostEnvironmentsGiveTheSameProfile(@TempDir Path dir) throws Exception {
    Map<String, String> many = new java.util.LinkedHashMap<>();
    for (int i = 0; i < 40; i++) {
      many.put("ACF_TEST_VARIABLE_" + i, "x".repeat(i));
    }
    // Two fresh JVMs (the guest's stdout is the same kind of file in both), the second with
    // 40 more variables in its environment.
    Path a = dir.resolve("a");
    Path b = dir.resolve("b");
    acfProcess(Map.of(), "run", "--acf", REGIONS, "--out", a.toString(), HELLO);
    acfProcess(many, "run", "--acf", REGIONS, "--out", b.toString(), HELLO);
    assertThat(Files.readString(b.resolve("Branch_handler.csv")))
        .isEqualTo(Files.readString(a.resolve("Branch_handler.csv")));
    assertThat(acf("compare", a.toString(), b.toString()).stdout())
        .contains("count error      0.00%");

    // What the issue saw, on request: the guest's start-up code scans the host's variables.
    Path c = dir.resolve("c");
    Path d = dir.resolve("d");
    assertThat(ConfigCommandTest.runInto(REGIONS, c, HELLO).status()).isEqualTo(0);
    assertThat(
            acf("run", "--acf", REGIONS, "--env-from-host", "--out", d.toString(), HELLO).status())
        .isEqualTo(0);
    assertThat(acf("compare", c.toString(), d.toString()).stdout())
        .doesNotContain("count error      0.00%");
  }
}
