package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.dise.center.CenterClient;
import org.dise.center.LoadTest;
import org.dise.center.ProfileMerge;
import org.dise.center.Store;
import org.dise.center.StoreUrl;
import org.dise.center.Upload;
import org.dise.center.UploadCodec;
import org.dise.runtime.sink.ProfileTable;
import org.dise.testsupport.ExternalTool;
import org.dise.testsupport.TestStores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several centers on one PostgreSQL behind a load balancer (issue 30): two {@code acf center serve}
 * processes behind nginx on loopback, devices uploading through nginx, one center killed ({@code
 * kill -9}) mid-load. Nothing is lost or counted twice, the same part sent to both centers is held
 * once, both answer the same phase feedback, and the survivor answers queries.
 */
class MultiCenterTest {
  static final int DEVICES = 6;
  static final int PARTS = 20;

  /** {@code acf center serve} in its own JVM; its URL once it listens. */
  record Center(Process process, String url) {}

  static Center serve(String store, Path log) throws IOException {
    List<String> cmd =
        AcfJvm.command(
            List.of(), "center", "serve", "--port", "0", "--threads", "4", "--store", store);
    Process p =
        new ProcessBuilder(cmd)
            .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start();
    BufferedReader out =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    String line = out.readLine();
    if (line == null || !line.startsWith("listening on ")) {
      p.destroyForcibly();
      throw new IOException("center did not start: " + line + "\n" + Files.readString(log));
    }
    return new Center(p, line.substring("listening on ".length()).trim());
  }

  static String nginx() {
    for (String c : List.of("/usr/sbin/nginx", "/usr/bin/nginx")) {
      if (Files.isExecutable(Path.of(c))) {
        return c;
      }
    }
    return ExternalTool.missing("nginx", "-v") == null ? "nginx" : null;
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /**
   * nginx in front of {@code centers}, retrying a failed upload on the other (ingest is
   * idempotent).
   */
  static Process balancer(String nginx, Path dir, int port, List<Center> centers) throws Exception {
    Files.createDirectories(dir.resolve("tmp"));
    StringBuilder upstream = new StringBuilder();
    for (Center c : centers) {
      upstream
          .append("    server ")
          .append(c.url().replaceFirst("^http://", ""))
          .append(" max_fails=1 fail_timeout=10s;\n");
    }
    String t = dir.resolve("tmp").toString();
    String conf =
        "daemon off;\nworker_processes 1;\npid "
            + dir.resolve("nginx.pid")
            + ";\nerror_log "
            + dir.resolve("error.log")
            + ";\nevents { worker_connections 512; }\nhttp {\n  access_log off;\n"
            + "  client_body_temp_path "
            + t
            + ";\n  proxy_temp_path "
            + t
            + ";\n  fastcgi_temp_path "
            + t
            + ";\n  uwsgi_temp_path "
            + t
            + ";\n  scgi_temp_path "
            + t
            + ";\n  upstream centers {\n"
            + upstream
            + "    keepalive 16;\n  }\n  server {\n    listen 127.0.0.1:"
            + port
            + ";\n    client_max_body_size 8m;\n    location /v1/ {\n"
            + "      proxy_pass http://centers;\n      proxy_http_version 1.1;\n"
            + "      proxy_set_header Connection \"\";\n"
            + "      proxy_next_upstream error timeout http_502 http_503 non_idempotent;\n"
            + "      proxy_connect_timeout 2s;\n      proxy_read_timeout 20s;\n    }\n  }\n}\n";
    Path file = dir.resolve("nginx.conf");
    Files.writeString(file, conf);
    Process p =
        new ProcessBuilder(nginx, "-p", dir.toString(), "-c", file.toString())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("nginx.out").toFile())
            .start();
    for (int i = 0; i < 100; i++) {
      try (Socket s = new Socket("127.0.0.1", port)) {
        return p;
      } catch (IOException e) {
        if (!p.isAlive()) {
          throw new IOException(
              "nginx did not start: " + Files.readString(dir.resolve("nginx.out")));
        }
        Thread.sleep(50);
      }
    }
    p.destroyForcibly();
    throw new IOException("nginx did not listen on " + port);
  }

