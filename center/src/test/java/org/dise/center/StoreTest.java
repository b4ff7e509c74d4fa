package org.dise.center;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.dise.testsupport.OnEveryStore;
import org.dise.testsupport.TestStores;
import org.junit.jupiter.api.io.TempDir;

/** The store on SQLite and PostgreSQL: phases, estimates, idempotence, schema versions, load. */
class StoreTest {
  static Upload part(String device, double[] sig, long sampled, Map<String, Long> weights) {
    Upload base = LoadTest.part(device, 0, 3, new SplittableRandom(device.hashCode()));
    return new Upload(
        base.uploadId(),
        0,
        true,
        device,
        "prog",
        base.programSha256(),
        base.configHash(),
        base.figures(),
        base.profiles(),
        List.of(
            new Upload.PhaseReport(
                7,
                sig,
                4,
                4000,
                sampled,
                1000 * sampled,
                sampled > 0 ? Map.of("Branch_handler", weights) : Map.of())),
        List.of(7, 7, 7, 7));
  }

  static double[] signature(int hot) {
    double[] s = new double[32];
    s[hot] = 0.8;
    s[(hot + 1) % 32] = 0.2;
    return s;
  }

  @OnEveryStore
  void phasesMatchAcrossDevicesAndScaleTheEstimate(String kind, @TempDir Path dir)
      throws Exception {
    String url = TestStores.freshOrSkip(kind, dir);
    try (Store s = Store.open(StoreUrl.parse(url), 2)) {
      Upload a = part("a", signature(3), 1, Map.of("0x10", 100L));
      assertThat(s.ingest(a, 10, 25)).isEqualTo(Store.Ingested.STORED);
      assertThat(s.ingest(a, 10, 25)).isEqualTo(Store.Ingested.DUPLICATE);
      // Within the threshold of a's phase (10% moved): the same phase; b sampled nothing.
      double[] near = signature(3);
      near[3] = 0.7;
      near[5] = 0.1;
      s.ingest(part("b", near, 0, Map.of()), 10, 25);
      // Far away: a new phase.
      s.ingest(part("c", signature(20), 2, Map.of("0x20", 30L)), 10, 25);
      List<Store.Phase> phases = s.phases(a.programSha256());
      assertThat(phases).hasSize(2);
      assertThat(phases.get(0).intervals()).isEqualTo(8);
      assertThat(phases.get(0).sampledIntervals()).isEqualTo(1);
      assertThat(phases.get(1).sampledIntervals()).isEqualTo(2);
      // Phase 0: 100 over 1000 sampled of 8000 instructions; phase 1: 30 over 2000 of 4000.
      assertThat(s.estimate(a.programSha256(), "Branch_handler"))
          .containsExactly("0x10", 800.0, "0x20", 60.0);
      Store.Status st = s.status();
      assertThat(st.uploads()).isEqualTo(3);
      assertThat(st.phases()).isEqualTo(2);
    }
  }

  @OnEveryStore
  void retentionDropsOldPartsAndKeepsThePhaseSums(String kind, @TempDir Path dir) throws Exception {
    String url = TestStores.freshOrSkip(kind, dir);
    try (Store s = Store.open(StoreUrl.parse(url), 2)) {
      long[] now = {1_000_000_000_000L};
      s.clock(() -> now[0]);
      // Day 0: five devices' parts; day 2: one more.
      for (String d : List.of("a", "b", "c", "d", "e")) {
        s.ingest(part(d, signature(3), 1, Map.of("0x10", 10L)), 10, 25);
      }
      now[0] += Duration.ofDays(2).toMillis();
      Upload fresh = part("f", signature(3), 1, Map.of("0x10", 10L));
      s.ingest(fresh, 10, 25);
      String sink = fresh.profiles().get(0).sink();
      Map<String, Double> estimate = s.estimate(fresh.programSha256(), "Branch_handler");
      List<Store.Phase> phases = s.phases(fresh.programSha256());
      assertThat(s.status().parts()).isEqualTo(6);

      Store.Collected c = s.gc(now[0] - Duration.ofDays(1).toMillis());
      assertThat(c.parts()).isEqualTo(5);
      assertThat(c.profiles()).isEqualTo(5L * fresh.profiles().size());
      assertThat(c.kept()).isEqualTo(1);
      // Queries now merge the kept part alone: the merged profile is f's.
      assertThat(s.merged(sink, new Store.Filter(null, null, null)).rows())
          .containsExactlyElementsIn(fresh.profiles().get(0).table().rows());
      assertThat(s.status().parts()).isEqualTo(1);
      assertThat(s.status().devices().stream().filter(d -> d.uploads() > 0).count()).isEqualTo(1);
      // What the dropped parts added to the program's phases stays: feedback and estimates are
      // sums over every part ever taken.
      assertThat(s.phases(fresh.programSha256())).hasSize(phases.size());
      assertThat(s.phases(fresh.programSha256()).get(0).intervals())
          .isEqualTo(phases.get(0).intervals());
      assertThat(s.estimate(fresh.programSha256(), "Branch_handler")).isEqualTo(estimate);
      // A second pass finds nothing more; a later one drops the rest; the store still ingests.
      assertThat(s.gc(now[0] - Duration.ofDays(1).toMillis()).parts()).isEqualTo(0);
      assertThat(s.gc(now[0] + 1).parts()).isEqualTo(1);
      assertThat(s.merged(sink, new Store.Filter(null, null, null))).isNull();
      assertThat(s.ingest(part("g", signature(3), 1, Map.of("0x10", 10L)), 10, 25))
          .isEqualTo(Store.Ingested.STORED);
    }
  }

