package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.dise.center.CenterServer;
import org.dise.center.Spool;
import org.dise.center.Store;
import org.dise.center.StoreUrl;
import org.dise.repl.common.ExitStatus;
import org.dise.repl.common.UserError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The device side's command line probed (issue 31): limits that would read as "none", device names
 * the center refuses, a spool the guest could write, a spool that is a file, a refused token, and
 * the center's read tokens and limits as {@code acf center} shows them. Each exit status says
 * whether the command did what was asked.
 */
class DeviceCommandLineTest {
  static final String ACF = CenterEndToEndTest.ACF;
  static final String PROGRAM = CenterEndToEndTest.PROGRAM;

  /**
   * {@code acf run --acf ACF --report-to http://127.0.0.1:1 OPTIONS... PROGRAM}: a center nobody
   * listens at, for the checks made before anything is sent.
   */
  static ConfigCommandTest.Result reportToNowhere(String acf, String program, String... options) {
    java.util.List<String> line =
        new java.util.ArrayList<>(
            java.util.List.of("run", "--acf", acf, "--report-to", "http://127.0.0.1:1"));
    line.addAll(java.util.List.of(options));
    line.add(program);
    return ConfigCommandTest.acf(line.toArray(String[]::new));
  }

  @Test
  void negativeAndZeroLimitsAreUsageErrors() {
    for (String[] bad :
        new String[][] {
          {"run", "--max-insns", "-5", PROGRAM},
          {"run", "--max-insns", "0", PROGRAM},
          {"run", "--acf", ACF, "--fast-forward", "-1", PROGRAM},
          {
            "run",
            "--acf",
            ACF,
            "--report-to",
            "http://127.0.0.1:1",
            "--device",
            "d",
            "--buffer-size",
            "-1",
            PROGRAM
          },
        }) {
      ConfigCommandTest.Result r = ConfigCommandTest.acf(bad);
      assertThat(r.status()).isEqualTo(ExitStatus.USAGE);
      assertThat(r.stderr()).containsMatch("negative|at least 1");
    }
  }

  @Test
  void anOutFolderSwappedForALinkDuringTheRunIsNotWritten(@TempDir Path dir) throws Exception {
    Path out = Files.createDirectory(dir.resolve("out"));
    Object key = GuestReach.identity(out);
    GuestReach.checkUnchanged(out, key); // unchanged: fine
    Path elsewhere = Files.createDirectory(dir.resolve("elsewhere"));
    Files.delete(out);
    Files.createSymbolicLink(out, elsewhere);
    UserError e =
        org.junit.jupiter.api.Assertions.assertThrows(
            UserError.class, () -> GuestReach.checkUnchanged(out, key));
    assertThat(e.getMessage()).contains("the folder was replaced while the guest ran");
  }

  @Test
  void anAcfThatIsADirectoryIsNamedAsOne(@TempDir Path dir) {
    ConfigCommandTest.Result r = ConfigCommandTest.acf("run", "--acf", dir.toString(), PROGRAM);
    assertThat(r.status()).isEqualTo(ExitStatus.USAGE);
    assertThat(r.stderr()).contains("a directory, not an ACF file");
  }

  @Test
  void aDeviceNameTheCenterWouldRefuseIsRefusedBeforeTheRun(@TempDir Path dir) {
    ConfigCommandTest.Result r =
        reportToNowhere(
            ACF, PROGRAM, "--device", "../x", "--spool", dir.resolve("spool").toString());
    assertThat(r.status()).isEqualTo(ExitStatus.USAGE);
    assertThat(r.stderr()).contains("--device ../x: a device name is 1 to 64");
    assertThat(Files.exists(dir.resolve("spool"))).isFalse();
  }

