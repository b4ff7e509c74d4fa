package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.List;
import org.dise.center.CenterServer;
import org.dise.repl.common.ProfileFormats;
import org.dise.repl.common.RunDirectory;
import org.dise.runtime.sink.ProfileTable;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A phase-tracked device sending interleaved parts, and phase-ID feedback across devices
 * (phase-based remote profiling paper, Section 3.2.5), through {@code acf run --report-to}.
 */
class PhaseFeedbackTest {
  static final Path ROOT = RepositoryRoot.path();
  static final String ACF = ROOT.resolve("examples/acf/sampled_regions.acf").toString();
  static final String PROGRAM = ROOT.resolve("examples/programs/bin/phases").toString();
  static final String SINK = "Branch_handler";

  static ConfigCommandTest.Result run(String url, String device, Path out, String... extra) {
    List<String> args =
        new java.util.ArrayList<>(
            List.of(
                "run",
                "--acf",
                ACF,
                "--sampling",
                "phase:first",
                "--interval",
                "500K",
                "--report-to",
                url,
                "--device",
                device,
                "--spool",
                out.resolveSibling(device + "-spool").toString(),
                "--out",
                out.toString()));
    args.addAll(List.of(extra));
    args.addAll(List.of(PROGRAM, "1", "AABBAB"));
    ConfigCommandTest.Result r = ConfigCommandTest.acf(args.toArray(String[]::new));
    assertThat(r.status()).isEqualTo(0);
    return r;
  }

  static JsonNode summary(Path out) throws Exception {
    return new ObjectMapper().readTree(out.resolve("summary.json").toFile());
  }

  @Test
  void interleavedPartsAddUpAndKnownPhasesAreSkipped(@TempDir Path dir) throws Exception {
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    // Tokens are not the point here: this center takes uploads without one.
    CenterServer center =
        CenterServer.start(
            org.dise.center.Store.open(
                org.dise.center.StoreUrl.parse("sqlite:" + dir.resolve("center.db")), 1),
            CenterServer.Settings.defaults().withPort(0).withNoAuth(true),
            new java.io.PrintStream(log, true));
    try {
      String url = center.url();

      Path u1 = dir.resolve("u1");
      ConfigCommandTest.Result first = run(url, "u1", u1, "--send", "interleaved:2");
      JsonNode s1 = summary(u1);
      long parts = s1.path("transmission").path("parts").asLong();
      assertThat(parts).isGreaterThan(2L);
      assertThat(s1.path("transmission").path("stored").asLong()).isEqualTo(parts);
      assertThat(s1.path("sampled_fraction").asDouble()).isGreaterThan(0.0);
      // The parts, each what the profile gained since the one before, add up to the profile.
      ProfileTable own = RunDirectory.read(u1).profiles().get(SINK);
      ConfigCommandTest.Result q = CenterEndToEndTest.query(url, SINK, "--format", "json");
      assertThat(ProfileFormats.fromJson(q.stdout()).weights()).isEqualTo(own.weights());
      assertThat(first.stderr()).contains("(interleaved:2)");
      // Selections: by age, by a date to come (nothing), by an unknown sink (names the held).
      ConfigCommandTest.Result recent =
          CenterEndToEndTest.query(
              url, SINK, "--since", "1h", "--program", "phases", "--format", "json");
      assertThat(recent.stdout()).isEqualTo(q.stdout());
      ConfigCommandTest.Result future =
          CenterEndToEndTest.query(url, SINK, "--since", "2099-01-01");
      assertThat(future.status()).isEqualTo(1);
      assertThat(future.stderr()).contains("404: no uploads hold sink Branch_handler");
      ConfigCommandTest.Result unknown = CenterEndToEndTest.query(url, "Nope");
      assertThat(unknown.stderr())
          .contains("no uploads hold sink Nope for this selection;" + " held: Branch_handler");
      ConfigCommandTest.Result badSince =
          CenterEndToEndTest.query(url, SINK, "--since", "yesterday");
      assertThat(badSince.stderr()).contains("400: since yesterday: expected an ISO-8601 time");

      JsonNode phases = CenterCommand.get(CenterCommand.client(url), "/v1/status");
      long known = phases.path("phases").asLong();
      assertThat(known).isAtLeast(2L);

      // The same input on a second device: the center holds enough of the phases the first
      // device sampled, so the second samples only the others.
      Path u2 = dir.resolve("u2");
      ConfigCommandTest.Result second = run(url, "u2", u2);
      JsonNode s2 = summary(u2);
      String sha = phases.path("programs").get(0).path("sha256").asText();
      long enough = 0;
      for (JsonNode p :
          CenterCommand.get(CenterCommand.client(url), "/v1/programs/" + sha + "/phases")
              .path("phases")) {
        enough += p.path("enough").asBoolean() ? 1 : 0;
      }
      assertThat(enough).isAtLeast(2L);
      assertThat(s2.path("transmission").path("feedback_phases").asLong()).isEqualTo(enough);
      assertThat(s2.path("transmission").path("skipped_intervals").asLong()).isGreaterThan(0L);
      assertThat(s2.path("sampled_fraction").asDouble())
          .isLessThan(s1.path("sampled_fraction").asDouble());
      assertThat(second.stderr()).containsMatch("phase feedback +\\d+ phase\\(s\\) held enough");

      // Without feedback a third device samples as the first did.
      Path u3 = dir.resolve("u3");
      run(url, "u3", u3, "--no-feedback");
      assertThat(summary(u3).path("sampled_fraction").asDouble())
          .isEqualTo(s1.path("sampled_fraction").asDouble());
      // Now the center holds more of this input's phases: a fourth samples no more than the
      // second.
      Path u4 = dir.resolve("u4");
      run(url, "u4", u4);
      // Not always zero: an interval sampled on a mispredicted phase (a transition interval
      // the last-value predictor never foresees) is charged to a phase already held.
      assertThat(summary(u4).path("sampled_fraction").asDouble())
          .isAtMost(s2.path("sampled_fraction").asDouble());
      assertThat(summary(u4).path("transmission").path("skipped_intervals").asLong())
          .isGreaterThan(0L);
    } finally {
      center.close();
    }
  }

