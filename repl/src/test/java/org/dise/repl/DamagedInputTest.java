package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.dise.ReplacementInsn;
import org.dise.runtime.dise.ReplacementSequence;
import org.dise.runtime.dise.config.ConfigFormat;
import org.dise.runtime.dise.config.DeployableConfig;
import org.dise.testsupport.Captured;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression cases of issue 19: damaged inputs that reached {@code acf: internal error} or lost
 * data. Each must end in a one-line message naming the file and the problem, and no output file may
 * be lost or left half written.
 */
class DamagedInputTest {
  private static final Path ROOT = RepositoryRoot.path();
  private static final Path HELLO = ROOT.resolve("examples/programs/bin/hello");

  @TempDir Path dir;

  record Run(int status, String stdout, String stderr) {}

  static Run acf(String... args) {
    Captured c = Captured.run(() -> Cli.commandLine().execute(args));
    Run r = new Run(c.status(), c.stdout(), c.stderr());
    for (String line : r.stderr.split("\n")) {
      assertWithMessage("Java internals in: %s", r.stderr)
          .that(line)
          .doesNotContainMatch("internal error|Exception|\\tat (org|java)\\.");
    }
    return r;
  }

  /** {@code acf run --acf examples/acf/ACF --out OUT hello ARGS...}. */
  static Run helloInto(String acf, Path out, String... args) {
    List<String> line =
        new ArrayList<>(
            List.of(
                "run",
                "--acf",
                ROOT.resolve("examples/acf/" + acf).toString(),
                "--out",
                out.toString(),
                HELLO.toString()));
    line.addAll(List.of(args));
    return acf(line.toArray(String[]::new));
  }

  private Path compiled(String acf) throws Exception {
    Path out = dir.resolve(acf.replace(".acf", ".dcfg"));
    Run r = acf("compile", ROOT.resolve("examples/acf/" + acf).toString(), "-o", out.toString());
    assertWithMessage(r.stderr).that(r.status).isEqualTo(0);
    return out;
  }

  @Test
  void aConfigurationWithAValidChecksumAndABadSinkIndexIsRefused() throws Exception {
    DeployableConfig c = ConfigFormat.read(compiled("hot_call_pairs.acf"));
    ProductionSet s = c.productions();
    List<ReplacementSequence> bad = new ArrayList<>();
    for (ReplacementSequence r : s.replacements()) {
      List<ReplacementInsn> body = new ArrayList<>();
      for (ReplacementInsn i : r.body()) {
        body.add(
            i instanceof ReplacementInsn.Call call
                ? new ReplacementInsn.Call(4096, call.args())
                : i);
      }
      bad.add(new ReplacementSequence(r.name(), body));
    }
    ProductionSet damaged =
        new ProductionSet(
            s.productions(),
            bad,
            s.counters(),
            s.hpsRegisters(),
            s.sinks(),
            s.triggers(),
            s.stallCycles(),
            s.budget());
    Path file = dir.resolve("damaged.dcfg");
    // toBytes writes whatever it is given, with a checksum that matches.
    Files.write(file, ConfigFormat.toBytes(new DeployableConfig("x", damaged)));
    Run r = acf("inspect", file.toString());
    assertThat(r.status).isEqualTo(1);
    assertThat(r.stderr).contains("damaged.dcfg: malformed: replacement");
    assertThat(r.stderr).contains("calls sink 4096 of 1");
    Run run = acf("run", "--config", file.toString(), HELLO.toString());
    assertThat(run.status).isEqualTo(1);
    assertThat(run.stderr).contains("calls sink 4096");
  }

  @Test
  void inspectOfADeviceOrAHugeFileIsRefusedWithoutReadingIt() throws Exception {
    Run r = acf("inspect", "/dev/zero");
    assertThat(r.stderr).contains("/dev/zero: not a regular file");
    Path huge = sparse("huge.dcfg", 100L << 20);
    assertThat(acf("inspect", huge.toString()).stderr).contains("larger than any configuration");
  }