  @Test
  void acfsOwnStateIsOutOfTheGuestsReach(@TempDir Path dir) throws Exception {
    // A run whose guest may write everywhere (--allow-write /) still may not change acf's state:
    // --out, --spool, the ACF cache, the state folder of the default spool, acf's own folder
    // (its jar and class-data archive).
    Path out = dir.resolve("out");
    Path spool = dir.resolve("spool");
    RunCommand run = new RunCommand();
    new picocli.CommandLine(run)
        .parseArgs(
            "--acf",
            ACF,
            "--allow-write",
            "/",
            "--out",
            out.toString(),
            "--report-to",
            "http://127.0.0.1:1",
            "--device",
            "d",
            "--spool",
            spool.toString(),
            PROGRAM);
    org.dise.runtime.linux.Sandbox box =
        run.values()
            .machine(org.dise.runtime.linux.HostNames.workingDirectory(), System.err)
            .sandbox();
    java.util.List<Path> state = new java.util.ArrayList<>(GuestReach.acfState());
    state.add(out);
    state.add(spool);
    state.add(Spool.defaultDir());
    for (Path p : state) {
      Path real = GuestReach.realish(p);
      assertThat(box.mayWrite(real.resolve("planted"))).isFalse();
      assertThat(box.mayChangeEntry(real)).isFalse();
      assertThat(box.mayChangeEntry(real.resolve("planted"))).isFalse();
    }
    // acf's folder: the jar (or class folder) this test runs from.
    Path code =
        Path.of(GuestReach.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    assertThat(box.mayWrite(code.toRealPath().resolve("x"))).isFalse();
    // The rest stays the guest's.
    assertThat(box.mayWrite(dir.toRealPath().resolve("own.txt"))).isTrue();
    assertThat(box.mayChangeEntry(dir.toRealPath().resolve("own.txt"))).isTrue();

    // A spool inside the working directory is no longer refused: the guest cannot touch it.
    Path inCwd = Path.of("target", "guest-spool-" + System.nanoTime());
    ConfigCommandTest.Result r =
        CenterEndToEndTest.runReporting(
            "http://127.0.0.1:1", "d", "--spool", inCwd.toString(), PROGRAM);
    assertThat(r.status()).isEqualTo(0);
    try (var parts = Files.list(inCwd)) {
      assertThat(parts.filter(f -> f.toString().endsWith(".json.gz")).count()).isEqualTo(1);
    }
  }

  @Test
  void uploadWithASpoolThatIsAFileOrMissingFails(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("f"), "x");
    ConfigCommandTest.Result f =
        ConfigCommandTest.acf(
            "upload", "--report-to", "http://127.0.0.1:1", "--spool", file.toString());
    assertThat(f.status()).isEqualTo(ExitStatus.USAGE);
    assertThat(f.stderr()).contains("not a directory");
    ConfigCommandTest.Result none =
        ConfigCommandTest.acf(
            "upload", "--report-to", "http://127.0.0.1:1", "--spool", dir.resolve("no").toString());
    assertThat(none.status()).isEqualTo(ExitStatus.FAILURE);
    assertThat(none.stderr()).contains("no such directory");
  }

  @Test
  void aRefusedTokenFailsTheRunAndKeepsThePart(@TempDir Path dir) throws Exception {
    Store store = Store.open(StoreUrl.parse("sqlite:" + dir.resolve("c.db")), 2);
    store.addToken("d1");
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    try (CenterServer center =
        CenterServer.start(
            store,
            CenterServer.Settings.defaults().withPort(0),
            new PrintStream(log, true, StandardCharsets.UTF_8))) {
      Path spool = dir.resolve("spool");
      ConfigCommandTest.Result r =
          CenterEndToEndTest.runReporting(
              center.url(),
              "d1",
              "--token",
              "acf_wrong",
              "--spool",
              spool.toString(),
              PROGRAM,
              "4");
      assertThat(r.status()).isEqualTo(ExitStatus.FAILURE);
      assertThat(r.stderr())
          .contains("the profile was not delivered: the center refused the token");
      assertThat(new Spool(spool).waiting()).hasSize(1);
      ConfigCommandTest.Result up =
          ConfigCommandTest.acf(
              "upload",
              "--report-to",
              center.url(),
              "--token",
              "acf_wrong",
              "--spool",
              spool.toString());
      assertThat(up.status()).isEqualTo(ExitStatus.FAILURE);
      assertThat(up.stderr()).contains("1 part(s) kept in " + spool);
    }
  }

  @Test
  void readTokensAndTheServersLimitsOnTheCommandLine(@TempDir Path dir) throws Exception {
    String store = "sqlite:" + dir.resolve("c.db");
    ConfigCommandTest.Result t =
        ConfigCommandTest.acf("center", "token", "add", "analyst", "--read", "--store", store);
    assertThat(t.status()).isEqualTo(0);
    String token = t.stdout().strip();
    assertThat(token).startsWith("acfr_");
    try (CenterServer center =
        CenterServer.start(
            Store.open(StoreUrl.parse(store), 2),
            CenterServer.Settings.defaults().withPort(0),
            new PrintStream(PrintStream.nullOutputStream()))) {
      ConfigCommandTest.Result no =
          ConfigCommandTest.acf("center", "status", "--url", center.url());
      assertThat(no.status()).isEqualTo(ExitStatus.FAILURE);
      assertThat(no.stderr()).contains("401");
      ConfigCommandTest.Result yes =
          ConfigCommandTest.acf("center", "status", "--url", center.url(), "--token", token);
      assertThat(yes.status()).isEqualTo(0);
      assertThat(yes.stdout()).contains("0 uploads");
    }
    ConfigCommandTest.Result help = ConfigCommandTest.acf("center", "serve", "--help");
    for (String limit :
        new String[] {
          "--max-upload", "--max-uncompressed", "--max-part-memory", "--max-connections",
          "--max-connections-per-client", "--idle-timeout", "--threads", "--public-read",
          "--tls-cert", "--tls-key"
        }) {
      assertThat(help.stdout()).contains(limit);
    }
    String flat = help.stdout().replaceAll("\\s+", " ");
    assertThat(flat).contains("one address (default: 64)");
    assertThat(flat).contains("in all (default: 1024)");
    assertThat(flat).contains("(default 32M)");
  }
}
