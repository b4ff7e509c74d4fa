package org.dise.repl.shell;

import static com.google.common.truth.Truth.assertThat;

import org.junit.jupiter.api.Test;

/** The REPL completes component names, parameters and choices from the one catalogue. */
class CatalogueCompletionTest {
  @Test
  void completesComponentsParametersAndChoices() {
    assertThat(ReplCompleter.acfWords())
        .containsAtLeast(
            "count_map",
            "hist_map",
            "state_map",
            "rap_tree",
            "phase_aware",
            "epsilon_ppm",
            "missing",
            "linear",
            "log2",
            "T.NEXT_PC");
  }
}
