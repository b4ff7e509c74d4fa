package org.dise.integration;

import static com.google.common.truth.Truth.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dise.integration.EngineEndToEndTest.Engine;
import org.dise.runtime.Machine;
import org.dise.runtime.dise.ProfilingEngine;
import org.dise.runtime.sink.ProfileTable;

/**
 * Aggregation maps with known answers (issue 13): the example ACFs of examples/acf run on
 * examples/programs/bin/maps (maps.c says what each kernel does), on the interpreted engine and a
 * deployable configuration, and each profile is checked exactly.
 */
class MapsEndToEndTest {
  static final Path PROGRAM = Path.of("../examples/programs/bin/maps");
  static final Path ACFS = Path.of("../examples/acf");

  /** The rows of the profile whose first function column names {@code function}. */
  static List<Map<String, String>> rows(String acf, Engine engine, String function)
      throws Exception {
    Machine m = TranslatedProductionsTest.quietMachine(PROGRAM, List.of());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    m.kernel().setStdio(1, null, out);
    ProfilingEngine e =
        engine.create(
            EngineEndToEndTest.lower(Files.readString(ACFS.resolve(acf), StandardCharsets.UTF_8)));
    e.install(m.cpu());
    m.run(-1);
    assertThat(out.toString(StandardCharsets.UTF_8))
        .isEqualTo("walk 226800 negatives 40 (3900) fill 200 sum -128\n");
    // The last sink is the profile (load_strides.acf declares the state map first).
    ProfileTable t = e.sinks().get(e.sinks().size() - 1).table(m.symbols());
    String fn = t.header().contains("function") ? "function" : "function1";
    List<Map<String, String>> rows = new ArrayList<>();
    for (List<String> r : t.rows()) {
      Map<String, String> row = new LinkedHashMap<>();
      for (int i = 0; i < r.size(); i++) {
        row.put(t.header().get(i), r.get(i));
      }
      if (row.get(fn).startsWith(function + "+")) {
        rows.add(row);
      }
    }
    return rows;
  }

  /** Cells of {@code columns} of each row, joined by spaces. */
  static List<String> cells(List<Map<String, String>> rows, String... columns) {
    List<String> out = new ArrayList<>();
    for (Map<String, String> r : rows) {
      List<String> c = new ArrayList<>();
      for (String col : columns) {
        c.add(r.get(col));
      }
      out.add(String.join(" ", c));
    }
    return out;
  }

  @OnEveryEngine
  void branchOutcomesPerBranchInOneCountMap(Engine engine) throws Exception {
    List<Map<String, String>> rows = rows("branch_outcomes.acf", engine, "count_negatives");
    // bgez over 200 values, 40 negative: 160 times to its target (the loop's increment), 40
    // times on to the call of record_negative; the loop's beq exits once; the entry blez never.
    assertThat(cells(rows, "function1", "function2", "count"))
        .containsExactly(
            "count_negatives+0x1e count_negatives+0x22 199",
            "count_negatives+0x24 count_negatives+0x1a 160",
            "count_negatives+0x24 count_negatives+0x28 40",
            "count_negatives+0xc count_negatives+0x10 1",
            "count_negatives+0x1e count_negatives+0x34 1")
        .inOrder();
  }

  @OnEveryEngine
  void signedStrideHistogramPerLoadPc(Engine engine) throws Exception {
    List<Map<String, String>> rows = rows("load_strides.acf", engine, "walk");
    // 100 loads 24 bytes apart, then 50 loads 16 bytes apart going down from 824 bytes higher.
    assertThat(cells(rows, "function", "bucket_lo", "bucket_hi", "count"))
        .containsExactly(
            "walk+0x10 -16 -9 49", "walk+0x10 24 31 99", "walk+0x10 64 9223372036854775807 1")
        .inOrder();
  }

  @OnEveryEngine
  void log2HistogramOfLoadedValues(Engine engine) throws Exception {
    List<Map<String, String>> rows = rows("load_values.acf", engine, "sum_values");
    List<String> expected = new ArrayList<>();
    // -128..127 once each: [-255, -128] holds -128; [-2^(k+1)+1, -2^k] and [2^k, 2^(k+1)-1]
    // hold 2^k values each, up to 64 on either side; 0 alone.
    expected.add("-255 -128 1");
    for (int k = 6; k >= 0; k--) {
      expected.add((-(1L << (k + 1)) + 1) + " " + (-(1L << k)) + " " + (1L << k));
    }
    expected.add("0 0 1");
    for (int k = 0; k <= 6; k++) {
      expected.add((1L << k) + " " + ((1L << (k + 1)) - 1) + " " + (1L << k));
    }
    assertThat(cells(rows, "bucket_lo", "bucket_hi", "count"))
        .containsExactlyElementsIn(expected)
        .inOrder();
  }

  @OnEveryEngine
  void storeValueProfile(Engine engine) throws Exception {
    List<Map<String, String>> rows = rows("store_values.acf", engine, "fill_pattern");
    // (i & 3) - 1 for i < 400: each of -1, 0, 1, 2 a hundred times, at one store pc; ties in
    // count are listed by key.
    assertThat(cells(rows, "key2", "count"))
        .containsExactly("-1 100", "0 100", "1 100", "2 100")
        .inOrder();
  }
}
