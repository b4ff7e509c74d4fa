package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.dise.repl.ConfigCommandTest.Result;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code acf run --simpoints FILE --weights FILE} and {@code --fast-forward N} on
 * examples/programs/callstack.c (about 393K instructions: 10 intervals of 40K).
 */
class PointRunsTest {
  static final String PROGRAM = CallingContextOutputTest.PROGRAM.toString();

  @TempDir static Path tmp;
  static Path acf;

  @BeforeAll
  static void files() throws Exception {
    acf = tmp.resolve("cc.acf");
    Files.writeString(acf, "import profiles;\nuse calling_context;\nuse hot_call_pairs;\n");
  }

  static Map<String, Long> csv(Path file, int key, int value) throws Exception {
    Map<String, Long> m = new HashMap<>();
    List<String> lines = Files.readAllLines(file);
    for (String line : lines.subList(1, lines.size())) {
      String[] c = line.split(",");
      m.put(c[key], Long.parseLong(c[value]));
    }
    return m;
  }

  // Every interval a point with weight 1/n: the estimate is then the exhaustive profile itself.
  // n comes from the exhaustive run, not a constant: the program's length moves with its
  // start-up (the empty default environment shortened glibc's by 15K instructions).
  /**
   * {@code acf run --acf ACF --simpoints tmp/NAME.pts --weights tmp/NAME.wts OPTIONS... PROGRAM}.
   */
  private static Result points(String name, String... options) {
    List<String> line =
        new ArrayList<>(
            List.of(
                "run",
                "--acf",
                acf.toString(),
                "--simpoints",
                tmp.resolve(name + ".pts").toString(),
                "--weights",
                tmp.resolve(name + ".wts").toString()));
    line.addAll(List.of(options));
    line.add(PROGRAM);
    return ConfigCommandTest.acf(line.toArray(String[]::new));
  }

  @Test
  void everyIntervalAsAPointWithEqualWeightsEstimatesTheExhaustiveProfileExactly()
      throws Exception {
    Path exhaustive = tmp.resolve("exhaustive");
    assertThat(
            ConfigCommandTest.acf(
                    "run", "--acf", acf.toString(), "--out", exhaustive.toString(), PROGRAM)
                .status())
        .isEqualTo(0);
    long app =
        Long.parseLong(
            Files.readString(exhaustive.resolve("summary.json"))
                .replaceAll("(?s).*\"application_instructions\": (\\d+).*", "$1"));
    int n = (int) ((app + 39_999) / 40_000);
    assertThat(n).isAtLeast(5);
    StringBuilder points = new StringBuilder();
    StringBuilder weights = new StringBuilder();
    for (int i = 0; i < n; i++) {
      points.append(i).append(' ').append(i).append('\n');
      weights.append(1.0 / n).append(' ').append(i).append('\n');
    }
    Files.writeString(tmp.resolve("all.pts"), points);
    Files.writeString(tmp.resolve("all.wts"), weights);
    Path out = tmp.resolve("all");
    Result r = points("all", "--interval", "40K", "--out", out.toString());
    assertThat(r.status()).isEqualTo(0);
    // Calls are events: the points' counts add up to the whole run's.
    Map<String, Long> estimate = csv(out.resolve("CallPair_handler.estimate.csv"), 0, 1);
    Map<String, Long> pairs = new HashMap<>();
    List<String> lines = Files.readAllLines(exhaustive.resolve("CallPair_handler.csv"));
    for (String line : lines.subList(1, lines.size())) {
      String[] c = line.split(",");
      pairs.put(c[3] + "|" + c[4], Long.parseLong(c[2]));
    }
    assertThat(estimate).isEqualTo(pairs);
    // Each point profiled exactly one interval of application instructions.
    assertThat(csv(out.resolve("simpoints.csv"), 0, 3).get("3")).isEqualTo(40_000L);
    long total =
        Files.readAllLines(out.resolve("point-3/CallingContext.folded")).stream()
            .mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1)))
            .sum();
    assertThat(total).isEqualTo(40_000L);
    assertThat(r.stderr())
        .contains("simulation points " + n + " of " + n + ", intervals " + n + " of 40,000");
    assertThat(r.stderr()).doesNotContain("beyond its end");
  }

  @Test
  void aMalformedPointsFileIsReportedAtItsLineAndColumn() throws Exception {
    Files.writeString(tmp.resolve("bad.pts"), "1 0\n  x 1\n");
    Files.writeString(tmp.resolve("bad.wts"), "0.5 0\n0.5 1\n");
    Result r = points("bad");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.stderr())
        .contains(tmp.resolve("bad.pts") + ":2:3: expected a whole number," + " got `x`");
    Files.writeString(tmp.resolve("good.pts"), "1 0\n4 1\n");
    Files.writeString(tmp.resolve("short.wts"), "0.5 0\n");
    r =
        ConfigCommandTest.acf(
            "run",
            "--acf",
            acf.toString(),
            "--simpoints",
            tmp.resolve("good.pts").toString(),
            "--weights",
            tmp.resolve("short.wts").toString(),
            PROGRAM);
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.stderr()).contains("cluster 1 (interval 4 in");
    r = ConfigCommandTest.acf("run", "--simpoints", tmp.resolve("good.pts").toString(), PROGRAM);
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.stderr()).contains("--simpoints needs --acf or --config");
  }

  @Test
  void fastForwardProfilesOnlyWhatRunsAfterIt() throws Exception {
    Path out = tmp.resolve("ff");
    Result r =
        ConfigCommandTest.acf(
            "run",
            "--acf",
            acf.toString(),
            "--fast-forward",
            "300K",
            "--out",
            out.toString(),
            PROGRAM);
    assertThat(r.status()).isEqualTo(0);
    String folded = Files.readString(out.resolve("CallingContext.folded"));
    // outer's and direct's calls all come before 300K instructions; after's after it.
    assertThat(folded).doesNotContain("outer");
    assertThat(folded).doesNotContain("direct");
    assertThat(folded).contains("main;after;work ");
    String summary = Files.readString(out.resolve("summary.json"));
    long app =
        Long.parseLong(summary.replaceAll("(?s).*\"application_instructions\": (\\d+).*", "$1"));
    long charged =
        folded.lines().mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1))).sum();
    assertThat(charged).isEqualTo(app);
    assertThat(app).isLessThan(120_000L);
    assertThat(summary).contains("\"fast_forward\": 300000");
  }
}
