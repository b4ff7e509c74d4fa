package org.dise.center;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.dise.runtime.sink.ProfileTable;
import org.dise.testsupport.OnEveryStore;
import org.dise.testsupport.TestStores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The center probed as an attacker would (issue 31), each probe a test: slowloris, odd methods, the
 * server's own errors, oversized bodies, poisoned numbers on both stores, another device's upload
 * id, reads without a token, log forging, versions, the store file's mode, a failing store,
 * connections per client, HTTP/2 cleartext and TLS. The memory probes (gzip bombs against a 256 MB
 * heap) are in {@link CenterMemoryTest}.
 */
class CenterAttackTest {
  static final String SHA = "ab".repeat(32);
  static final HttpClient HTTP =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(10))
          .build();

  /** A center on a fresh store with one device token ({@code dev}) and one read token. */
  static final class Running implements AutoCloseable {
    final CenterServer center;
    final ByteArrayOutputStream log = new ByteArrayOutputStream();
    final String device;
    final String reader;
    final String url;
    final CenterClient client;

    Running(String store, CenterServer.Settings settings) throws Exception {
      Store s = Store.open(StoreUrl.parse(store), 4);
      device = s.addToken("dev");
      s.addToken("other");
      reader = s.addReadToken("analyst");
      center =
          CenterServer.start(
              s, settings.withPort(0), new PrintStream(log, true, StandardCharsets.UTF_8));
      url = center.url();
      client = new CenterClient(url, Duration.ofSeconds(30));
    }

    String log() {
      return log.toString(StandardCharsets.UTF_8);
    }

    String token(String name) throws StoreException {
      return center.store().addToken(name);
    }

    @Override
    public void close() {
      center.close();
    }
  }

  static Running center(Path dir) throws Exception {
    return center(dir, CenterServer.Settings.defaults());
  }

  /** A center on a fresh SQLite store in {@code dir}. */
  static Running center(Path dir, CenterServer.Settings settings) throws Exception {
    return new Running("sqlite:" + dir.resolve("center.db"), settings);
  }

  /** One part of {@code device}: a two-row call-pair profile, one phase with one weight. */
  static Upload part(
      String device, String id, String rowWeight, long instructions, long phaseWeight) {
    ProfileTable t =
        new ProfileTable(
            List.of("pair", "count"),
            List.of(List.of("0x10|0x20", rowWeight), List.of("0x30|0x40", "5")),
            List.of("pair"),
            "count");
    double[] sig = new double[8];
    sig[0] = 1;
    return new Upload(
        id,
        0,
        true,
        device,
        "prog",
        SHA,
        "cd".repeat(32),
        new Upload.Figures(1, 1, instructions, instructions, 1000, 0),
        List.of(new Upload.SinkProfile("S", t)),
        List.of(
            new Upload.PhaseReport(
                0, sig, 1, instructions, 1, instructions, Map.of("S", Map.of("k", phaseWeight)))),
        List.of(0));
  }

  static byte[] gz(Upload u) {
    return UploadCodec.gzip(UploadCodec.json(u));
  }

  static byte[] gz(String json) {
    return UploadCodec.gzip(json.getBytes(StandardCharsets.UTF_8));
  }

  static String json(Upload u) {
    return new String(UploadCodec.json(u), StandardCharsets.UTF_8);
  }

  static HttpResponse<String> request(String url, String method, String path, String token)
      throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(url + path))
            .timeout(Duration.ofSeconds(30))
            .method(method, HttpRequest.BodyPublishers.noBody());
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** What every answer must be: JSON, with no HTML, SQL or Java exception in it. */
  static JsonNode clean(HttpResponse<String> r) throws IOException {
    assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
    assertThat(r.body()).doesNotContain("<html");
    assertThat(r.body()).doesNotContainMatch("Exception|SELECT|INSERT|UPDATE |org\\.|java\\.");
    return UploadCodec.JSON.readTree(r.body());
  }

  /** A connection to the center at {@code url} whose reads wait at most 30 s. */
  static Socket connect(String url) throws IOException {
    URI u = URI.create(url);
    Socket s = new Socket(u.getHost(), u.getPort());
    s.setSoTimeout(30_000);
    return s;
  }

  /** Raw bytes on a socket and the answer's first bytes (up to the header end or close). */
  static String raw(String url, String request) throws IOException {
    try (Socket s = connect(url)) {
      s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
      s.getOutputStream().flush();
      return new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void slowlorisConnectionsLeaveHealthAnswering(@TempDir Path dir) throws Exception {
    try (Running c = center(dir)) {
      URI u = URI.create(c.url);
      List<Socket> slow = new ArrayList<>();
      try {
        // More than --threads (16): each sends a request line and one header, then nothing.
        for (int i = 0; i < 24; i++) {
          Socket s = new Socket(u.getHost(), u.getPort());
          OutputStream o = s.getOutputStream();
          o.write("GET /v1/health HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII));
          o.flush();
          slow.add(s);
        }
        long t0 = System.nanoTime();
        HttpResponse<String> r =
            HTTP.send(
                HttpRequest.newBuilder(URI.create(c.url + "/v1/health"))
                    .timeout(Duration.ofSeconds(10))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        System.out.printf(
            "slowloris: /v1/health answered in %.1f ms beside 24 stalled connections%n",
            (System.nanoTime() - t0) / 1e6);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(clean(r).path("ok").asBoolean()).isTrue();
      } finally {
        for (Socket s : slow) {
          s.close();
        }
      }
    }
  }

  /** A 2 s idle timeout, which a header byte every 300 ms never reaches. */
  static final CenterServer.Settings IDLE_2S =
      CenterServer.Settings.defaults()
          .withLimits(CenterServer.Limits.defaults().withIdleTimeout(Duration.ofSeconds(2)));

  @Test
  void aTrickledRequestIsClosedAtTheHeaderDeadline(@TempDir Path dir) throws Exception {
    try (Running c = center(dir, IDLE_2S);
        Socket k = connect(c.url)) {
      OutputStream o = k.getOutputStream();
      o.write("GET /v1/health HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
      // A header byte every 300 ms: never idle, never done. The center closes it.
      assertThat(closedWhileTrickling(k)).isTrue();
    }
  }

  @Test
  void aTrickledLaterKeepAliveRequestIsClosedAtTheHeaderDeadline(@TempDir Path dir)
      throws Exception {
    try (Running c = center(dir, IDLE_2S);
        Socket k = connect(c.url)) {
      OutputStream o = k.getOutputStream();
      InputStream in = k.getInputStream();
      // Two whole requests first, so the connection is a kept-alive one in good standing.
      for (int i = 0; i < 2; i++) {
        o.write("HEAD /v1/health HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        o.flush();
        assertThat(readHead(in)).startsWith("HTTP/1.1 200");
      }
      o.write("GET /v1/health HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
      // Then the third's headers a byte every 300 ms, each within the 2 s idle timeout: only a
      // deadline on the headers themselves ends it.
      long t0 = System.nanoTime();
      boolean closed = closedWhileTrickling(k);
      System.out.printf(
          "keep-alive trickle: closed after %.1f s%n", (System.nanoTime() - t0) / 1e9);
      assertThat(closed).isTrue();
    }
  }

  /** An answer's status line and headers, read up to the blank line. */
  static String readHead(InputStream in) throws IOException {
    StringBuilder b = new StringBuilder();
    while (!b.toString().endsWith("\r\n\r\n")) {
      int ch = in.read();
      if (ch < 0) {
        throw new IOException("closed after: " + b);
      }
      b.append((char) ch);
    }
    return b.toString();
  }

  /**
   * Whether the center closes {@code k} while a header byte comes every 300 ms (never idle, never
   * done), within 30 s.
   */
  static boolean closedWhileTrickling(Socket k) throws IOException, InterruptedException {
    OutputStream o = k.getOutputStream();
    for (int i = 0; i < 100; i++) {
      try {
        o.write('X');
        o.flush();
        Thread.sleep(300);
        if (k.getInputStream().available() == 0 && isClosed(k)) {
          return true;
        }
      } catch (IOException e) {
        return true;
      }
    }
    return false;
  }

  /** Whether the peer closed {@code k} (a read returns end of stream or fails). */
  static boolean isClosed(Socket k) throws IOException {
    k.setSoTimeout(1);
    try {
      return k.getInputStream().read() < 0;
    } catch (java.net.SocketTimeoutException e) {
      return false;
    } catch (IOException e) {
      return true;
    } finally {
      k.setSoTimeout(30_000);
    }
  }

  @Test
  void healthAnswersGetAndHeadAloneAndOddMethodsGetJson405(@TempDir Path dir) throws Exception {
    try (Running c = center(dir)) {
      assertThat(request(c.url, "HEAD", "/v1/health", null).statusCode()).isEqualTo(200);
      for (String m : List.of("DELETE", "TRACE", "PUT", "OPTIONS", "POST")) {
        HttpResponse<String> r = request(c.url, m, "/v1/health", null);
        assertThat(r.statusCode()).isEqualTo(405);
        assertThat(clean(r).path("error").asText()).contains("use GET or HEAD here, not " + m);
        assertThat(r.headers().firstValue("Allow")).hasValue("GET, HEAD");
      }
      HttpResponse<String> r = request(c.url, "DELETE", "/v1/uploads", c.device);
      assertThat(r.statusCode()).isEqualTo(405);
      clean(r);
      HttpResponse<String> none = request(c.url, "GET", "/nope", null);
      assertThat(none.statusCode()).isEqualTo(404);
      clean(none);
    }
  }

  @Test
  void theServersOwnErrorsAreJson(@TempDir Path dir) throws Exception {
    try (Running c = center(dir)) {
      for (String bad :
          List.of(
              "GARBAGE\r\n\r\n",
              "GET /v1/health HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n",
              "GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(20_000) + "\r\n\r\n",
              "GET /v1/pro%zzfiles HTTP/1.1\r\nHost: x\r\n\r\n",
              "POST /v1/uploads HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n"
                  + "Transfer-Encoding: chunked\r\n\r\n")) {
        String answer = raw(c.url, bad);
        assertThat(answer).startsWith("HTTP/1.1 4");
        assertThat(answer).containsMatch("(?i)content-type: application/json");
        assertThat(answer).doesNotContain("<html");
        assertThat(answer).doesNotContainMatch("Exception|org\\.eclipse|java\\.");
        assertThat(answer).contains("\"error\"");
      }
    }
  }

  @Test
  void anOversizedUploadIsRefusedBeforeItsBodyIsRead(@TempDir Path dir) throws Exception {
    try (Running c = center(dir)) {
      // A Content-Length over the limit and no body at all: the answer comes without one.
      String answer =
          raw(
              c.url,
              "POST /v1/uploads HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                  + c.device
                  + "\r\nContent-Length: 999999999999\r\nConnection: close\r\n\r\n");
      assertThat(answer).startsWith("HTTP/1.1 413");
      assertThat(answer).contains("over the limit of 8388608");
      // A chunked body (no length) over the limit: counted while read.
      CenterClient.Sent big = c.client.upload(new byte[9 << 20], c.device);
      assertThat(big.status()).isEqualTo(413);
    }
  }

  @Test
  void aDrippedBodyIsCutOff(@TempDir Path dir) throws Exception {
    try (Running c = center(dir)) {
      byte[] body = gz(part("dev", "drip-0001", "7", 10, 3));
      try (Socket s = connect(c.url)) {
        OutputStream o = s.getOutputStream();
        o.write(
            ("POST /v1/uploads HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                    + c.device
                    + "\r\nContent-Length: "
                    + body.length
                    + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        // A byte every 200 ms: far under 1 KiB/s. The center stops reading after its grace.
        StringBuilder answer = new StringBuilder();
        InputStream in = s.getInputStream();
        for (int i = 0; i < body.length && answer.length() == 0; i++) {
          o.write(body[i]);
          o.flush();
          Thread.sleep(200);
          while (in.available() > 0) {
            answer.append((char) in.read());
          }
        }
        assertThat(answer.toString()).startsWith("HTTP/1.1 408");
      }
      assertThat(c.log()).contains("slower than 1024 bytes per second");
    }
  }

  @OnEveryStore
  void poisonedNumbersAre422AndLeaveEveryQueryWorking(String kind, @TempDir Path dir)
      throws Exception {
    String store = TestStores.freshOrSkip(kind, dir);
    try (Running c = new Running(store, CenterServer.Settings.defaults())) {
      assertThat(c.client.upload(gz(part("dev", "good-0001", "7", 10, 3)), c.device).status())
          .isEqualTo(201);
      // A row weight past 63 bits, a negative one, a negative figure, a fraction: 422 each.
      String base = json(part("dev", "poison-01", "7", 10, 3));
      for (String poisoned :
          List.of(
              base.replace("\"0x10|0x20\",\"7\"", "\"0x10|0x20\",\"9999999999999999999\""),
              base.replace("\"0x10|0x20\",\"7\"", "\"0x10|0x20\",\"-999000\""),
              base.replace("\"instructions\":10,", "\"instructions\":-10,"),
              base.replace("\"instructions\":10,", "\"instructions\":99999999999999999999,"),
              base.replace("\"k\":3", "\"k\":-5"),
              base.replace("\"k\":3", "\"k\":2.5"))) {
        assertThat(poisoned).isNotEqualTo(base);
        CenterClient.Sent s = c.client.upload(gz(poisoned), c.device);
        assertThat(s.status()).isEqualTo(422);
        assertThat(s.outcome()).isEqualTo(CenterClient.Outcome.REFUSED);
      }
      // Instruction totals: two parts of 2^62 fit, a third would pass 2^63-1: 422, not 503.
      long big = 1L << 62;
      assertThat(c.client.upload(gz(part("dev", "big-00001", "1", big - 20, 1)), c.device).status())
          .isEqualTo(201);
      CenterClient.Sent third =
          c.client.upload(gz(part("dev", "big-00002", "1", big + 20, 1)), c.device);
      assertThat(third.status()).isEqualTo(422);
      assertThat(third.message()).contains("past 2^63-1");
      // A phase weight of 2^63-1 fits once; one more on the same key is refused, not a 503.
      assertThat(
              c.client
                  .upload(gz(part("dev", "max-00001", "1", 1, Long.MAX_VALUE - 10)), c.device)
                  .status())
          .isEqualTo(201);
      CenterClient.Sent over = c.client.upload(gz(part("dev", "max-00002", "1", 1, 9)), c.device);
      assertThat(over.status()).isEqualTo(422);
      assertThat(over.message()).contains("weight of k");
      // Row weights merged past 2^63-1 saturate and say so.
      String hot = Long.toString(Long.MAX_VALUE - 5);
      assertThat(c.client.upload(gz(part("dev", "hot-00001", hot, 1, 0)), c.device).status())
          .isEqualTo(201);
      // Every query still answers, the status too; nothing echoes SQL.
      HttpResponse<String> profile = request(c.url, "GET", "/v1/profiles?sink=S", c.reader);
      assertThat(profile.statusCode()).isEqualTo(200);
      JsonNode p = clean(profile);
      assertThat(p.path("saturated").asBoolean()).isTrue();
      assertThat(p.path("rows").get(0).path("count").asLong()).isEqualTo(Long.MAX_VALUE);
      HttpResponse<String> status = request(c.url, "GET", "/v1/status", c.reader);
      assertThat(status.statusCode()).isEqualTo(200);
      JsonNode st = clean(status);
      assertThat(st.path("parts").asLong()).isEqualTo(4);
      assertThat(st.path("programs").get(0).path("instructions").asLong())
          .isEqualTo(10 + big - 20 + 1 + 1);
      HttpResponse<String> est =
          request(c.url, "GET", "/v1/programs/" + SHA + "/estimate?sink=S", c.reader);
      assertThat(est.statusCode()).isEqualTo(200);
      clean(est);
    }
  }

  @OnEveryStore
  void anotherDevicesUploadIdIsANewUploadAndRevealsNothing(String kind, @TempDir Path dir)
      throws Exception {
    String store = TestStores.freshOrSkip(kind, dir);
    try (Running c = new Running(store, CenterServer.Settings.defaults())) {
      String other = c.token("other");
      assertThat(c.client.upload(gz(part("dev", "shared-id-1", "7", 10, 3)), c.device).status())
          .isEqualTo(201);
      // The same id from another device: stored as its own upload, answered as any new one.
      CenterClient.Sent b = c.client.upload(gz(part("other", "shared-id-1", "7", 10, 3)), other);
      assertThat(b.status()).isEqualTo(201);
      // Both count: 7 + 7 on the shared row.
      JsonNode p = clean(request(c.url, "GET", "/v1/profiles?sink=S", c.reader));
      assertThat(p.path("rows").get(0).path("count").asLong()).isEqualTo(14);
      // A retry by the device itself is held once.
      assertThat(c.client.upload(gz(part("other", "shared-id-1", "7", 10, 3)), other).status())
          .isEqualTo(200);
    }
  }

  @Test
  void readsNeedAReadToken(@TempDir Path dir) throws Exception {
    try (Running c = center(dir)) {
      c.client.upload(gz(part("dev", "read-0001", "7", 10, 3)), c.device);
      List<String> gets =
          List.of(
              "/v1/profiles?sink=S",
              "/v1/status",
              "/v1/programs/" + SHA + "/estimate?sink=S",
              "/v1/programs/" + SHA + "/phases");
      for (String g : gets) {
        HttpResponse<String> none = request(c.url, "GET", g, null);
        assertThat(none.statusCode()).isEqualTo(401);
        assertThat(clean(none).path("error").asText()).contains("read token");
        assertThat(request(c.url, "GET", g, "acfr_wrong").statusCode()).isEqualTo(401);
        assertThat(request(c.url, "GET", g, c.reader).statusCode()).isEqualTo(200);
      }
      // A device's token may ask for phase feedback, nothing else; a read token may not upload.
      assertThat(request(c.url, "GET", "/v1/status", c.device).statusCode()).isEqualTo(403);
      assertThat(request(c.url, "GET", "/v1/programs/" + SHA + "/phases", c.device).statusCode())
          .isEqualTo(200);
      assertThat(c.client.upload(gz(part("dev", "read-0002", "7", 10, 3)), c.reader).status())
          .isEqualTo(401);
      assertThat(request(c.url, "GET", "/v1/health", null).statusCode()).isEqualTo(200);
    }
    try (Running open =
        new Running(
            "sqlite:" + dir.resolve("open.db"),
            CenterServer.Settings.defaults().withPublicRead(true))) {
      assertThat(request(open.url, "GET", "/v1/status", null).statusCode()).isEqualTo(200);
    }
  }

  @Test
  void badQueriesAre400NotAServerError(@TempDir Path dir) throws Exception {
    try (Running c = center(dir)) {
      c.client.upload(gz(part("dev", "since-001", "7", 10, 3)), c.device);
      for (String since :
          List.of(
              "99999999999999d",
              "9999999999999999999s",
              "99999999999999999999d",
              "%2B1000000000-01-01T00:00:00Z",
              "-1000000000-01-01T00:00:00Z",
              "0000-00-00",
              "yesterday")) {
        HttpResponse<String> r =
            request(c.url, "GET", "/v1/profiles?sink=S&since=" + since, c.reader);
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(clean(r).path("error").asText()).contains("since");
      }
    }
  }

  @Test
  void loggedValuesCannotForgeLines(@TempDir Path dir) throws Exception {
    try (Running c = center(dir)) {
      request(c.url, "GET", "/v1/profiles?sink=a%0Acenter:%20FORGED&since=x%0AFORGED", c.reader);
      request(c.url, "GET", "/v1/no%0AFORGED", null);
      String named =
          json(part("dev", "name-0001", "7", 10, 3)).replace("\"prog\"", "\"p\\nFORGED\"");
      assertThat(c.client.upload(gz(named), c.device).status()).isEqualTo(201);
      for (String line : c.log().split("\n")) {
        assertThat(line).startsWith("center: ");
        assertThat(line).doesNotContainMatch("^FORGED");
      }
      assertThat(c.log()).contains("p\\nFORGED");
    }
  }

  @Test
  void aVersionMustBeTheIntegerOne(@TempDir Path dir) throws Exception {
    try (Running c = center(dir)) {
      String j = json(part("dev", "vers-0001", "7", 10, 3));
      for (String v : List.of("1.5", "1.0", "\"1\"", "4294967297")) {
        CenterClient.Sent s =
            c.client.upload(gz(j.replace("\"version\":1", "\"version\":" + v)), c.device);
        assertThat(s.status()).isAnyOf(400, 415);
      }
      assertThat(c.client.upload(gz(j), c.device).status()).isEqualTo(201);
    }
  }

  @Test
  void theStoreFileIsTheOwnersAlone(@TempDir Path dir) throws Exception {
    try (Running c = center(dir)) {
      assertThat(
              PosixFilePermissions.toString(
                  Files.getPosixFilePermissions(dir.resolve("center.db"))))
          .isEqualTo("rw-------");
    }
  }

  @Test
  void aFailingStoreAnswers503WithoutItsSql(@TempDir Path dir) throws Exception {
    try (Running c = center(dir)) {
      c.client.upload(gz(part("dev", "fail-0001", "7", 10, 3)), c.device);
      try (Connection j = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("center.db"));
          Statement st = j.createStatement()) {
        st.execute("DROP TABLE phase_weights");
      }
      HttpResponse<String> r =
          request(c.url, "GET", "/v1/programs/" + SHA + "/estimate?sink=S", c.reader);
      assertThat(r.statusCode()).isEqualTo(503);
      assertThat(clean(r).path("error").asText()).doesNotContain("phase_weights");
      assertThat(c.log()).contains("phase_weights");
    }
  }

  @Test
  void oneClientCannotTakeEveryConnection(@TempDir Path dir) throws Exception {
    CenterServer.Settings s =
        CenterServer.Settings.defaults()
            .withLimits(CenterServer.Limits.defaults().withConnections(1024, 4));
    try (Running c = center(dir, s)) {
      List<Socket> held = new ArrayList<>();
      try {
        for (int i = 0; i < 4; i++) {
          // Four kept-alive connections, each answered once: the center has counted them.
          Socket k = connect(c.url);
          k.getOutputStream()
              .write(
                  "GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
          StringBuilder answer = new StringBuilder();
          while (!answer.toString().contains("\"upload_version\" : 1\n}")) {
            int b = k.getInputStream().read();
            assertThat(b).isAtLeast(0);
            answer.append((char) b);
          }
          held.add(k);
        }
        // The fifth from the same address is closed without an answer.
        String ok = raw(c.url, "GET /v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertThat(ok).isEmpty();
        held.remove(0).close();
        held.remove(0).close();
        String again = "";
        for (int i = 0; i < 50 && !again.startsWith("HTTP/1.1 200"); i++) {
          Thread.sleep(20); // the center learns of the closes asynchronously
          again = raw(c.url, "GET /v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        }
        assertThat(again).startsWith("HTTP/1.1 200");
      } finally {
        for (Socket k : held) {
          k.close();
        }
      }
    }
  }

  @Test
  void http2CleartextIsServed(@TempDir Path dir) throws Exception {
    try (Running c = center(dir)) {
      HttpClient h2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
      HttpResponse<String> r =
          h2.send(
              HttpRequest.newBuilder(URI.create(c.url + "/v1/health")).build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.version()).isEqualTo(HttpClient.Version.HTTP_2);
    }
  }

  @Test
  void tlsServesWithAPemCertificateAndKey(@TempDir Path dir) throws Exception {
    Path cert = dir.resolve("c.pem");
    Path key = dir.resolve("k.pem");
    int rc;
    try {
      Process p =
          new ProcessBuilder(
                  "openssl",
                  "req",
                  "-x509",
                  "-newkey",
                  "rsa:2048",
                  "-nodes",
                  "-days",
                  "2",
                  "-subj",
                  "/CN=127.0.0.1",
                  "-addext",
                  "subjectAltName=IP:127.0.0.1",
                  "-keyout",
                  key.toString(),
                  "-out",
                  cert.toString())
              .redirectErrorStream(true)
              .start();
      p.getInputStream().readAllBytes();
      rc = p.waitFor();
    } catch (IOException e) {
      rc = -1;
    }
    if (rc != 0) {
      System.out.println("skipped: the TLS test needs openssl to make a certificate");
      assumeTrue(false, "no openssl");
    }
    CenterServer.Settings s =
        CenterServer.Settings.defaults().withTls(new CenterServer.Tls(cert, key));
    try (Running c = center(dir, s)) {
      assertThat(c.url).startsWith("https://");
      java.security.KeyStore trust = java.security.KeyStore.getInstance("PKCS12");
      trust.load(null, null);
      try (InputStream in = Files.newInputStream(cert)) {
        trust.setCertificateEntry(
            "c",
            java.security.cert.CertificateFactory.getInstance("X.509").generateCertificate(in));
      }
      javax.net.ssl.TrustManagerFactory tmf =
          javax.net.ssl.TrustManagerFactory.getInstance(
              javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(trust);
      javax.net.ssl.SSLContext ctx = javax.net.ssl.SSLContext.getInstance("TLS");
      ctx.init(null, tmf.getTrustManagers(), null);
      // ALPN: a client offering h2 gets HTTP/2, one offering only http/1.1 gets that.
      for (HttpClient.Version v : List.of(HttpClient.Version.HTTP_2, HttpClient.Version.HTTP_1_1)) {
        HttpClient https = HttpClient.newBuilder().version(v).sslContext(ctx).build();
        HttpResponse<String> r =
            https.send(
                HttpRequest.newBuilder(URI.create(c.url + "/v1/health")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.version()).isEqualTo(v);
        assertThat(clean(r).path("ok").asBoolean()).isTrue();
      }
      // Plain HTTP on the TLS port gets no answer a client could mistake for the API's.
      assertThat(raw(c.url, "GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n")).doesNotContain("\"ok\"");
    }
  }
}
