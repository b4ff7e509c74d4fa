package org.dise.center;

import static com.google.common.truth.Truth.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.dise.testsupport.OnEveryStore;
import org.dise.testsupport.TestStores;
import org.junit.jupiter.api.io.TempDir;

/**
 * A week of uploads at a compressed clock (issue 30): with {@code --retain 1d} the store's size
 * stops growing after the first day, without retention it grows every day; the phase sums and
 * estimates are the same either way, and the merged profile is the kept day's.
 */
class RetentionSimulationTest {
  static final int PER_DAY = 24;

  static RetentionSimulation.Settings week(Duration retain) {
    return new RetentionSimulation.Settings(7, 10, PER_DAY, 20, retain, Duration.ofHours(1));
  }

  @OnEveryStore
  void aWeekWithRetentionStaysBoundedAndKeepsThePhaseSums(String kind, @TempDir Path dir)
      throws Exception {
    String kept = TestStores.freshOrSkip(kind, dir.resolve("kept"));
    String all = TestStores.fresh(kind, dir.resolve("all"));
    try (Store retained = Store.open(StoreUrl.parse(kept), 2);
        Store unbounded = Store.open(StoreUrl.parse(all), 2)) {
      List<RetentionSimulation.Day> r =
          RetentionSimulation.run(
              retained,
              week(Duration.ofDays(1)),
              d -> System.out.println(kind + " --retain 1d: " + d));
      List<RetentionSimulation.Day> u =
          RetentionSimulation.run(
              unbounded, week(null), d -> System.out.println(kind + " no retention: " + d));
      assertThat(r).hasSize(7);

      // Bounded: after day 2 no more parts, profile rows or bytes than after day 2; at most a
      // day and an hour of uploads (the retention pass runs hourly).
      RetentionSimulation.Day day2 = r.get(1);
      RetentionSimulation.Day day7 = r.get(6);
      assertThat(day7.parts()).isAtMost(day2.parts());
      assertThat(day7.profileRows()).isAtMost(day2.profileRows());
      assertThat(day7.bytes()).isAtMost(day2.bytes() + day2.bytes() / 10);
      assertThat(day7.parts()).isAtMost(PER_DAY + 1);
      assertThat(r.stream().mapToLong(RetentionSimulation.Day::dropped).sum())
          .isEqualTo(7L * PER_DAY - day7.parts());
      // Without retention it grows by a day's uploads every day.
      for (int d = 0; d < 7; d++) {
        assertThat(u.get(d).parts()).isEqualTo((d + 1L) * PER_DAY);
        assertThat(u.get(d).dropped()).isEqualTo(0);
      }
      assertThat(u.get(6).profileRows()).isGreaterThan(3 * day7.profileRows());

      // The phase figures and estimates are sums over every part ever taken: the same either way.
      String sha = "ab".repeat(32);
      assertThat(retained.phases(sha).size()).isEqualTo(unbounded.phases(sha).size());
      for (int i = 0; i < retained.phases(sha).size(); i++) {
        Store.Phase a = retained.phases(sha).get(i);
        Store.Phase b = unbounded.phases(sha).get(i);
        assertThat(a.intervals()).isEqualTo(b.intervals());
        assertThat(a.sampledInstructions()).isEqualTo(b.sampledInstructions());
      }
      Map<String, Double> estimate = retained.estimate(sha, "CallPair_handler");
      assertThat(estimate).isNotEmpty();
      assertThat(estimate).isEqualTo(unbounded.estimate(sha, "CallPair_handler"));
      // The merged profile is the parts still held: the last retention pass's day and after.
      long lastCutoff =
          RetentionSimulation.START_MS
              + Duration.ofDays(7).toMillis()
              - Duration.ofDays(1).toMillis();
      assertThat(retained.merged("CallPair_handler", new Store.Filter(null, null, null)).rows())
          .containsExactlyElementsIn(
              unbounded
                  .merged("CallPair_handler", new Store.Filter(null, null, lastCutoff))
                  .rows());
    }
  }
}
