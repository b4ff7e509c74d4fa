package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.dise.repl.ConfigCommandTest.Result;
import org.dise.repl.common.ProfileFormats;
import org.dise.repl.common.RunDirectory;
import org.dise.runtime.sink.ProfileTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The profile formats, {@code acf report} and {@code acf compare}: on hand-made profiles whose
 * metrics are worked out by hand, and end to end on a run that {@code acf run --out} wrote.
 */
class ReportCompareCommandTest {
  static Result acf(String... args) {
    return ConfigCommandTest.acf(args);
  }

  /** A one-column-key profile: name -> count. */
  static ProfileTable counts(Map<String, Long> weights) {
    List<List<String>> rows = new ArrayList<>();
    weights.forEach((k, v) -> rows.add(List.of(k, Long.toString(v))));
    rows.sort((a, b) -> Long.compare(Long.parseLong(b.get(1)), Long.parseLong(a.get(1))));
    return new ProfileTable(List.of("method", "count"), rows, List.of("method"), "count");
  }

  static ProfileTable streams(Map<String, String> shares) {
    List<List<String>> rows = new ArrayList<>();
    shares.forEach((sig, share) -> rows.add(List.of(sig, "10", share)));
    return new ProfileTable(
        List.of("signature", "heat", "share"), rows, List.of("signature"), "heat");
  }

  static Path dir(Path parent, String name, Map<String, ProfileTable> profiles) throws Exception {
    Path d = Files.createDirectories(parent.resolve(name));
    for (Map.Entry<String, ProfileTable> p : profiles.entrySet()) {
      Files.writeString(
          d.resolve(p.getKey() + ".json"), ProfileFormats.json(p.getKey(), p.getValue()));
    }
    return d;
  }

  @Test
  void jsonReadsBackToTheSameTable() {
    ProfileTable t =
        new ProfileTable(
            List.of("caller", "callee", "count", "note"),
            List.of(List.of("a,b", "q\"x\"", "12", "0.500000"), List.of("c", "d\\e", "3", "-1")),
            List.of("caller", "callee"),
            "count");
    String json = ProfileFormats.json("pairs", t);
    assertThat(json).contains("\"count\": 12");
    assertThat(json).contains("\"total\": 15");
    assertThat(ProfileFormats.fromJson(json)).isEqualTo(t);
  }

  @Test
  void aTableWithItsOwnPercentColumnGetsNoSecondShareColumn() {
    ProfileTable ranges =
        new ProfileTable(
            List.of("lo", "hi", "count", "percent"),
            List.of(List.of("0x0", "0xff", "30", "15.00"), List.of("0x100", "0x1ff", "10", "5.00")),
            List.of("lo", "hi"),
            "count");
    List<String> lines = ProfileFormats.terminal("ranges", ranges, 10);
    assertThat(lines.get(1).split(" +"))
        .asList()
        .containsExactly("", "lo", "hi", "count", "percent")
        .inOrder();
    assertThat(lines.get(2).split(" +"))
        .asList()
        .containsExactly("", "0x0", "0xff", "30", "15.00")
        .inOrder();
  }

  @Test
  void foldedStacksForCallPairsAndMethodsOnly() {
    ProfileTable pairs =
        new ProfileTable(
            List.of("caller", "callee", "count"),
            List.of(List.of("main", "fib", "3"), List.of("fib", "fib", "20")),
            List.of("caller", "callee"),
            "count");
    assertThat(ProfileFormats.folded(pairs)).hasValue("main;fib 3\nfib;fib 20\n");
    ProfileTable methods =
        new ProfileTable(
            List.of("method", "invocations", "address"),
            List.of(List.of("leaf", "7", "0x10"), List.of("main", "0", "0x20")),
            List.of("address"),
            "invocations");
    assertThat(ProfileFormats.folded(methods)).hasValue("leaf 7\n");
    ProfileTable regions =
        new ProfileTable(
            List.of("pc", "count"), List.of(List.of("0x10", "4")), List.of("pc"), "count");
    assertThat(ProfileFormats.folded(regions)).isEmpty();
  }

