package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;

import org.junit.jupiter.api.Test;

/** Issue 32, finding 8: the progress line had no percentage or ETA even under --max-insns. */
class ProgressLineTest {
  @Test
  void withAKnownEndTheLineHasTheShareDoneAndTheTimeLeft() {
    assertThat(Progress.line(250_000_000, 1_000_000_000, 80.4, 3.0, null))
        .isEqualTo(
            "acf: 250,000,000 of 1,000,000,000 instructions (25%), 80 MIPS, 3.0 s,"
                + " about 9 s left");
    assertThat(Progress.line(10_000_000, 1_000_000_000, 80, 2.0, "phase 3"))
        .isEqualTo(
            "acf: 10,000,000 of 1,000,000,000 instructions (1%), 80 MIPS, 2.0 s,"
                + " about 3 min 18 s left, phase 3");
  }

  @Test
  void withoutOneItHasNeither() {
    assertThat(Progress.line(1234, -1, 80, 2.5, null))
        .isEqualTo("acf: 1,234 instructions, 80 MIPS, 2.5 s");
  }
}
