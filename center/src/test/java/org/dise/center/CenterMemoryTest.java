package org.dise.center;

import static com.google.common.truth.Truth.assertThat;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Gzip bombs against a center in its own JVM with a 256 MB heap (issue 31): a 508 KB part that
 * inflates to half a gigabyte of small rows, one alone and four at once, a huge string and a sea of
 * whitespace are each refused (413) while they are read, and the center still answers and stores.
 */
class CenterMemoryTest {
  /** Starts a center in this JVM (for the child process): prints its URL and a device token. */
  public static void main(String[] args) throws Exception {
    Store s = Store.open(StoreUrl.parse("sqlite:" + args[0]), 1);
    String token = s.addToken("dev");
    CenterServer c =
        CenterServer.start(s, CenterServer.Settings.defaults().withPort(0), System.err);
    System.out.println(c.url() + " " + token + " " + c.decodingPermits());
    System.out.flush();
    System.in.read(); // until the test closes our stdin
    c.close();
  }

  /** A valid part's opening, then {@code rows} rows of two one-letter cells, gzip'd. */
  static byte[] rowsBomb(long targetBytes) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream z = new GZIPOutputStream(out)) {
      z.write(
          ("{\"version\":1,\"upload_id\":\"bomb-0001\",\"part\":0,\"device\":\"dev\",\"profiles\":"
                  + "[{\"sink\":\"S\",\"columns\":[\"a\",\"n\"],\"key\":[\"a\"],\"weight\":\"n\","
                  + "\"rows\":[")
              .getBytes(StandardCharsets.US_ASCII));
      byte[] row = "[\"x\",\"1\"],".repeat(6400).getBytes(StandardCharsets.US_ASCII);
      for (long n = 0; n < targetBytes; n += row.length) {
        z.write(row);
      }
      z.write("[\"x\",\"1\"]]}]}".getBytes(StandardCharsets.US_ASCII));
    }
    return out.toByteArray();
  }

  static byte[] filled(String head, char fill, long bytes) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream z = new GZIPOutputStream(out)) {
      z.write(head.getBytes(StandardCharsets.US_ASCII));
      byte[] block = String.valueOf(fill).repeat(1 << 16).getBytes(StandardCharsets.US_ASCII);
      for (long n = 0; n < bytes; n += block.length) {
        z.write(block);
      }
    }
    return out.toByteArray();
  }

  @Test
  void gzipBombsAloneAndFourAtOnceLeaveA256MbCenterAnswering(@TempDir Path dir) throws Exception {
    byte[] bomb = rowsBomb(250L << 20);
    System.out.printf("memory: rows bomb of %,d bytes (inflates to ~250 MB)%n", bomb.length);
    assertThat(bomb.length).isLessThan(700_000);
    String java = ProcessHandle.current().info().command().orElse("java");
    Process p =
        new ProcessBuilder(
                java,
                "-Xmx256m",
                "-XX:+ExitOnOutOfMemoryError",
                "-cp",
                System.getProperty("java.class.path"),
                CenterMemoryTest.class.getName(),
                dir.resolve("center.db").toString())
            .redirectError(dir.resolve("center.log").toFile())
            .start();
    try {
      BufferedReader r =
          new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      String[] first = r.readLine().split(" ");
      String url = first[0];
      String token = first[1];
      System.out.println("memory: center with -Xmx256m decodes " + first[2] + " upload(s) at once");
      CenterClient client = new CenterClient(url, Duration.ofSeconds(120));
      CenterClient.Sent one = client.upload(bomb, token);
      assertThat(one.status()).isEqualTo(413);
      ExecutorService pool = Executors.newFixedThreadPool(4);
      List<Future<CenterClient.Sent>> four = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        four.add(pool.submit(() -> client.upload(bomb, token)));
      }
      for (Future<CenterClient.Sent> f : four) {
        assertThat(f.get(5, TimeUnit.MINUTES).status()).isEqualTo(413);
      }
      pool.shutdown();
      // A single string of 100 MB and 300 MB of whitespace: refused too.
      assertThat(
              client
                  .upload(filled("{\"version\":1,\"upload_id\":\"", 'a', 100L << 20), token)
                  .status())
          .isEqualTo(413);
      assertThat(client.upload(filled("{\"version\":1,", ' ', 300L << 20), token).status())
          .isEqualTo(413);
      // Still alive, still answering, still storing.
      HttpResponse<String> health =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(url + "/v1/health"))
                      .timeout(Duration.ofSeconds(30))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(health.statusCode()).isEqualTo(200);
      Upload good = CenterAttackTest.part("dev", "after-bomb", "7", 10, 3);
      assertThat(client.upload(CenterAttackTest.gz(good), token).status()).isEqualTo(201);
      assertThat(p.isAlive()).isTrue();
    } finally {
      p.getOutputStream().close();
      if (!p.waitFor(20, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    }
    String log = Files.readString(dir.resolve("center.log"));
    assertThat(log).doesNotContain("OutOfMemoryError");
    assertThat(log).contains("413 POST /v1/uploads");
  }
}