  @Test
  void terminalTableShowsEachEntrysShareOfTheTotal() {
    List<String> lines =
        ProfileFormats.terminal("m", counts(Map.of("a", 50L, "b", 30L, "c", 20L)), 2);
    assertThat(lines.get(0)).isEqualTo("profile m: 3 entries, count 100, top 2");
    assertThat(lines.get(1).split(" +"))
        .asList()
        .containsExactly("", "method", "count", "%")
        .inOrder();
    assertThat(lines.get(2).split(" +")).asList().containsExactly("", "a", "50", "50.0").inOrder();
    assertThat(lines.get(3).split(" +")).asList().containsExactly("", "b", "30", "30.0").inOrder();
    assertThat(lines).hasSize(4);
  }

  @Test
  void compareReportsTheHandWorkedMetrics(@TempDir Path tmp) throws Exception {
    Path a =
        dir(
            tmp,
            "a",
            Map.of(
                "methods",
                counts(Map.of("a", 100L, "b", 50L, "c", 30L, "d", 10L, "e", 10L)),
                "streams",
                streams(Map.of("s1", "0.500000", "s2", "0.300000"))));
    Path b =
        dir(
            tmp,
            "b",
            Map.of(
                "methods",
                counts(Map.of("a", 80L, "d", 60L, "b", 20L, "f", 5L)),
                "streams",
                streams(Map.of("s1", "0.400000", "s3", "0.200000"))));
    Result r = acf("compare", a.toString(), b.toString());
    assertThat(r.status()).isEqualTo(0);
    // |100-80| + |50-20| + |30-0| + |10-60| + |10-0| + |0-5| = 145 of 200.
    assertThat(r.stdout()).contains("count error      72.50%");
    assertThat(r.stdout()).contains("  total            200 in A, 165 in B\n");
    // Top 15% of 5 entries: 1 entry, a, which B's top 1 also holds.
    assertThat(r.stdout()).contains("hot set error    0.00% (A's top 15%: 1 entry with ties)");
    // 90% of A's 200 takes a, b, c (180); B's top 3 are a, d, b: c is missing, a third.
    assertThat(r.stdout())
        .contains("hot weight error 33.33% (A's entries carrying 90% of the weight: 3)");
    // min(.5, .4) + min(.3, 0) + min(0, .2) = 40%.
    assertThat(r.stdout()).contains("stream overlap   40.00% (equation 5)");

    // Top 40%: A's {a, b}; B's top 2 are {a, d}: b is missing, half the hot set.
    r =
        acf(
            "compare",
            "--hot-fraction",
            "0.4",
            a.resolve("methods.json").toString(),
            b.resolve("methods.json").toString());
    assertThat(r.stdout()).contains("hot set error    50.00% (A's top 40%: 2 entries with ties)");
    assertThat(r.stdout()).doesNotContain("streams");

    // Normalized: B's 165 scaled to 200 before the count error.
    r = acf("compare", "--normalize", a.toString(), b.toString());
    double s = 200.0 / 165;
    double err =
        Math.abs(100 - 80 * s) + Math.abs(50 - 20 * s) + 30 + Math.abs(10 - 60 * s) + 10 + 5 * s;
    assertThat(r.stdout())
        .contains(String.format("count error      %.2f%% (B normalized", 100 * err / 200));
  }

