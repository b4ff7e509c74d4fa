package org.dise.runtime.profiles.sink;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.dise.runtime.dise.Catalogue;
import org.dise.runtime.sink.ComponentSpec;
import org.junit.jupiter.api.Test;

/** The catalogue's checks of a binding as a configuration carries it (text parameters). */
class CatalogueTest {
  static String refusal(String component, Map<String, String> params) {
    return assertThrows(
            IllegalArgumentException.class, () -> Catalogue.require("sink", "s", component, params))
        .getMessage();
  }

  @Test
  void refusesValuesOutOfRangeNamingTheParameter() {
    assertThat(refusal("rap_tree", Map.of("branching", "3")))
        .isEqualTo("sink `s`: branching must be a power of two 2..256, got 3");
    assertThat(refusal("rap_tree", Map.of("epsilon_ppm", "-5")))
        .isEqualTo("sink `s`: epsilon_ppm must be 1..1000000, got -5");
    assertThat(refusal("rap_tree", Map.of("stream", "banana")))
        .isEqualTo("sink `s`: stream must be value, address or pc, not `banana`");
    assertThat(refusal("bbv", Map.of("interval", "x")))
        .isEqualTo("sink `s`: interval takes a whole number, not `x`");
    assertThat(refusal("region_counter", Map.of("capacity", "3")))
        .contains("`region_counter` has no parameter `capacity` (it has cost)");
  }

  @Test
  void crossParameterChecks() {
    assertThat(refusal("hist_map", Map.of("kind", "linear", "lo", "0")))
        .contains("a linear histogram needs lo, hi and step (missing hi)");
    assertThat(refusal("hist_map", Map.of("kind", "linear", "lo", "5", "hi", "5", "step", "1")))
        .isEqualTo("sink `s`: hi (5) must be greater than lo (5)");
    assertThat(refusal("hist_map", Map.of("lo", "5"))).contains("lo is for `kind = linear`");
    assertThat(refusal("rap_tree", Map.of("capacity", "4")))
        .contains("capacity must be 0 (unbounded) or at least 1 + branching (5) nodes, got 4");
  }

  @Test
  void removedAndUnknownComponentsSayWhatToWrite() {
    assertThat(refusal("keyed_counter", Map.of())).contains("`sink s = count_map();`");
    assertThat(refusal("banana", Map.of()))
        .contains("which is not a component (the sinks are" + " region_counter, method_counter");
  }

  @Test
  void everyComponentAcceptsItsDefaults() {
    for (ComponentSpec c : Catalogue.all()) {
      assertThat(c.problems(c.withDefaults(Map.of()))).isEmpty();
    }
  }
}
