package org.dise.center;

import static com.google.common.truth.Truth.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The device's spool as a guest or a second process would meet it (issue 31): parts are the owner's
 * alone, a planted or damaged part is checked and set aside before anything is sent, a spool shared
 * by processes delivers every part once, and a refused token keeps the parts.
 */
class SpoolTest {
  static final PrintStream QUIET = new PrintStream(PrintStream.nullOutputStream());

  @Test
  void partsAreWrittenForTheOwnerAlone(@TempDir Path dir) throws Exception {
    Spool s = new Spool(dir.resolve("spool"));
    Path p =
        s.put("a.00000", CenterAttackTest.gz(CenterAttackTest.part("dev", "own-00001", "1", 1, 1)));
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(p)))
        .isEqualTo("rw-------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(s.dir())))
        .isEqualTo("rwx------");
  }

  @Test
  void theDefaultSpoolIsTheUsersStateNotTheWorkingDirectory() {
    Path d = Spool.defaultDir();
    assertThat(d.endsWith(Path.of("acf", "spool"))).isTrue();
    assertThat(d.toString()).doesNotContain("/.acf/");
  }

  @Test
  void aPlantedPartIsSetAsideAndTheRestDelivered(@TempDir Path dir) throws Exception {
    try (CenterAttackTest.Running c = CenterAttackTest.center(dir)) {
      Spool s = new Spool(dir.resolve("spool"));
      // What a guest could write: a weight past 63 bits, and bytes that are no part at all.
      String poisoned =
          CenterAttackTest.json(CenterAttackTest.part("dev", "planted-01", "7", 1, 1))
              .replace("\"0x10|0x20\",\"7\"", "\"0x10|0x20\",\"9999999999999999999\"");
      s.put("a-planted.00000", CenterAttackTest.gz(poisoned));
      Files.writeString(s.dir().resolve("b-junk.00000.json.gz"), "not gzip");
      s.put(
          "c-good.00000",
          CenterAttackTest.gz(CenterAttackTest.part("dev", "good-0001", "7", 1, 1)));
      ByteArrayOutputStream log = new ByteArrayOutputStream();
      Spool.Drained d =
          s.drain(c.client, c.device, new PrintStream(log, true, StandardCharsets.UTF_8));
      assertThat(d.stored()).isEqualTo(1);
      assertThat(d.refused()).isEqualTo(2);
      assertThat(d.complete()).isTrue();
      assertThat(s.waiting()).isEmpty();
      Path why = s.dir().resolve("rejected/a-planted.00000.json.gz.why");
      assertThat(Files.readString(why)).contains("422");
      assertThat(Files.readString(why)).contains("63 bits");
      assertThat(Files.exists(s.dir().resolve("rejected/b-junk.00000.json.gz"))).isTrue();
      // The center never saw the planted part.
      assertThat(c.log()).doesNotContain("planted");
    }
  }

  @Test
  void processesSharingASpoolDeliverEachPartOnce(@TempDir Path dir) throws Exception {
    try (CenterAttackTest.Running c = CenterAttackTest.center(dir)) {
      Path spool = dir.resolve("spool");
      for (int i = 0; i < 12; i++) {
        new Spool(spool)
            .put(
                String.format("p%02d.00000", i),
                CenterAttackTest.gz(
                    CenterAttackTest.part("dev", String.format("shared-%04d", i), "1", 1, 1)));
      }
      ExecutorService pool = Executors.newFixedThreadPool(6);
      List<Future<Spool.Drained>> runs = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        // Each its own client and Spool object, as separate processes would have.
        runs.add(
            pool.submit(
                () ->
                    new Spool(spool)
                        .drain(new CenterClient(c.url, Duration.ofSeconds(30)), c.device, QUIET)));
      }
      int stored = 0;
      int held = 0;
      for (Future<Spool.Drained> f : runs) {
        Spool.Drained d = f.get(2, TimeUnit.MINUTES);
        assertThat(d.problem()).isNull();
        stored += d.stored();
        held += d.held();
      }
      pool.shutdown();
      assertThat(stored).isEqualTo(12);
      assertThat(held).isEqualTo(0);
      assertThat(new Spool(spool).waiting()).isEmpty();
    }
  }

  @Test
  void aRefusedTokenKeepsThePartsAndSaysSo(@TempDir Path dir) throws Exception {
    try (CenterAttackTest.Running c = CenterAttackTest.center(dir)) {
      Spool s = new Spool(dir.resolve("spool"));
      s.put("a.00000", CenterAttackTest.gz(CenterAttackTest.part("dev", "kept-0001", "1", 1, 1)));
      Spool.Drained d = s.drain(c.client, "acf_wrong", QUIET);
      assertThat(d.problem()).contains("the center refused the token (401");
      assertThat(d.left()).isEqualTo(1);
      assertThat(s.waiting()).hasSize(1);
    }
  }
}
