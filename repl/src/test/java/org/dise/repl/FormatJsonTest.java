package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.dise.repl.ConfigCommandTest.Result;
import org.dise.repl.common.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --format json} on report, inspect and bench: one JSON document, the text's figures. */
class FormatJsonTest {
  static Result acf(String... args) {
    return ConfigCommandTest.acf(args);
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> parse(String text) {
    return (Map<String, Object>) Json.parse(text);
  }

  /** Runs acf, which must succeed, and reads its standard output as one JSON document. */
  static Map<String, Object> document(String... args) {
    Result r = acf(args);
    assertWithMessage(r.stderr()).that(r.status()).isEqualTo(0);
    return parse(r.stdout());
  }

  static final String BIN = ConfigCommandTest.ROOT.resolve("examples/programs/bin").toString();

  /** {@code acf bench --format json} on hello with {@code options}: the document. */
  static Map<String, Object> benchHello(String... options) {
    List<String> args = new ArrayList<>(List.of("bench", "--format", "json", "--dir", BIN));
    args.addAll(List.of(options));
    args.add("hello");
    return document(args.toArray(String[]::new));
  }

  /** The array member {@code key} of a document: its rows, each an object. */
  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> rows(Map<String, Object> doc, String key) {
    return (List<Map<String, Object>>) doc.get(key);
  }

  @Test
  void reportAsJsonCarriesTheTextsFigures(@TempDir Path tmp) throws Exception {
    Path d =
        ReportCompareCommandTest.dir(
            tmp,
            "run",
            Map.of(
                "Methods",
                ReportCompareCommandTest.counts(Map.of("main", 30L, "fib", 60L, "put", 10L))));
    Result text = acf("report", d.toString());
    assertThat(text.status()).isEqualTo(0);
    assertThat(text.stdout()).contains("profile Methods: 3 entries, count 100");
    assertThat(text.stdout()).containsMatch("fib +60 +60.0");

    Result json = acf("report", "--format", "json", "--top", "2", d.toString());
    assertThat(json.status()).isEqualTo(0);
    assertThat(json.stdout()).doesNotContain("profile Methods:");
    List<Map<String, Object>> profiles = rows(parse(json.stdout()), "profiles");
    assertThat(profiles).hasSize(1);
    Map<String, Object> p = profiles.get(0);
    assertThat(p.get("profile")).isEqualTo("Methods");
    assertThat(p.get("total").toString()).isEqualTo("100");
    assertThat(p.get("entries").toString()).isEqualTo("3");
    List<Map<String, Object>> top = rows(p, "top");
    assertThat(top).hasSize(2);
    assertThat(top.get(0).get("method")).isEqualTo("fib");
    assertThat(top.get(0).get("count").toString()).isEqualTo("60");
    assertThat(Double.parseDouble(top.get(0).get("share_percent").toString())).isEqualTo(60.0);
  }

  @Test
  @SuppressWarnings("unchecked")
  void inspectAsJsonCarriesTheTextsFigures(@TempDir Path tmp) {
    Path cfg = tmp.resolve("pairs.dcfg");
    assertThat(acf("compile", ConfigCommandTest.ACF, "-o", cfg.toString()).status()).isEqualTo(0);
    Result text = acf("inspect", cfg.toString());
    assertThat(text.status()).isEqualTo(0);
    Map<String, Object> doc = document("inspect", "--format", "json", cfg.toString());
    List<Map<String, Object>> patterns = rows(doc, "patterns");
    assertThat(patterns).isNotEmpty();
    // The same production, pattern and budget figures as the text.
    Map<String, Object> first = patterns.get(0);
    assertThat(text.stdout()).contains(first.get("name") + ": " + first.get("pattern"));
    Map<String, Object> budget = (Map<String, Object>) doc.get("budget");
    assertThat(text.stdout())
        .contains(
            "budget: PT "
                + budget.get("pattern_entries")
                + "/"
                + budget.get("pattern_capacity")
                + ", RT "
                + budget.get("replacement_entries")
                + "/");
    assertThat(doc.get("bytes").toString()).isEqualTo(Long.toString(cfg.toFile().length()));
    List<Map<String, Object>> sinks = rows(doc, "sinks");
    assertThat(text.stdout()).contains("  " + sinks.get(0).get("name") + " -> ");
  }

  @Test
  @SuppressWarnings("unchecked")
  void benchAsJsonCarriesTheTablesFigures() {
    Map<String, Object> doc = benchHello("--no-qemu");
    List<Map<String, Object>> workloads = rows(doc, "workloads");
    assertThat(workloads).hasSize(1);
    Map<String, Object> hello = workloads.get(0);
    assertThat(hello.get("workload")).isEqualTo("hello");
    assertThat(hello.get("exit_status").toString()).isEqualTo("0");
    long insns = Long.parseLong(hello.get("instructions").toString());
    assertThat(insns).isGreaterThan(0L);
    // hello's instruction count is deterministic: the text table shows the same figure.
    Result text = acf("bench", "--dir", BIN, "--no-qemu", "hello");
    assertThat(text.stdout()).containsMatch("hello +" + String.format("%,d", insns) + " ");
    Map<String, Object> total = (Map<String, Object>) doc.get("total");
    assertThat(total.get("instructions").toString()).isEqualTo(Long.toString(insns));
    assertThat(doc.get("machine")).isInstanceOf(Map.class);
  }

  @Test
  void benchRefusesJsonForMicroBenchmarks() {
    Result r = acf("bench", "--format", "json", "fpu");
    assertThat(r.status()).isEqualTo(org.dise.repl.common.ExitStatus.USAGE);
    assertThat(r.stderr()).contains("not micro-benchmarks");
  }

  @Test
  void benchWithProductionsAsJsonHasARowPerEngine() {
    String acf = ConfigCommandTest.ROOT.resolve("examples/acf/hot_call_pairs.acf").toString();
    List<Map<String, Object>> rows = rows(benchHello("--acf", acf), "workloads");
    assertThat(rows).hasSize(2);
    assertThat(rows.get(0).get("engine")).isEqualTo("none");
    assertThat(rows.get(1).get("engine")).isNotEqualTo("none");
    assertThat(rows.get(0).get("instructions")).isEqualTo(rows.get(1).get("instructions"));
    assertThat(Long.parseLong(rows.get(1).get("replacements").toString())).isGreaterThan(0L);
  }

  @Test
  void benchRapAsJsonHasTheTablesRows() {
    List<Map<String, Object>> rows = rows(benchHello("--rap", "--max-insns", "20000"), "workloads");
    // Two streams (pc, value), two epsilons each.
    assertThat(rows).hasSize(4);
    assertThat(rows.get(0).get("stream")).isEqualTo("pc");
    assertThat(Long.parseLong(rows.get(0).get("events").toString())).isGreaterThan(0L);
  }
}
