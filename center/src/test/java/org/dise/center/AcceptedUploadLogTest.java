package org.dise.center;

import static com.google.common.truth.Truth.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code acf center serve --quiet}: the log drops the line per accepted upload and keeps every
 * refusal, which an operator must see whatever the verbosity; {@code --verbose} adds a line per
 * read.
 */
class AcceptedUploadLogTest {
  @Test
  void quietLogKeepsRefusalsAndDropsAcceptedUploadsAndVerboseAddsReads(@TempDir Path dir)
      throws Exception {
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    PrintStream logs = new PrintStream(log, true, StandardCharsets.UTF_8);
    try (CenterServer center =
        CenterServer.start(
            Store.open(StoreUrl.parse("sqlite:" + dir.resolve("c.db")), 1),
            CenterServer.Settings.defaults().withPort(0).withNoAuth(true),
            logs)) {
      CenterClient client = new CenterClient(center.url(), Duration.ofSeconds(5));
      byte[] first =
          UploadCodec.gzip(UploadCodec.json(LoadTest.part("dev1", 0, 3, new SplittableRandom(1))));
      client.upload(first, null);
      assertThat(log.toString(StandardCharsets.UTF_8)).contains("201 upload");

      log.reset();
      center.logAccepted(false);
      byte[] second =
          UploadCodec.gzip(UploadCodec.json(LoadTest.part("dev1", 1, 3, new SplittableRandom(2))));
      client.upload(second, null);
      assertThat(center.store().status().uploads()).isEqualTo(2);
      assertThat(log.toString(StandardCharsets.UTF_8)).isEmpty();

      // Not gzip: refused, and the refusal is logged although accepted uploads are not.
      try {
        client.upload("not gzip".getBytes(StandardCharsets.UTF_8), null);
      } catch (RuntimeException expected) {
        // the client may report the refusal as an exception; the log is what is tested
      }
      assertThat(log.toString(StandardCharsets.UTF_8)).containsMatch("center: \\S+ 4\\d\\d POST");

      // Reads are not logged unless asked for (acf center serve --verbose).
      log.reset();
      client.get("/v1/status");
      assertThat(log.toString(StandardCharsets.UTF_8)).isEmpty();
      center.logReads(true);
      client.get("/v1/status");
      assertThat(log.toString(StandardCharsets.UTF_8))
          .containsMatch("center: \\S+ 200 GET /v1/status from ");
    }
  }
}
