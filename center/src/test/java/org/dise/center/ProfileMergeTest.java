package org.dise.center;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.dise.runtime.sink.ProfileTable;
import org.junit.jupiter.api.Test;

/** Merging sums counts by key and keeps names; a part's delta adds back to the whole. */
class ProfileMergeTest {
  static ProfileTable table(List<List<String>> rows) {
    return new ProfileTable(
        List.of("pc", "function", "count", "instructions"), rows, List.of("pc"), "count");
  }

  @Test
  void mergeSumsIntegerColumnsByKeyHottestFirst() {
    ProfileTable a =
        table(List.of(List.of("0x10", "f", "5", "50"), List.of("0x20", "g", "3", "9")));
    ProfileTable b = table(List.of(List.of("0x20", "g", "4", "1"), List.of("0x30", "h", "1", "1")));
    ProfileTable m = ProfileMerge.merge(List.of(a, b));
    assertThat(m.rows())
        .containsExactly(
            List.of("0x20", "g", "7", "10"),
            List.of("0x10", "f", "5", "50"),
            List.of("0x30", "h", "1", "1"))
        .inOrder();
    assertThat(ProfileMerge.merge(List.of(a, a, a)).weights())
        .containsExactly("0x10", 15L, "0x20", 9L)
        .inOrder();
  }

  @Test
  void partsAddBackToTheWhole() {
    ProfileTable early = table(List.of(List.of("0x10", "f", "5", "50")));
    ProfileTable late =
        table(List.of(List.of("0x10", "f", "8", "60"), List.of("0x20", "g", "2", "2")));
    ProfileTable delta = ProfileMerge.since(late, early);
    assertThat(delta.rows())
        .containsExactly(List.of("0x10", "f", "3", "10"), List.of("0x20", "g", "2", "2"))
        .inOrder();
    assertThat(ProfileMerge.merge(List.of(early, delta)).rows()).isEqualTo(late.rows());
    assertThat(ProfileMerge.since(late, late).rows()).isEmpty();
  }

  @Test
  void twoShapesAreRefused() {
    ProfileTable other =
        new ProfileTable(
            List.of("pc", "count"), List.of(List.of("0x1", "1")), List.of("pc"), "count");
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> ProfileMerge.merge(List.of(table(List.of()), other)));
    assertThat(e.getMessage()).contains("profiles of two shapes");
  }
}
