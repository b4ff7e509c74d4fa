package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.dise.repl.ConfigCommandTest.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Aggregation maps through the commands a user types: {@code acf run --acf ... --out}, the same ACF
 * compiled and run with {@code --config}, and {@code acf report} printing the histogram.
 */
class MapsCommandTest {
  static final Path ROOT = ConfigCommandTest.ROOT;
  static final String STRIDES = ROOT.resolve("examples/acf/load_strides.acf").toString();
  static final String PROGRAM = ROOT.resolve("examples/programs/bin/maps").toString();

  @Test
  void strideHistogramFromAcfAndConfigurationAgreeAndReportPrintsBars(@TempDir Path dir)
      throws Exception {
    Path out = dir.resolve("acf");
    Result run = ConfigCommandTest.runInto(STRIDES, out, PROGRAM);
    assertThat(run.status()).isEqualTo(0);
    String csv = Files.readString(out.resolve("strides.csv"), StandardCharsets.UTF_8);
    assertThat(csv).startsWith("key,function,bucket_lo,bucket_hi,count\n");
    assertThat(csv)
        .contains(
            "0x10656,walk+0x10,-16,-9,49\n0x10656,walk+0x10,24,31,99\n"
                + "0x10656,walk+0x10,64,9223372036854775807,1\n");
    assertThat(Files.readString(out.resolve("strides.json"), StandardCharsets.UTF_8))
        .contains("\"key\": [\"key\", \"bucket_lo\"]");
    assertThat(run.stderr()).contains("profile strides: ");
    // The cost report charges each map call its handler cycles (40 by default).
    assertThat(run.stderr()).containsMatch("handler cycles +[0-9,]+");

    String cfg = dir.resolve("strides.dcfg").toString();
    assertThat(ConfigCommandTest.acf("compile", STRIDES, "-o", cfg).status()).isEqualTo(0);
    Result inspect = ConfigCommandTest.acf("inspect", cfg);
    assertThat(inspect.stdout()).contains("$dr1 = call(last, T.PC, $dr0)");
    Path out2 = dir.resolve("config");
    Result fromConfig =
        ConfigCommandTest.acf("run", "--config", cfg, "--out", out2.toString(), PROGRAM);
    assertThat(fromConfig.status()).isEqualTo(0);
    assertThat(Files.readString(out2.resolve("strides.csv"), StandardCharsets.UTF_8))
        .isEqualTo(csv);
    assertThat(ConfigCommandTest.profile(fromConfig.stderr()))
        .isEqualTo(ConfigCommandTest.profile(run.stderr()));

    Result report =
        ConfigCommandTest.acf("report", "--profile", "strides", "--top", "1000", out.toString());
    assertThat(report.status()).isEqualTo(0);
    assertThat(report.stdout())
        .contains(
            "  @[0x10656, walk+0x10]: 149\n"
                + "    [-16, -9] 49 |"
                + "@".repeat(25)
                + " ".repeat(27)
                + "|\n"
                + "    [24, 31]  99 |"
                + "@".repeat(52)
                + "|\n");
  }
}