  @Test
  void twoCentersBehindNginxLoseNothingWhenOneIsKilled(@TempDir Path dir) throws Exception {
    String url = TestStores.fresh("postgresql", dir);
    if (url == null) {
      System.out.println("skipped: the multi-center test needs PostgreSQL (ACF_TEST_POSTGRES)");
    }
    assumeTrue(url != null, "no PostgreSQL server for this test");
    String nginx = nginx();
    if (nginx == null) {
      System.out.println("skipped: the multi-center test needs nginx (apt-get install nginx)");
    }
    assumeTrue(nginx != null, "no nginx");

    List<String> tokens = new ArrayList<>();
    String reader;
    try (Store s = Store.open(StoreUrl.parse(url), 1)) {
      for (int d = 0; d < DEVICES; d++) {
        tokens.add(s.addToken("dev" + d));
      }
      reader = s.addReadToken("analyst");
    }
    List<Center> centers = new ArrayList<>();
    Process lb = null;
    try {
      Path log = dir.resolve("centers.log");
      centers.add(serve(url, log));
      centers.add(serve(url, log));
      int port = freePort();
      lb = balancer(nginx, Files.createDirectories(dir.resolve("nginx")), port, centers);
      String front = "http://127.0.0.1:" + port;
      CenterClient a = new CenterClient(centers.get(0).url(), Duration.ofSeconds(20));
      CenterClient b = new CenterClient(centers.get(1).url(), Duration.ofSeconds(20));

      // The same part sent to each center directly: stored once, held the second time.
      Upload twice = LoadTest.part("dev0", 999, 10, new SplittableRandom(99));
      byte[] twiceBody = UploadCodec.gzip(UploadCodec.json(twice));
      assertThat(a.upload(twiceBody, tokens.get(0)).outcome())
          .isEqualTo(CenterClient.Outcome.STORED);
      assertThat(b.upload(twiceBody, tokens.get(0)).outcome()).isEqualTo(CenterClient.Outcome.HELD);
      // Phase feedback is the database's: both centers answer the same.
      String phases = "/v1/programs/" + twice.programSha256() + "/phases";
      assertThat(b.get(phases, tokens.get(1))).isEqualTo(a.get(phases, tokens.get(1)));

      // Devices upload through nginx; center 0 is killed after a third of the parts.
      List<Upload> sent = new ArrayList<>(List.of(twice));
      List<List<byte[]>> bodies = new ArrayList<>();
      for (int d = 0; d < DEVICES; d++) {
        List<byte[]> mine = new ArrayList<>();
        for (int p = 0; p < PARTS; p++) {
          Upload u = LoadTest.part("dev" + d, p, 20, new SplittableRandom(31L * d + p));
          sent.add(u);
          mine.add(UploadCodec.gzip(UploadCodec.json(u)));
        }
        bodies.add(mine);
      }
      CenterClient viaNginx = new CenterClient(front, Duration.ofSeconds(20));
      AtomicInteger delivered = new AtomicInteger();
      AtomicInteger held = new AtomicInteger();
      AtomicInteger retries = new AtomicInteger();
      List<String> refused = java.util.Collections.synchronizedList(new ArrayList<>());
      List<Thread> threads = new ArrayList<>();
      for (int d = 0; d < DEVICES; d++) {
        int dev = d;
        Thread t =
            new Thread(
                () -> {
                  for (byte[] body : bodies.get(dev)) {
                    // As a device's spool does: a part is sent until the center has it.
                    for (int attempt = 0; ; attempt++) {
                      CenterClient.Sent r = viaNginx.upload(body, tokens.get(dev));
                      if (r.outcome() == CenterClient.Outcome.STORED
                          || r.outcome() == CenterClient.Outcome.HELD) {
                        if (r.outcome() == CenterClient.Outcome.HELD) {
                          held.incrementAndGet();
                        }
                        delivered.incrementAndGet();
                        break;
                      }
                      if (r.status() >= 400 && r.status() < 500 && r.status() != 408) {
                        refused.add(r.status() + " " + r.message());
                        break;
                      }
                      retries.incrementAndGet();
                      if (attempt > 200) {
                        refused.add("gave up: " + r.status() + " " + r.message());
                        break;
                      }
                      try {
                        Thread.sleep(50);
                      } catch (InterruptedException e) {
                        return;
                      }
                    }
                  }
                },
                "device-" + d);
        threads.add(t);
        t.start();
      }
      while (delivered.get() < DEVICES * PARTS / 3 && threads.stream().anyMatch(Thread::isAlive)) {
        Thread.sleep(5);
      }
      centers.get(0).process().destroyForcibly(); // SIGKILL: no shutdown hook runs
      int atKill = delivered.get();
      for (Thread t : threads) {
        t.join(120_000);
      }
      System.out.printf(
          "multi-center: %d parts through nginx, center 0 killed after %d; %d retries, %d held%n",
          DEVICES * PARTS, atKill, retries.get(), held.get());
      assertThat(refused).isEmpty();
      assertThat(delivered.get()).isEqualTo(DEVICES * PARTS);
      assertThat(centers.get(0).process().isAlive()).isFalse();

      // Exactly every part once, and the merged profile is the sum of what was sent.
      try (Store s = Store.open(StoreUrl.parse(url), 1)) {
        assertThat(s.status().parts()).isEqualTo(DEVICES * PARTS + 1);
      }
      String sink = twice.profiles().get(0).sink();
      List<ProfileTable> tables = new ArrayList<>();
      for (Upload u : sent) {
        tables.add(u.profiles().get(0).table());
      }
      ProfileTable expected = ProfileMerge.merge(tables, new boolean[1]);
      JsonNode merged = viaNginx.get("/v1/profiles?sink=" + sink, reader);
      long total = 0;
      int w = expected.header().indexOf(expected.weight());
      for (List<String> row : expected.rows()) {
        total += Long.parseLong(row.get(w));
      }
      assertThat(merged.path("total").asLong()).isEqualTo(total);
      assertThat(merged.path("rows").size()).isEqualTo(expected.rows().size());
      assertThat(viaNginx.get("/v1/status", reader).path("parts").asLong())
          .isEqualTo(DEVICES * PARTS + 1);
    } finally {
      if (lb != null) {
        lb.destroy();
        lb.waitFor();
      }
      for (Center c : centers) {
        c.process().destroyForcibly();
        c.process().waitFor();
      }
    }
  }
}
