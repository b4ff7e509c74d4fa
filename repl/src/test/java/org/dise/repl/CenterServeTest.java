package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.dise.repl.common.ExitStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code acf center serve} finds its port taken before it touches the store; {@code acf center gc}
 * and {@code --retain} take an age and drop what is older.
 */
class CenterServeTest {
  @Test
  void gcAndServeRetainSayWhatTheyDroppedAlike() {
    String said = CenterCommand.dropped(new org.dise.center.Store.Collected(2, 7, 3), 0);
    assertThat(said)
        .isEqualTo("dropped 2 part(s) received before 1970-01-01T00:00:00Z (7 profile row(s)); 3");
  }

  @Test
  void aTakenPortIsNamedAndNoStoreIsCreated(@TempDir Path dir) throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      int port = taken.getLocalPort();
      Path db = dir.resolve("fresh/center.db");
      ConfigCommandTest.Result r =
          ConfigCommandTest.acf(
              "center", "serve", "--port", Integer.toString(port), "--store", "sqlite:" + db);
      assertThat(r.status()).isNotEqualTo(0);
      assertThat(r.stderr())
          .contains("cannot listen on 127.0.0.1:" + port + ": port " + port + " is in use");
      assertThat(r.stderr()).doesNotContain("Exception");
      assertThat(r.stdout()).doesNotContain("listening on");
      // Neither the store's file nor its directory was created.
      assertThat(Files.exists(db.getParent())).isFalse();
    }
  }

  @Test
  void centerGcDropsWhatIsOlderThanTheAgeAndRefusesBadAges(@TempDir Path dir) throws Exception {
    Path db = dir.resolve("center.db");
    try (org.dise.center.Store s =
        org.dise.center.Store.open(org.dise.center.StoreUrl.parse("sqlite:" + db), 1)) {
      long[] now = {System.currentTimeMillis() - java.time.Duration.ofDays(3).toMillis()};
      s.clock(() -> now[0]);
      s.ingest(
          org.dise.center.LoadTest.part("old", 0, 5, new java.util.SplittableRandom(1)), 10, 25);
      now[0] = System.currentTimeMillis();
      s.ingest(
          org.dise.center.LoadTest.part("new", 0, 5, new java.util.SplittableRandom(2)), 10, 25);
    }
    ConfigCommandTest.Result gc =
        ConfigCommandTest.acf("center", "gc", "--retain", "2d", "--store", "sqlite:" + db);
    assertThat(gc.status()).isEqualTo(0);
    assertThat(gc.stdout()).contains("dropped 1 part(s) received before");
    assertThat(gc.stdout()).contains("1 part(s) kept");
    ConfigCommandTest.Result again =
        ConfigCommandTest.acf("center", "gc", "--retain", "2d", "--store", "sqlite:" + db);
    assertThat(again.stdout()).contains("dropped 0 part(s)");
    for (String bad : new String[] {"0d", "-1d", "30", "2w", "99999999999999d", "999999999d"}) {
      ConfigCommandTest.Result r =
          ConfigCommandTest.acf("center", "gc", "--retain", bad, "--store", "sqlite:" + db);
      assertThat(r.status()).isEqualTo(ExitStatus.USAGE);
      assertThat(r.stderr()).contains("90s, 30m, 2h or 30d");
      ConfigCommandTest.Result serve =
          ConfigCommandTest.acf(
              "center", "serve", "--port", "0", "--retain", bad, "--store", "sqlite:" + db);
      assertThat(serve.status()).isEqualTo(ExitStatus.USAGE);
    }
  }
}
