package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code acf center serve} finds its port taken before it touches the store. */
class CenterServeTest {
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
}