  @Test
  void reportOptionsThatDoNotFitAreUsageErrors() {
    ConfigCommandTest.Result noDevice = DeviceCommandLineTest.reportToNowhere(ACF, PROGRAM);
    assertThat(noDevice.status()).isEqualTo(2);
    assertThat(noDevice.stderr()).contains("--report-to needs --device ID");
    ConfigCommandTest.Result interleaved =
        DeviceCommandLineTest.reportToNowhere(
            ACF, PROGRAM, "--device", "d", "--send", "interleaved");
    assertThat(interleaved.status()).isEqualTo(2);
    assertThat(interleaved.stderr()).contains("needs a sampling trigger");
    ConfigCommandTest.Result badSend =
        DeviceCommandLineTest.reportToNowhere(ACF, PROGRAM, "--device", "d", "--send", "sometimes");
    assertThat(badSend.stderr()).contains("expected at-end or interleaved[:N]");
    ConfigCommandTest.Result noUrl =
        ConfigCommandTest.acf("run", "--acf", ACF, "--device", "d", PROGRAM);
    assertThat(noUrl.stderr()).contains("need --report-to URL");
    ConfigCommandTest.Result badStore =
        ConfigCommandTest.acf("center", "token", "add", "d", "--store", "mysql://x");
    assertThat(badStore.status()).isEqualTo(2);
    assertThat(badStore.stderr()).contains("expected sqlite:PATH or postgresql://");
    ConfigCommandTest.Result down =
        ConfigCommandTest.acf("center", "status", "--url", "http://127.0.0.1:1");
    assertThat(down.status()).isEqualTo(1);
    assertThat(down.stderr()).contains("cannot reach the center");
  }
}