  @Test
  void compareAndReportRefuseBadInputWithOneLine(@TempDir Path tmp) throws Exception {
    Path a = dir(tmp, "a", Map.of("x", counts(Map.of("a", 1L))));
    Path b = dir(tmp, "b", Map.of("y", counts(Map.of("a", 1L))));
    Result r = acf("compare", a.toString(), b.toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.stderr()).contains("have no profile in common");

    Files.writeString(b.resolve("y.json"), "{\"columns\": [\"a\"],\n \"rows\": [1,");
    r = acf("report", b.toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.stderr())
        .isEqualTo(
            "acf: "
                + b.resolve("y.json")
                + ":2:13: Unexpected end-of-input"
                + " within/between Array entries\n");

    r = acf("report", tmp.resolve("missing").toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.stderr()).contains("no such run directory");
    // A missing NAME.json is a missing file, not a directory.
    r = acf("compare", a.resolve("x.json").toString(), tmp.resolve("missing.json").toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.stderr())
        .isEqualTo("acf: " + tmp.resolve("missing.json") + ": no such profile file\n");

    for (String command : List.of("report", "compare")) {
      Result help = acf(command, "--help");
      assertThat(help.status()).isEqualTo(0);
      assertThat(help.stdout()).contains("Examples");
      assertThat(help.stdout() + help.stderr()).doesNotContain("WARN");
    }
    assertThat(acf("report", "--top", "0", a.toString()).status()).isEqualTo(2);
    assertThat(acf("compare", a.toString()).status()).isEqualTo(2);
    assertThat(acf("compare", "--hot-fraction", "1.5", a.toString(), a.toString()).status())
        .isEqualTo(2);
  }

  @Test
  void everyExampleAcfChecksAndTheLibraryExamplesWriteTheirFormats(@TempDir Path tmp)
      throws Exception {
    try (java.util.stream.Stream<Path> files =
        Files.list(ConfigCommandTest.ROOT.resolve("examples/acf"))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".acf")).toList()) {
        Result c = acf("check", f.toString());
        assertThat(c.stderr()).isEmpty();
        assertThat(c.status()).isEqualTo(0);
      }
    }
    Path out = tmp.resolve("bbv");
    Result run =
        acf(
            "run",
            "--acf",
            ConfigCommandTest.ROOT.resolve("examples/acf/basic_block_vectors.acf").toString(),
            "--out",
            out.toString(),
            ConfigCommandTest.PROGRAM,
            "2");
    assertThat(run.status()).isEqualTo(0);
    List<Map<Integer, Long>> vectors =
        org.dise.runtime.profiles.sink.SimPointBb.parse(
            Files.readString(out.resolve("BasicBlockVectors.bb")));
    assertThat(vectors).hasSize(1); // one 10M-instruction interval
    long sum = vectors.get(0).values().stream().mapToLong(Long::longValue).sum();
    assertThat(sum)
        .isEqualTo(
            RunDirectory.read(out).profiles().get("BasicBlockVectors").weights().values().stream()
                .mapToLong(Long::longValue)
                .sum());
  }

  @Test
  void reportPrintsAWrittenRunAsTheRunDidAndARunComparesEqualToItself(@TempDir Path tmp)
      throws Exception {
    Path out = tmp.resolve("prof");
    Result run =
        acf(
            "run",
            "--acf",
            ConfigCommandTest.ACF,
            "--out",
            out.toString(),
            ConfigCommandTest.PROGRAM,
            "3");
    assertThat(run.status()).isEqualTo(0);
    for (String f :
        List.of(
            "CallPair_handler.csv",
            "CallPair_handler.json",
            "CallPair_handler.folded",
            "summary.json")) {
      assertThat(Files.exists(out.resolve(f))).isTrue();
    }
    assertThat(Files.readString(out.resolve("CallPair_handler.folded"))).contains("fib;fib ");

    Result report = acf("report", out.toString());
    assertThat(report.status()).isEqualTo(0);
    String printed = ConfigCommandTest.profile(run.stderr());
    // The run's profile lines, up to its cost report, come back identical.
    assertThat(report.stdout()).startsWith(printed.substring(0, printed.indexOf("cost\n")));
    // ... and so does its cost report, in the same layout (thousands separators, 1.2345x).
    String cost = printed.substring(printed.indexOf("cost\n"));
    assertThat(report.stdout()).contains(cost.substring(0, cost.indexOf("x\n") + 2));
    assertThat(report.stdout()).containsMatch("(?m)^  exit status +0$");

    Result same = acf("compare", out.toString(), out.toString());
    assertThat(same.status()).isEqualTo(0);
    assertThat(same.stdout()).contains("count error      0.00%");
    assertThat(same.stdout()).contains("hot set error    0.00%");
  }
}
