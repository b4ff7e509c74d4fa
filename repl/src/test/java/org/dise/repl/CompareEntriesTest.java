package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;
import static org.dise.repl.ConfigCommandTest.acf;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.dise.runtime.sink.ProfileTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code acf compare}'s per-entry differences, on hand-made runs whose answer is worked out by
 * hand: the entries that moved most by absolute and by relative change, the entries and the
 * profiles only one side has, {@code --weight} and {@code --top}.
 */
class CompareEntriesTest {
  /** pc, function, count, instructions (instructions = 3 x count, except 0x40). */
  static ProfileTable loads(Map<String, Long> counts) {
    List<List<String>> rows =
        counts.entrySet().stream()
            .map(
                e ->
                    List.of(
                        e.getKey(),
                        "f" + e.getKey().substring(2),
                        e.getValue().toString(),
                        Long.toString(e.getKey().equals("0x40") ? 1000 : 3 * e.getValue())))
            .toList();
    return new ProfileTable(
        List.of("pc", "function", "count", "instructions"), rows, List.of("pc"), "count");
  }

  static final Map<String, Long> A = new java.util.LinkedHashMap<>(Map.of());
  static final Map<String, Long> B = new java.util.LinkedHashMap<>(Map.of());

  static {
    A.put("0x10", 100L);
    A.put("0x20", 50L);
    A.put("0x30", 10L);
    A.put("0x40", 5L);
    B.put("0x10", 80L); // -20, -20%
    B.put("0x20", 50L); // unchanged
    B.put("0x30", 30L); // +20, +200%
    B.put("0x50", 7L); // only in B
  }

  @Test
  void theEntriesThatMovedMostAndThoseOnOneSideAreListed(@TempDir Path dir) throws Exception {
    Path a =
        ReportCompareCommandTest.dir(
            dir, "a", Map.of("loads", loads(A), "gone", loads(Map.of("0x1", 1L))));
    Path b =
        ReportCompareCommandTest.dir(
            dir, "b", Map.of("loads", loads(B), "added", loads(Map.of("0x1", 1L))));
    ConfigCommandTest.Result r = acf("compare", a.toString(), b.toString());
    assertThat(r.status()).isEqualTo(0);
    assertThat(r.stdout())
        .contains(
            String.join(
                "\n",
                "  moved most, by absolute change (B - A)",
                "    entry       A   B  change  relative",
                "    0x10 f10  100  80     -20   -20.00%",
                "    0x30 f30   10  30     +20  +200.00%",
                "    0x50 f50    0   7      +7       new",
                "    0x40 f40    5   0      -5  -100.00%",
                "  moved most, by relative change ((B - A) / A)",
                "    entry       A   B  change  relative",
                "    0x30 f30   10  30     +20  +200.00%",
                "    0x10 f10  100  80     -20   -20.00%",
                "  only in A         1 entry (weight 5): 0x40 f40",
                "  only in B         1 entry (weight 7): 0x50 f50",
                "profiles only in A (" + a + "): gone",
                "profiles only in B (" + b + "): added",
                ""));
  }

  @Test
  void weightChoosesTheColumnAndTopTheLength(@TempDir Path dir) throws Exception {
    Path a = ReportCompareCommandTest.dir(dir, "a", Map.of("loads", loads(A)));
    Path b = ReportCompareCommandTest.dir(dir, "b", Map.of("loads", loads(B)));
    ConfigCommandTest.Result r =
        acf("compare", "--weight", "instructions", "--top", "1", a.toString(), b.toString());
    assertThat(r.status()).isEqualTo(0);
    assertThat(r.stdout()).contains("profile loads (instructions)\n");
    // By instructions, 0x40 (1000 in A, gone in B) moved most.
    assertThat(r.stdout())
        .contains(
            "    0x40 f40  1,000  0  -1,000  -100.00%\n" + "  moved most, by relative change");
    assertThat(r.stdout()).contains("  only in A         1 entry (weight 1,000): 0x40 f40");

    ConfigCommandTest.Result text =
        acf("compare", "--weight", "function", a.toString(), b.toString());
    assertThat(text.status()).isEqualTo(2);
    assertThat(text.stderr())
        .contains(
            "--weight function: profile loads in "
                + a
                + " has `f10` in that column, not a whole number");
    ConfigCommandTest.Result none = acf("compare", "--weight", "bytes", a.toString(), b.toString());
    assertThat(none.status()).isEqualTo(2);
    assertThat(none.stdout())
        .contains(
            "profile loads (columns: pc, function, count,"
                + " instructions): no column `bytes`, skipped");
  }

  @Test
  void identicalRunsSaySoInOneLine(@TempDir Path dir) throws Exception {
    Path a = ReportCompareCommandTest.dir(dir, "a", Map.of("loads", loads(A)));
    Path b = ReportCompareCommandTest.dir(dir, "b", Map.of("loads", loads(A)));
    ConfigCommandTest.Result r = acf("compare", a.toString(), b.toString());
    assertThat(r.stdout()).contains("  count error      0.00%");
    assertThat(r.stdout()).endsWith("  no entry moved\n");
  }
}
