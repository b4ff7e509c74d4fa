package org.dise.experiments;

import static com.google.common.truth.Truth.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Progress on long runs: which run of how many, the elapsed time and an estimate of what is left.
 */
class LabTest {
  @Test
  void stepsCountRunsAgainstThePlanAndEstimateTheRest() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Lab lab = new Lab(List.of(), true, new PrintStream(bytes, true, StandardCharsets.UTF_8));
    lab.plan(2);
    lab.plan(1);
    lab.step("first %s", "program");
    lab.step("second");
    lab.step("third");
    List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
    assertThat(lines).hasSize(3);
    assertThat(lines.get(0)).matches("\\[ *\\d+\\.\\ds\\] run 1 of 3, ~\\d+ s left: first program");
    assertThat(lines.get(1)).contains("run 2 of 3, ~");
    // The last run: nothing left to estimate.
    assertThat(lines.get(2)).endsWith("] run 3 of 3: third");
  }

  @Test
  void anUnplannedRunStillCounts() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Lab lab = new Lab(List.of(), true, new PrintStream(bytes, true, StandardCharsets.UTF_8));
    lab.step("a");
    assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("run 1 of 1: a");
  }

  @Test
  void durationsReadAsSecondsMinutesOrHours() {
    assertThat(Lab.duration(42.4)).isEqualTo("42 s");
    assertThat(Lab.duration(12 * 60 + 10)).isEqualTo("12 min");
    assertThat(Lab.duration(3600 + 5 * 60)).isEqualTo("1 h 05 min");
  }
}
