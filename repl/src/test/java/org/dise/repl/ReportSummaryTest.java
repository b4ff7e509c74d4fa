package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;

import java.util.List;
import java.util.Map;
import org.dise.repl.common.Json;
import org.junit.jupiter.api.Test;

/**
 * Issue 32, finding 8: {@code acf report} printed summary.json flattened ({@code sampling options
 * sampling null}, an empty {@code env} line); records now read as one line each, without absent
 * values.
 */
class ReportSummaryTest {
  @SuppressWarnings("unchecked")
  private static List<String> lines(String summaryJson) {
    return org.dise.repl.common.CostLines.of((Map<String, Object>) Json.parse(summaryJson));
  }

  @Test
  void recordsReadAsOneLineWithoutAbsentValues() {
    List<String> lines =
        lines(
            "{\"exit_status\": 0, \"seed\": 24301, \"env\": [],"
                + " \"trigger_settings\": {\"interval\": 100000, \"period\": 4},"
                + " \"sampling_options\": {\"sampling\": \"periodic:4\", \"interval\": \"100K\","
                + " \"threshold\": null, \"predictor\": null, \"shadow_exhaustive\": false},"
                + " \"max_insns\": null}");
    assertThat(lines)
        .containsExactly(
            "exit status              0",
            "seed                     24301",
            "trigger settings         interval 100,000, period 4",
            "sampling options         sampling periodic:4, interval 100K, shadow exhaustive false")
        .inOrder();
  }
}
