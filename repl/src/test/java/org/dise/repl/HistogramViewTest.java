package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;

import java.util.List;
import org.dise.repl.common.HistogramView;
import org.dise.repl.common.ProfileFormats;
import org.dise.runtime.sink.ProfileTable;
import org.junit.jupiter.api.Test;

/** A histogram map on the terminal, as bpftrace prints one (bars scaled per key). */
class HistogramViewTest {
  @Test
  void printsEachKeysBucketsWithBars() {
    ProfileTable t =
        new ProfileTable(
            List.of("key", "function", "bucket_lo", "bucket_hi", "count"),
            List.of(
                List.of("0x10656", "walk+0x10", "-16", "-9", "49"),
                List.of("0x10656", "walk+0x10", "24", "31", "98"),
                List.of("0x10656", "walk+0x10", "64", Long.toString(Long.MAX_VALUE), "1"),
                List.of("0x2000", "other", Long.toString(Long.MIN_VALUE), "-65", "2")),
            List.of("key", "bucket_lo"),
            "count");
    assertThat(ProfileFormats.terminal("strides", t, 10))
        .containsExactly(
            "profile strides: 2 keys, count 150",
            "  @[0x10656, walk+0x10]: 148",
            "    [-16, -9] 49 |" + "@".repeat(26) + " ".repeat(26) + "|",
            "    [24, 31]  98 |" + "@".repeat(52) + "|",
            "    [64, ...)  1 |" + " ".repeat(52) + "|",
            "  @[0x2000, other]: 2",
            "    (..., -65] 2 |" + "@".repeat(52) + "|")
        .inOrder();
  }

  @Test
  void otherProfilesKeepTheTable() {
    ProfileTable t =
        new ProfileTable(
            List.of("key", "count"), List.of(List.of("1", "3")), List.of("key"), "count");
    assertThat(HistogramView.applies(t)).isFalse();
  }
}
