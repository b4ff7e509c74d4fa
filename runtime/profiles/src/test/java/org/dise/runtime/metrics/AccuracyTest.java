package org.dise.runtime.metrics;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The papers' metrics on profiles whose answers are worked out by hand. */
class AccuracyTest {
  private static Map<String, Long> profile(Object... kv) {
    Map<String, Long> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], ((Number) kv[i + 1]).longValue());
    }
    return m;
  }

  @Test
  void countErrorIsSumOfAbsoluteDifferencesOverExhaustiveTotal() {
    Map<String, Long> exact = profile("a", 60, "b", 30, "c", 10);
    // |60-50| + |30-30| + |10-0| + |0-5| = 25, over 100
    Map<String, Long> sampled = profile("a", 50, "b", 30, "d", 5);
    assertThat(Accuracy.countError(exact, sampled)).isWithin(1e-12).of(0.25);
    assertThat(Accuracy.countError(exact, exact)).isEqualTo(0.0);
    assertThat(Accuracy.countError(exact, Map.of())).isWithin(1e-12).of(1.0);
    assertThat(Accuracy.countError(Map.of(), Map.of())).isEqualTo(0.0);
    assertThat(Accuracy.countError(Map.of(), sampled)).isEqualTo(1.0);
  }

  @Test
  void hotSetTakesTopFifteenPercentOfExhaustiveEntries() {
    // 20 entries: 15% is 3 hot entries, e19, e18, e17.
    Map<String, Long> exact = new LinkedHashMap<>();
    for (int i = 0; i < 20; i++) {
      exact.put("e" + i, (long) (i + 1) * 10);
    }
    assertThat(Accuracy.hotSet(exact, 3)).containsExactly("e19", "e18", "e17");
    // The estimate ranks e16 above e17: one of the three hot entries is missed.
    Map<String, Long> sampled = new LinkedHashMap<>(exact);
    sampled.put("e16", 1000L);
    assertThat(Accuracy.hotSetError(exact, sampled)).isWithin(1e-12).of(1.0 / 3);
    assertThat(Accuracy.hotSetError(exact, exact)).isEqualTo(0.0);
  }

  @Test
  void hotSetIncludesTiesAtTheCutOff() {
    // 10 entries: ceil(1.5) = 2 hot, but the 2nd ties with the 3rd and 4th, so 4 are hot.
    Map<String, Long> exact =
        profile(
            "a", 100, "b", 50, "c", 50, "d", 50, "e", 5, "f", 4, "g", 3, "h", 2, "i", 1, "j", 1);
    assertThat(Accuracy.hotSet(exact, 2)).containsExactly("a", "b", "c", "d");
    // The estimate's top 2 (with ties) are a and b only: c and d missing, 2 of 4.
    Map<String, Long> sampled = profile("a", 10, "b", 5, "c", 4, "d", 4);
    assertThat(Accuracy.hotSetError(exact, sampled)).isWithin(1e-12).of(0.5);
  }

  @Test
  void zeroEntriesAreNeverHot() {
    Map<String, Long> exact = profile("a", 0, "b", 0, "c", 7);
    assertThat(Accuracy.hotSet(exact, 1)).containsExactly("c");
    assertThat(Accuracy.hotSetError(exact, profile("a", 3))).isEqualTo(1.0);
    assertThat(Accuracy.hotSetError(profile("a", 0), profile("a", 3))).isEqualTo(0.0);
  }

  @Test
  void rejectsAFractionOutsideZeroToOne() {
    assertThrows(
        IllegalArgumentException.class,
        () -> Accuracy.hotSetError(profile("a", 1), profile("a", 1), 0));
    assertThrows(
        IllegalArgumentException.class,
        () -> Accuracy.hotSetError(profile("a", 1), profile("a", 1), 1.5));
  }

  @Test
  void theWeightHotSetIsTheFewestEntriesCarryingNinetyPercent() {
    // 2 hot entries carry 99% of the weight; 10 cold entries of 6 each carry the rest.
    Map<String, Long> exact = profile("h1", 5000, "h2", 4400);
    for (int i = 0; i < 10; i++) {
      exact.put("cold" + i, 6L);
    }
    assertThat(Accuracy.hotWeightSet(exact, 0.90)).containsExactly("h1", "h2");
    // A sample that finds both hot entries and none of the cold tail: the papers' top 15%
    // (2 entries of 12) happens to be the same here, but with more tail the count-based set grows
    // while the weight-based set stays at the entries that matter.
    Map<String, Long> sampled = profile("h1", 5100, "h2", 4300);
    assertThat(Accuracy.hotWeightSetError(exact, sampled)).isEqualTo(0.0);
    for (int i = 10; i < 100; i++) {
      exact.put("cold" + i, 1L);
    }
    assertThat(Accuracy.hotSetError(exact, sampled)).isGreaterThan(0.8);
    assertThat(Accuracy.hotWeightSetError(exact, sampled)).isEqualTo(0.0);
    // Missing the second hot entry is half the weight-based hot set.
    assertThat(Accuracy.hotWeightSetError(exact, profile("h1", 9000, "cold1", 400)))
        .isWithin(1e-12)
        .of(0.5);
  }

  @Test
  void theWeightHotSetExtendsToTiesAndRefusesABadShare() {
    Map<String, Long> exact = profile("a", 10, "b", 10, "c", 10, "d", 1);
    // Half of 31 takes two entries; the tie at 10 brings in the third.
    assertThat(Accuracy.hotWeightSet(exact, 0.5)).containsExactly("a", "b", "c");
    assertThat(Accuracy.hotWeightSet(exact, 1.0)).containsExactly("a", "b", "c", "d");
    assertThat(Accuracy.hotWeightSetError(Map.of(), exact)).isEqualTo(0.0);
    assertThrows(IllegalArgumentException.class, () -> Accuracy.hotWeightSetError(exact, exact, 0));
  }
}
