package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.dise.center.CenterClient;
import org.dise.center.CenterServer;
import org.dise.center.Store;
import org.dise.center.StoreUrl;
import org.dise.center.UploadCodec;
import org.dise.repl.common.ProfileFormats;
import org.dise.repl.common.RunDirectory;
import org.dise.runtime.sink.ProfileTable;
import org.dise.testsupport.RepositoryRoot;
import org.dise.testsupport.TestStores;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The end-to-end scenario through the commands a user types, on each store: three devices
 * report to a center, whose merged call-pair profile is exactly three times one device's; a fourth
 * device runs while the center is down and spools; after a restart {@code acf upload} delivers it
 * (four times); a retried part is counted once; a bad token, a truncated body, a wrong version, an
 * oversized body and another device's token are refused with their status and leave the store as it
 * was.
 */
class CenterEndToEndTest {
  static final Path ROOT = RepositoryRoot.path();
  static final String ACF = ROOT.resolve("examples/acf/hot_call_pairs.acf").toString();
  static final String PROGRAM = ROOT.resolve("integration-tests/src/test/c/bin/calls").toString();
  static final String SINK = "CallPair_handler";

  static List<String> stores() {
    return TestStores.kinds();
  }

  static CenterServer start(String store, ByteArrayOutputStream log) throws Exception {
    return CenterServer.start(
        Store.open(StoreUrl.parse(store), 4),
        // Reads open here: CenterAttackTest covers read tokens.
        CenterServer.Settings.defaults().withPort(0).withPublicRead(true),
        new PrintStream(log, true, StandardCharsets.UTF_8));
  }

  /** {@code acf center query --url URL --sink SINK MORE...}. */
  static ConfigCommandTest.Result query(String url, String sink, String... more) {
    List<String> line = new ArrayList<>(List.of("center", "query", "--url", url, "--sink", sink));
    line.addAll(List.of(more));
    return ConfigCommandTest.acf(line.toArray(String[]::new));
  }

  /** {@code acf run --acf ACF --report-to URL --device DEVICE MORE...}: one device's run. */
  static ConfigCommandTest.Result runReporting(String url, String device, String... more) {
    List<String> line =
        new ArrayList<>(List.of("run", "--acf", ACF, "--report-to", url, "--device", device));
    line.addAll(List.of(more));
    return ConfigCommandTest.acf(line.toArray(String[]::new));
  }

  static Map<String, Long> merged(String url) {
    ConfigCommandTest.Result q = query(url, SINK, "--format", "json");
    assertThat(q.status()).isEqualTo(0);
    return ProfileFormats.fromJson(q.stdout()).weights();
  }

  static Map<String, Long> times(Map<String, Long> w, int n) {
    Map<String, Long> out = new HashMap<>();
    w.forEach((k, v) -> out.put(k, v * n));
    return out;
  }

  /** What a refused request must leave unchanged: the status counts and the merged profile. */
  static String snapshot(String url) {
    JsonNode s = CenterCommand.get(CenterCommand.client(url), "/v1/status");
    return s.path("uploads")
        + "/"
        + s.path("parts")
        + "/"
        + s.path("bytes")
        + "/"
        + s.path("phases")
        + "/"
        + merged(url);
  }

