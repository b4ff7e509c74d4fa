package org.dise.integration;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.dise.runtime.Machine;
import org.dise.runtime.cpu.StopReason;
import org.dise.runtime.dise.DiseEngine;
import org.dise.runtime.linux.Sandbox;
import org.dise.runtime.sink.ProfileTable;
import org.dise.testsupport.ExternalTool;
import org.dise.testsupport.QemuRun;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A program no one here wrote, built from sources a package registry serves (the SQLite
 * amalgamation inside npm's better-sqlite3, fetched and built at test time by {@code
 * scripts/real-programs/sqlite/build.sh}; nothing fetched is committed), run under acf and under
 * qemu-riscv64: the same output, byte for byte, with and without productions. Skips, saying why,
 * when the sources, the cross compiler or qemu cannot be had.
 */
class RealProgramsTest {
  private static final Path ROOT = RepositoryRoot.path();
  private static Path sqlbench;

  @BeforeAll
  static void build() throws Exception {
    String qemu = ExternalTool.qemuMissing();
    if (qemu != null) {
      System.out.println("RealProgramsTest: skipped: " + qemu);
      return;
    }
    Path out = ROOT.resolve("integration-tests/target/real-programs/sqlite");
    Files.createDirectories(out);
    Path log = out.resolve("build.log");
    Process p =
        new ProcessBuilder(
                ROOT.resolve("scripts/real-programs/sqlite/build.sh").toString(), out.toString())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    if (!p.waitFor(15, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("building sqlbench took over 15 minutes; see " + log);
    }
    String why = Files.readString(log).strip();
    if (p.exitValue() == 3) {
      System.out.println("RealProgramsTest: skipped: " + why);
      return;
    }
    assertWithMessage("scripts/real-programs/sqlite/build.sh failed:\n%s", why)
        .that(p.exitValue())
        .isEqualTo(0);
    sqlbench = out.resolve("sqlbench");
  }

  @Test
  void sqliteInMemoryMatchesQemu(@TempDir Path cwd) throws Exception {
    Assumptions.assumeTrue(sqlbench != null, "sqlbench could not be built (see above)");
    String qemu = qemu(List.of("3"), cwd);
    String ours = ours(List.of("3"), cwd, false);
    assertThat(ours).isEqualTo(qemu);
    assertThat(qemu).contains("checksum ");
  }

  /**
   * A database file: SQLite's pager locks it (fcntl record locks), writes it with pwrite, syncs it
   * with fsync and deletes its journal; the file left behind must be the same bytes as qemu's.
   */
  @Test
  void sqliteFileDatabaseMatchesQemu(@TempDir Path cwd) throws Exception {
    Assumptions.assumeTrue(sqlbench != null, "sqlbench could not be built (see above)");
    Path q = Files.createDirectory(cwd.resolve("qemu"));
    Path o = Files.createDirectory(cwd.resolve("ours"));
    String qemu = qemu(List.of("1", "orders.db"), q);
    // SQLite resolves the database's full path, which stats every directory above it: a user
    // gives --allow-read for them, as here (spec/emulator.md, confinement).
    String ours = ours(List.of("1", "orders.db"), o, false, Path.of("/"));
    assertThat(ours).isEqualTo(qemu);
    assertThat(Files.readAllBytes(o.resolve("orders.db")))
        .isEqualTo(Files.readAllBytes(q.resolve("orders.db")));
  }

  @Test
  void sqliteUnderHotCallPairsMatchesQemuAndNamesSqliteFunctions(@TempDir Path cwd)
      throws Exception {
    Assumptions.assumeTrue(sqlbench != null, "sqlbench could not be built (see above)");
    assertThat(ours(List.of("1"), cwd, true)).isEqualTo(qemu(List.of("1"), cwd));
  }

  /** Runs sqlbench in-process; with {@code profiled}, under the Fig. 6 hot call pair ACF. */
  private String ours(List<String> args, Path cwd, boolean profiled) throws Exception {
    return ours(args, cwd, profiled, null);
  }

  private String ours(List<String> args, Path cwd, boolean profiled, Path readable)
      throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Sandbox sandbox = new Sandbox(cwd);
    if (readable != null) {
      sandbox.allowRead(readable);
    }
    Machine m =
        Machine.load(
            sqlbench,
            args,
            new Machine.Options(
                sandbox, List.of(), 0x5eed, new PrintStream(err, true, StandardCharsets.UTF_8)));
    m.kernel().setStdio(0, new ByteArrayInputStream(new byte[0]), null);
    m.kernel().setStdio(1, null, out);
    m.kernel().setStdio(2, null, err);
    DiseEngine engine = null;
    if (profiled) {
      engine =
          new DiseEngine(
              EngineEndToEndTest.lower(
                  Files.readString(ROOT.resolve("examples/acf/hot_call_pairs.acf"))));
      engine.install(m.cpu());
    }
    Machine.Outcome o = m.run(20_000_000_000L);
    assertWithMessage("sqlbench under acf: %s\n%s", o.report(), err)
        .that(o.reason())
        .isNotEqualTo(StopReason.STEP_LIMIT);
    assertWithMessage("sqlbench under acf exit status; stderr:\n%s", err)
        .that(o.exitStatus())
        .isEqualTo(0);
    if (engine != null) {
      ProfileTable t = engine.sinks().get(0).table(m.symbols());
      // The profile names SQLite's own functions (its symbols are in the static binary).
      assertWithMessage("hot call pairs of sqlbench")
          .that(t.rows().toString())
          .contains("sqlite3VdbeExec");
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  private static String qemu(List<String> args, Path cwd) throws Exception {
    QemuRun.Result q = QemuRun.run(cwd, null, List.of(), sqlbench, args);
    assertWithMessage("qemu-riscv64 sqlbench exit status").that(q.exit()).isEqualTo(0);
    return q.stdout();
  }
}