  @OnEveryStore
  void aNewerSchemaIsRefusedAndAFailedIngestLeavesNoRow(String kind, @TempDir Path dir)
      throws Exception {
    String url = TestStores.freshOrSkip(kind, dir);
    StoreUrl u = StoreUrl.parse(url);
    try (Store s = Store.open(u, 1)) {
      // A part whose profile row cannot be stored (two profiles of one sink) is rolled back
      // whole: no upload row either.
      Upload base = part("a", signature(1), 1, Map.of("k", 1L));
      Upload twice =
          new Upload(
              base.uploadId(),
              0,
              true,
              "a",
              "prog",
              base.programSha256(),
              base.configHash(),
              base.figures(),
              List.of(base.profiles().get(0), base.profiles().get(0)),
              base.phases(),
              base.trace());
      assertThrows(StoreException.class, () -> s.ingest(twice, 10, 25));
      assertThat(s.status().uploads()).isEqualTo(0);
      assertThat(s.phases(base.programSha256())).isEmpty();
      assertThat(s.ingest(base, 10, 25)).isEqualTo(Store.Ingested.STORED);
    }
    try (Connection c = DriverManager.getConnection(u.jdbcUrl(), u.properties());
        Statement st = c.createStatement()) {
      st.execute("INSERT INTO schema_version (version) VALUES (99)");
    }
    StoreException e = assertThrows(StoreException.class, () -> Store.open(u, 1));
    assertThat(e.getMessage())
        .contains("schema is version 99, newer than this acf's (" + Store.SCHEMA_VERSION + ")");
  }

  @OnEveryStore
  void aVersionOneStoreWithDataIsMigratedToVersionTwo(String kind, @TempDir Path dir)
      throws Exception {
    String url = TestStores.freshOrSkip(kind, dir);
    StoreUrl u = StoreUrl.parse(url);
    String sha = "ab".repeat(32);
    // A store as version 1 wrote it: one device, one program, one part with one profile row.
    try (Connection c = DriverManager.getConnection(u.jdbcUrl(), u.properties());
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)");
      for (String sql : Store.MIGRATIONS.get(0)) {
        st.execute(sql);
      }
      st.execute("INSERT INTO schema_version (version) VALUES (1)");
      st.execute("INSERT INTO devices VALUES ('d1', 'hash', 1)");
      st.execute("INSERT INTO programs VALUES ('" + sha + "', 'prog', 1)");
      st.execute(
          "INSERT INTO uploads VALUES ('old-upload-1', 0, 1, 'd1', '"
              + sha
              + "', 'cfg', 1, 100, 2, 1, 2000, 1000, 0, '')");
      st.execute(
          "INSERT INTO profiles VALUES ('old-upload-1', 0, 'S', '[\"pair\",\"count\"]',"
              + " '[\"pair\"]', 'count', 1, '[[\"0x10\",\"40\"]]')");
    }
    try (Store s = Store.open(u, 1)) {
      assertThat(s.merged("S", new Store.Filter(null, null, null)).weights())
          .containsExactly("0x10", 40L);
      Store.ProgramStatus p = s.status().programs().get(0);
      assertThat(p.instructions()).isEqualTo(2000);
      // The same id from another device is now a new upload; from d1 it is held.
      Upload again =
          new Upload(
              "old-upload-1",
              0,
              true,
              "d2",
              "prog",
              sha,
              "cfg",
              new Upload.Figures(2, 1, 2000, 1000, 1000, 0),
              List.of(
                  new Upload.SinkProfile(
                      "S",
                      new org.dise.runtime.sink.ProfileTable(
                          List.of("pair", "count"),
                          List.of(List.of("0x10", "2")),
                          List.of("pair"),
                          "count"))),
              List.of(),
              List.of());
      assertThat(s.ingest(again, 10, 25)).isEqualTo(Store.Ingested.STORED);
      Upload same =
          new Upload(
              "old-upload-1",
              0,
              true,
              "d1",
              "prog",
              sha,
              "cfg",
              again.figures(),
              again.profiles(),
              List.of(),
              List.of());
      assertThat(s.ingest(same, 10, 25)).isEqualTo(Store.Ingested.DUPLICATE);
      assertThat(s.merged("S", new Store.Filter(null, null, null)).weights())
          .containsExactly("0x10", 42L);
      assertThat(s.status().programs().get(0).instructions()).isEqualTo(4000);
    }
  }

  @OnEveryStore
  void fiftyDevicesUploadAtOnceAndEveryPartIsStoredOnce(String kind, @TempDir Path dir)
      throws Exception {
    String url = TestStores.freshOrSkip(kind, dir);
    LoadTest.Result r =
        LoadTest.run(
            Store.open(StoreUrl.parse(url), 16), 50, 2, 50, Duration.ofMinutes(5), System.err);
    System.out.println("load test (" + kind + "): " + r.describe());
    assertThat(r.failed()).isEqualTo(0);
    assertThat(r.stored()).isEqualTo(100);
    assertThat(r.storedUploads()).isEqualTo(100);
  }
}