  @ParameterizedTest
  @MethodSource("stores")
  void devicesReportSpoolAndMergeOnEachStore(String kind, @TempDir Path dir) throws Exception {
    String store = TestStores.fresh(kind, dir);
    assumeTrue(store != null, "no PostgreSQL server for this test");
    Map<String, String> tokens = new HashMap<>();
    for (String d : List.of("d1", "d2", "d3", "d4")) {
      ConfigCommandTest.Result t =
          ConfigCommandTest.acf("center", "token", "add", d, "--store", store);
      assertThat(t.status()).isEqualTo(0);
      assertThat(t.stdout().strip()).startsWith("acf_");
      tokens.put(d, t.stdout().strip());
    }
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    CenterServer center = start(store, log);
    String url = center.url();
    try {
      for (String d : List.of("d1", "d2", "d3")) {
        ConfigCommandTest.Result r =
            runReporting(
                url,
                d,
                "--token",
                tokens.get(d),
                "--spool",
                dir.resolve("spool-" + d).toString(),
                "--out",
                dir.resolve(d).toString(),
                PROGRAM,
                "4");
        assertThat(r.status()).isEqualTo(0);
        assertThat(r.stderr()).contains("1 stored, 0 already held, 0 spooled");
        assertThat(r.stderr()).contains("transmission (modelled)");
      }
      ProfileTable one = RunDirectory.read(dir.resolve("d1")).profiles().get(SINK);
      assertThat(one.rows()).isNotEmpty();
      assertThat(merged(url)).isEqualTo(times(one.weights(), 3));
      // The CSV has the columns acf run --out writes.
      ConfigCommandTest.Result csv =
          query(url, SINK, "--format", "csv", "--device", "d2", "--program", "calls");
      assertThat(csv.stdout()).isEqualTo(Files.readString(dir.resolve("d2/" + SINK + ".csv")));
      // summary.json carries what was transmitted.
      JsonNode summary = new ObjectMapper().readTree(dir.resolve("d1/summary.json").toFile());
      assertThat(summary.path("transmission").path("bytes").asLong()).isGreaterThan(0L);
      assertThat(summary.path("transmission").path("joules").asDouble()).isGreaterThan(0.0);
    } finally {
      center.close();
    }

    // The center is down: the fourth device's run still exits with the guest's status, and
    // its profile waits in the spool.
    Path spool4 = dir.resolve("spool-d4");
    ConfigCommandTest.Result down =
        runReporting(
            url, "d4", "--token", tokens.get("d4"), "--spool", spool4.toString(), PROGRAM, "4");
    assertThat(down.status()).isEqualTo(0);
    assertThat(down.stderr()).contains("cannot be reached");
    assertThat(down.stderr()).contains("1 part(s) of this run's profile spooled in " + spool4);
    List<Path> waiting;
    try (var s = Files.list(spool4)) {
      waiting = s.toList();
    }
    assertThat(waiting).hasSize(1);
    byte[] part = Files.readAllBytes(waiting.get(0));

    center = start(store, log);
    url = center.url();
    try {
      ConfigCommandTest.Result up =
          ConfigCommandTest.acf(
              "upload",
              "--report-to",
              url,
              "--token",
              tokens.get("d4"),
              "--spool",
              spool4.toString());
      assertThat(up.status()).isEqualTo(0);
      assertThat(up.stderr()).contains("1 part(s) stored, 0 already held, 0 refused, 0 left");
      ProfileTable one = RunDirectory.read(dir.resolve("d1")).profiles().get(SINK);
      assertThat(merged(url)).isEqualTo(times(one.weights(), 4));

      CenterClient client = new CenterClient(url, Duration.ofSeconds(30));
      String before = snapshot(url);
      // A retried part is held once.
      CenterClient.Sent retry = client.upload(part, tokens.get("d4"));
      assertThat(retry.outcome()).isEqualTo(CenterClient.Outcome.HELD);
      assertThat(retry.status()).isEqualTo(200);
      assertThat(snapshot(url)).isEqualTo(before);
      // A bad token: 401, logged.
      CenterClient.Sent bad = client.upload(part, "acf_not-a-token");
      assertThat(bad.status()).isEqualTo(401);
      assertThat(client.upload(part, null).status()).isEqualTo(401);
      assertThat(log.toString(StandardCharsets.UTF_8)).contains("401 POST /v1/uploads");
      // Another device's token: 403.
      assertThat(client.upload(part, tokens.get("d1")).status()).isEqualTo(403);
      // A truncated body of a new part: 400.
      String fresh =
          new String(UploadCodec.gunzipForTests(part), StandardCharsets.UTF_8)
              .replace(
                  waiting.get(0).getFileName().toString().substring(0, 36),
                  "00000000-0000-4000-8000-000000000000");
      byte[] gz = UploadCodec.gzip(fresh.getBytes(StandardCharsets.UTF_8));
      CenterClient.Sent truncated =
          client.upload(java.util.Arrays.copyOf(gz, gz.length / 2), tokens.get("d4"));
      assertThat(truncated.status()).isEqualTo(400);
      assertThat(truncated.message()).contains("truncated");
      // Truncated JSON inside intact gzip: 400 naming where.
      CenterClient.Sent cut =
          client.upload(
              UploadCodec.gzip(
                  fresh.substring(0, fresh.length() / 2).getBytes(StandardCharsets.UTF_8)),
              tokens.get("d4"));
      assertThat(cut.status()).isEqualTo(400);
      assertThat(cut.message()).contains("malformed JSON at line 1");
      // A wrong version: 415.
      CenterClient.Sent version =
          client.upload(
              UploadCodec.gzip(
                  fresh.replace("\"version\":1", "\"version\":2").getBytes(StandardCharsets.UTF_8)),
              tokens.get("d4"));
      assertThat(version.status()).isEqualTo(415);
      assertThat(version.message()).contains("version 2 is not supported");
      // Oversized: 413.
      CenterClient.Sent big = client.upload(new byte[9 << 20], tokens.get("d4"));
      assertThat(big.status()).isEqualTo(413);
      assertThat(snapshot(url)).isEqualTo(before);
      // Nothing of any of them reached the store; the fresh part itself is taken.
      assertThat(client.upload(gz, tokens.get("d4")).status()).isEqualTo(201);
      assertThat(merged(url)).isEqualTo(times(one.weights(), 5));
      ConfigCommandTest.Result status = ConfigCommandTest.acf("center", "status", "--url", url);
      assertThat(status.stdout()).contains("5 uploads (5 parts)");
      assertThat(status.stdout()).containsMatch("d4 +yes +2 ");
    } finally {
      center.close();
    }
  }
}
