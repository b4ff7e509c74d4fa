package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;
import static org.dise.repl.ConfigCommandTest.acf;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.dise.repl.common.Json;
import org.dise.runtime.sink.ProfileTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 32, finding 6: {@code acf compare} for scripts ({@code --format csv|json}), with names for
 * every address (call pairs printed as raw {@code 0x10566 0x1070a}), and a sampled run compared
 * through the {@code *.estimate.csv} it wrote (103% error unless given {@code --normalize}).
 */
class CompareFormatsTest {
  /** A call pair profile as the call pair counter writes it. */
  static ProfileTable pairs(long hot, long cold) {
    return new ProfileTable(
        List.of("caller", "callee", "count", "caller_address", "callee_address"),
        List.of(
            List.of("main", "hot", Long.toString(hot), "0x10566", "0x1070a"),
            List.of("main", "cold", Long.toString(cold), "0x10566", "0x10800")),
        List.of("caller_address", "callee_address"),
        "count");
  }

  private static Path exhaustiveAndSampled(Path dir) throws Exception {
    ReportCompareCommandTest.dir(dir, "full", Map.of("pairs", pairs(4000, 1000)));
    Path sampled = ReportCompareCommandTest.dir(dir, "sampled", Map.of("pairs", pairs(1000, 240)));
    // The sampled run's estimate: the counts scaled by 4 (one interval in four sampled).
    Files.writeString(
        sampled.resolve("pairs.estimate.csv"),
        "key,estimate\n0x10566|0x1070a,4000.0\n0x10566|0x10800,960.0\n");
    return dir;
  }

  /** {@code acf compare OPTIONS... full sampled} over {@link #exhaustiveAndSampled}'s runs. */
  private static ConfigCommandTest.Result compareSampled(Path dir, String... options)
      throws Exception {
    exhaustiveAndSampled(dir);
    List<String> line = new java.util.ArrayList<>(List.of("compare"));
    line.addAll(List.of(options));
    line.addAll(List.of(dir.resolve("full").toString(), dir.resolve("sampled").toString()));
    return acf(line.toArray(String[]::new));
  }

  @Test
  void everyAddressHasItsName(@TempDir Path dir) throws Exception {
    Path a = ReportCompareCommandTest.dir(dir, "a", Map.of("pairs", pairs(4000, 1000)));
    Path b = ReportCompareCommandTest.dir(dir, "b", Map.of("pairs", pairs(3000, 1000)));
    ConfigCommandTest.Result r = acf("compare", a.toString(), b.toString());
    assertThat(r.status()).isEqualTo(0);
    assertThat(r.stdout()).contains("    0x10566 main, 0x1070a hot  4,000  3,000  -1,000");
  }

  @Test
  void aSampledRunIsComparedThroughItsEstimateAndSaysSo(@TempDir Path dir) throws Exception {
    exhaustiveAndSampled(dir);
    String full = dir.resolve("full").toString();
    String sampled = dir.resolve("sampled").toString();
    ConfigCommandTest.Result r = acf("compare", full, sampled);
    assertThat(r.status()).isEqualTo(0);
    assertThat(r.stdout())
        .contains(
            "  B is a sampled run: compared through its whole-program estimate "
                + dir.resolve("sampled").resolve("pairs.estimate.csv"));
    // |4000-4000| + |1000-960| over 5000: 0.8%, not the 75% of the raw sampled counts.
    assertThat(r.stdout()).contains("  count error      0.80%\n");
    ConfigCommandTest.Result raw = acf("compare", "--no-estimate", full, sampled);
    assertThat(raw.stdout()).contains("  count error      75.20%\n");
    assertThat(raw.stdout()).doesNotContain("estimate");
  }

  @Test
  void csvHasOneLinePerProfile(@TempDir Path dir) throws Exception {
    ConfigCommandTest.Result r = compareSampled(dir, "--format", "csv");
    assertThat(r.status()).isEqualTo(0);
    List<String> lines = r.stdout().lines().toList();
    assertThat(lines.get(0))
        .isEqualTo(
            "profile,weight,entries_a,entries_b,total_a,total_b,count_error,hot_set_error,"
                + "hot_weight_error,stream_overlap,normalized,estimate_a,estimate_b");
    assertThat(lines.get(1))
        .isEqualTo(
            "pairs,count,2,2,5000,4960,0.008,0.0,0.0,,false,,"
                + dir.resolve("sampled").resolve("pairs.estimate.csv"));
    assertThat(lines).hasSize(2);
  }

  @Test
  void jsonHasTheMetricsAndTheNamedEntries(@TempDir Path dir) throws Exception {
    ConfigCommandTest.Result r = compareSampled(dir, "--format", "json");
    assertThat(r.status()).isEqualTo(0);
    @SuppressWarnings("unchecked")
    Map<String, Object> doc = (Map<String, Object>) Json.parse(r.stdout());
    @SuppressWarnings("unchecked")
    Map<String, Object> p = ((List<Map<String, Object>>) doc.get("profiles")).get(0);
    assertThat(p.get("profile")).isEqualTo("pairs");
    assertThat(Double.parseDouble(p.get("count_error").toString())).isWithin(1e-9).of(0.008);
    assertThat(p.get("estimate_b").toString()).endsWith("pairs.estimate.csv");
    @SuppressWarnings("unchecked")
    Map<String, Object> moved = ((List<Map<String, Object>>) p.get("moved_absolute")).get(0);
    assertThat(moved.get("label")).isEqualTo("0x10566 main, 0x10800 cold");
    assertThat(Long.parseLong(moved.get("change").toString())).isEqualTo(-40);
  }
}