  @Test
  void aProgramFileOver1GiBOrADeviceIsRefusedWithoutReadingIt() throws Exception {
    Path huge = sparse("huge.elf", (1L << 30) + 4096);
    Run r = acf("run", huge.toString());
    assertThat(r.status).isEqualTo(1);
    assertThat(r.stderr).contains("programs over 1,073,741,824 bytes (1 GiB) are not loaded");
    assertThat(acf("run", "/dev/zero").stderr).contains("not a regular file");
  }

  private Path sparse(String name, long size) throws Exception {
    Path p = dir.resolve(name);
    try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "rw")) {
      f.setLength(size);
    }
    return p;
  }

  @Test
  void flippedSegmentFieldsAreRefusedWithTheSegment() throws Exception {
    byte[] b = Files.readAllBytes(HELLO);
    ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    long phoff = bb.getLong(32);
    int load = -1;
    for (int i = 0; i < (bb.getShort(56) & 0xffff); i++) {
      if (bb.getInt((int) phoff + 56 * i) == 1) {
        load = (int) phoff + 56 * i;
        break;
      }
    }
    byte[] vaddr = b.clone();
    ByteBuffer.wrap(vaddr).order(ByteOrder.LITTLE_ENDIAN).putLong(load + 16, 0x3240000000000000L);
    byte[] memsz = b.clone();
    ByteBuffer.wrap(memsz).order(ByteOrder.LITTLE_ENDIAN).putLong(load + 40, 0x7fffffffffff0000L);
    for (byte[] elf : List.of(vaddr, memsz)) {
      Path p = dir.resolve("flipped");
      Files.write(p, elf);
      Run r = acf("run", p.toString());
      assertThat(r.status).isEqualTo(1);
      assertThat(r.stderr).contains("lies outside the emulated address space");
    }
  }

  @Test
  void reportAndCompareReadTheRunDirectoriesOfRap() throws Exception {
    Path out = dir.resolve("rap");
    Run run = helloInto("rap_ranges.acf", out, "a");
    assertWithMessage(run.stderr).that(run.status).isEqualTo(0);
    assertThat(Files.exists(out.resolve("code_ranges.tree.json"))).isTrue();
    Run report = acf("report", out.toString());
    assertWithMessage(report.stderr).that(report.status).isEqualTo(0);
    assertThat(report.stdout).contains("code_ranges");
    Run compare = acf("compare", out.toString(), out.toString());
    assertWithMessage(compare.stderr).that(compare.status).isEqualTo(0);
    assertThat(compare.stdout).contains("count error      0.00%");
  }

  @Test
  void weightsThatAreNotCountsAreRefusedNamingTheRow() throws Exception {
    for (String w : List.of("1.5", "\"many\"", "99999999999999999999", "-3", "1e30")) {
      Path p = dir.resolve("p.json");
      Files.writeString(
          p,
          "{\"profile\": \"p\", \"columns\": [\"k\", \"count\"], \"key\": [\"k\"],"
              + " \"weight\": \"count\", \"rows\": [{\"k\": \"a\", \"count\": 1},"
              + " {\"k\": \"b\", \"count\": "
              + w
              + "}]}");
      Run r = acf("report", p.toString());
      assertWithMessage(w).that(r.status).isNotEqualTo(0);
      assertWithMessage(w).that(r.stderr).contains("p.json: row 2: `count` is");
    }
    Path p = dir.resolve("sum.json");
    Files.writeString(
        p,
        "{\"profile\": \"p\", \"columns\": [\"k\", \"count\"], \"key\": [\"k\"],"
            + " \"weight\": \"count\", \"rows\": [{\"k\": \"a\", \"count\": 9223372036854775807},"
            + " {\"k\": \"b\", \"count\": 1}]}");
    assertThat(acf("report", p.toString()).stderr).contains("adds up past");
  }

  @Test
  void outNamingAFileIsRefusedBeforeTheGuestRuns() throws Exception {
    Path file = Files.writeString(dir.resolve("taken"), "mine");
    Run r = helloInto("hot_methods.acf", file, "GUEST-RAN");
    assertThat(r.status).isEqualTo(2);
    assertThat(r.stderr).contains("not a directory");
    assertThat(r.stdout).doesNotContain("GUEST-RAN");
    assertThat(Files.readString(file)).isEqualTo("mine");
  }

  @Test
  void outIntoAReusedRunDirectoryKeepsNoStaleProfile() throws Exception {
    Path out = dir.resolve("run");
    assertThat(helloInto("hot_methods.acf", out).status).isEqualTo(0);
    assertThat(Files.exists(out.resolve("HotMethod_handler.json"))).isTrue();
    assertThat(helloInto("hot_call_pairs.acf", out).status).isEqualTo(0);
    assertThat(Files.exists(out.resolve("HotMethod_handler.json"))).isFalse();
    assertThat(Files.exists(out.resolve("CallPair_handler.json"))).isTrue();
    assertThat(acf("report", out.toString()).stdout).doesNotContain("HotMethod");
    // A directory holding other files is not acf's to clear.
    Path mine = Files.createDirectories(dir.resolve("mine"));
    Files.writeString(mine.resolve("notes.txt"), "keep");
    Run r = helloInto("hot_methods.acf", mine);
    assertThat(r.status).isEqualTo(2);
    assertThat(r.stderr).contains("not an earlier acf run's");
    assertThat(Files.readString(mine.resolve("notes.txt"))).isEqualTo("keep");
  }

  @Test
  void fmtWriteReplacesTheFileWholeAndAFailedWriteLeavesItIntact() throws Exception {
    Path acfFile = dir.resolve("x.acf");
    String messy = "P1:   T.OPCLASS==proc_call   =>   R1,null\nR1: T.INSN;\n";
    Files.writeString(acfFile, messy);
    assertThat(acf("fmt", "--write", acfFile.toString()).status).isEqualTo(0);
    assertThat(Files.readString(acfFile)).isEqualTo(acf("fmt", acfFile.toString()).stdout);
    try (Stream<Path> s = Files.list(dir)) {
      assertThat(s.map(p -> p.getFileName().toString()).toList()).containsExactly("x.acf");
    }
    // A directory the temporary file cannot be made in: the write fails, the file stays whole.
    Path ro = Files.createDirectories(dir.resolve("ro"));
    Path locked = ro.resolve("y.acf");
    Files.writeString(locked, messy);
    Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("r-xr-xr-x"));
    try {
      if (Files.isWritable(ro)) {
        return; // running as root: permissions do not stop the write
      }
      Run r = acf("fmt", "--write", locked.toString());
      assertThat(r.status).isNotEqualTo(0);
      assertThat(r.stderr).contains("cannot write");
      assertThat(Files.readString(locked)).isEqualTo(messy);
    } finally {
      Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
  }

  @Test
  void compileNeverWritesAConfigurationTheRuntimeRefuses() throws Exception {
    // A chain of 1,100 conjuncts: the front end takes it, the reader's limit is 1,000 levels.
    StringBuilder chain = new StringBuilder("P1: ");
    for (int i = 0; i < 1100; i++) {
      chain.append(i == 0 ? "" : " && ").append("T.PC != ").append(i);
    }
    Path acfFile =
        Files.writeString(dir.resolve("deep.acf"), chain + " => R1, null\nR1: T.INSN;\n");
    Path out = dir.resolve("deep.dcfg");
    Run r = acf("compile", acfFile.toString(), "-o", out.toString());
    assertThat(r.status).isNotEqualTo(0);
    assertThat(r.stderr).contains("a pattern nested deeper than 1000");
    assertThat(Files.exists(out)).isFalse();
  }

  @Test
  void limitOptionsAreCheckedBeforeRunning() {
    Run r = acf("run", "--limit", "nofile=2", HELLO.toString());
    assertThat(r.status).isEqualTo(2);
    assertThat(r.stderr).contains("--limit nofile=2: must be between 3 and");
    assertThat(acf("run", "--limit", "cpu=1", HELLO.toString()).stderr)
        .contains("unknown limit 'cpu'");
    Run ok = acf("run", "--limit", "nofile=16", "--limit", "as=256M", HELLO.toString(), "x");
    assertWithMessage(ok.stderr).that(ok.status).isEqualTo(0);
  }
}
