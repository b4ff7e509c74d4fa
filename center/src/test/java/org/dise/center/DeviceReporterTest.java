package org.dise.center;

import static com.google.common.truth.Truth.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The device's side without a guest: spooling when the center is down, draining at start. */
class DeviceReporterTest {
  static DeviceReporter.Options options(String url, Path spool) {
    return new DeviceReporter.Options(
        url, "dev1", null, spool, "at-end", true, 256 * 1024, Duration.ofSeconds(5));
  }

  @Test
  void aRunSpoolsWhenTheCenterIsDownAndTheNextRunSendsItFirst(@TempDir Path dir) throws Exception {
    Path program = Files.writeString(dir.resolve("prog"), "not really an ELF");
    Path spool = dir.resolve("spool");
    int closed;
    try (ServerSocket s = new ServerSocket(0)) {
      closed = s.getLocalPort(); // nothing listens there once the socket is closed
    }
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream errs = new PrintStream(err, true, StandardCharsets.UTF_8);
    DeviceReporter down =
        DeviceReporter.open(options("http://127.0.0.1:" + closed, spool), program, "cfg", errs);
    down.attach(List.of(), null);
    DeviceReporter.Summary sent = down.finish(1234, 0);
    assertThat(down.spooledParts()).isEqualTo(1);
    assertThat(sent.json()).contains("\"spooled\": 1");
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("cannot be reached");
    assertThat(new Spool(spool).waiting()).hasSize(1);

    try (CenterServer center =
        CenterServer.start(
            Store.open(StoreUrl.parse("sqlite:" + dir.resolve("c.db")), 1),
            CenterServer.Settings.defaults().withPort(0).withNoAuth(true),
            errs)) {
      // Also one spooled part the center already holds: sent, counted as held, removed.
      byte[] held =
          UploadCodec.gzip(UploadCodec.json(LoadTest.part("dev1", 0, 3, new SplittableRandom(3))));
      new CenterClient(center.url(), Duration.ofSeconds(5)).upload(held, null);
      new Spool(spool).put("zz-held.00000", held);
      DeviceReporter up = DeviceReporter.open(options(center.url(), spool), program, "cfg", errs);
      assertThat(new Spool(spool).waiting()).isEmpty();
      assertThat(err.toString(StandardCharsets.UTF_8)).contains("sent 2 spooled part(s)");
      up.attach(List.of(), null);
      up.finish(99, 0);
      Store.Status st = center.store().status();
      assertThat(st.uploads()).isEqualTo(3);
      assertThat(
              st.programs().stream()
                  .filter(p -> p.name().equals("prog"))
                  .findFirst()
                  .orElseThrow()
                  .instructions())
          .isEqualTo(1234 + 99);
    }
  }

  @Test
  void aCenterThatStopsDuringTheRunLeavesTheProfileInTheSpool(@TempDir Path dir) throws Exception {
    Path program = Files.writeString(dir.resolve("prog"), "not really an ELF");
    Path spool = dir.resolve("spool");
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream errs = new PrintStream(err, true, StandardCharsets.UTF_8);
    String db = "sqlite:" + dir.resolve("c.db");
    CenterServer center =
        CenterServer.start(
            Store.open(StoreUrl.parse(db), 1),
            CenterServer.Settings.defaults().withPort(0).withNoAuth(true),
            errs);
    // The run starts while the center is up (it answers the feedback request) ...
    DeviceReporter r = DeviceReporter.open(options(center.url(), spool), program, "cfg", errs);
    r.attach(List.of(), null);
    // ... and the center stops before the run ends.
    center.close();
    r.finish(777, 0);
    assertThat(r.spooledParts()).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("cannot be reached");
    assertThat(new Spool(spool).waiting()).hasSize(1);
    try (CenterServer again =
        CenterServer.start(
            Store.open(StoreUrl.parse(db), 1),
            CenterServer.Settings.defaults().withPort(0).withNoAuth(true),
            errs)) {
      Spool.Drained d =
          new Spool(spool).drain(new CenterClient(again.url(), Duration.ofSeconds(5)), null, errs);
      assertThat(d.stored()).isEqualTo(1);
      assertThat(new Spool(spool).waiting()).isEmpty();
      assertThat(again.store().status().programs().get(0).instructions()).isEqualTo(777);
    }
  }

  @Test
  void sendModesParse() {
    assertThat(DeviceReporter.parseSend(null)).isEqualTo(0);
    assertThat(DeviceReporter.parseSend("at-end")).isEqualTo(0);
    assertThat(DeviceReporter.parseSend("interleaved")).isEqualTo(1);
    assertThat(DeviceReporter.parseSend("interleaved:8")).isEqualTo(8);
    IllegalArgumentException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class, () -> DeviceReporter.parseSend("interleaved:0"));
    assertThat(e.getMessage()).contains("expected at-end or interleaved[:N]");
  }

  @Test
  void transmissionFollowsTheStrongArmWirelessCard() {
    TransmissionModel m = TransmissionModel.STRONGARM_WIRELESS;
    // 11 Mb/s: 1,375,000 bytes a second, at 1.425 W.
    assertThat(m.seconds(1_375_000)).isWithin(1e-9).of(1.0);
    assertThat(m.joules(1_375_000)).isWithin(1e-9).of(1.425);
  }
}
