package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.dise.repl.common.UserError;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.dise.config.ConfigFormat;
import org.dise.runtime.dise.config.DeployableConfig;
import org.dise.testsupport.Captured;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cache of compiled production sets ({@link AcfCache}): a hit is the set the compiler builds,
 * an edited ACF or imported file misses, a damaged entry is compiled again without a word, a set
 * with warnings is not kept, and runs sharing the cache at once all get the right set.
 */
class AcfCacheTest {
  static final String REGIONS =
      "acf regions(handler: sink = Branch_handler) {\n"
          + "  P1: T.OPCLASS == branch => R1, null\n"
          + "  R1: call(handler, T.INSN); T.INSN;\n"
          + "}\n";

  static final String MAIN = "import \"part.acf\";\nuse regions;\n";

  @Test
  void aHitIsTheSetTheCompilerBuildsAndNeedsNoCompiler(@TempDir Path dir) throws Exception {
    Path acf = write(dir.resolve("a.acf"), RunSummaryTest.COUNTING);
    AcfCache cache = new AcfCache(dir.resolve("cache"), "build 1");
    ProductionSet cold = load(acf, null);
    assertThat(entries(cache)).isEmpty();
    ProductionSet miss = load(acf, cache);
    assertThat(entries(cache)).hasSize(1);
    AcfCache.Lookup lookup = cache.lookup(List.of(acf));
    ProductionSet hit = cache.get(lookup);
    assertThat(hit).isNotNull();
    assertThat(bytes(miss)).isEqualTo(bytes(cold));
    assertThat(bytes(hit)).isEqualTo(bytes(cold));
    assertThat(bytes(load(acf, cache))).isEqualTo(bytes(cold));
    assertThat(entries(cache)).hasSize(1);
  }

  @Test
  void anEditedAcfMisses(@TempDir Path dir) throws Exception {
    Path acf = write(dir.resolve("a.acf"), RunSummaryTest.COUNTING);
    AcfCache cache = new AcfCache(dir.resolve("cache"), "build 1");
    ProductionSet before = load(acf, cache);
    write(acf, RunSummaryTest.COUNTING.replace("branch", "jump"));
    ProductionSet after = load(acf, cache);
    assertThat(bytes(after)).isNotEqualTo(bytes(before));
    assertThat(bytes(after)).isEqualTo(bytes(load(acf, null)));
    assertThat(entries(cache)).hasSize(2);
  }

  @Test
  void anEditedImportedFileMisses(@TempDir Path dir) throws Exception {
    Path part = write(dir.resolve("part.acf"), REGIONS);
    Path acf = write(dir.resolve("main.acf"), MAIN);
    AcfCache cache = new AcfCache(dir.resolve("cache"), "build 1");
    ProductionSet before = load(acf, cache);
    assertThat(cache.get(cache.lookup(List.of(acf)))).isNotNull();
    write(part, REGIONS.replace("branch", "jump"));
    assertThat(cache.get(cache.lookup(List.of(acf)))).isNull();
    ProductionSet after = load(acf, cache);
    assertThat(bytes(after)).isNotEqualTo(bytes(before));
    assertThat(bytes(after)).isEqualTo(bytes(load(acf, null)));
    // An imported file gone is a miss too, and the compiler's error is reported.
    Files.delete(part);
    assertThat(cache.get(cache.lookup(List.of(acf)))).isNull();
    Captured gone = Captured.run(() -> status(() -> load(acf, cache)));
    assertThat(gone.stderr()).contains("cannot find imported file `part.acf`");
  }

  @Test
  void anotherBuildOrPathOrOrderMisses(@TempDir Path dir) throws Exception {
    Path a = write(dir.resolve("a.acf"), RunSummaryTest.COUNTING);
    Path b = write(dir.resolve("b.acf"), "P9: T.OPCLASS == jump => R9, null\nR9: T.INSN;\n");
    AcfCache one = new AcfCache(dir.resolve("cache"), "build 1");
    load(a, one);
    AcfCache two = new AcfCache(dir.resolve("cache"), "build 2");
    assertThat(two.get(two.lookup(List.of(a)))).isNull();
    assertThat(one.get(one.lookup(List.of(a)))).isNotNull();
    Path copy = write(dir.resolve("copy.acf"), RunSummaryTest.COUNTING);
    assertThat(one.get(one.lookup(List.of(copy)))).isNull();
    AcfLoader.load(List.of(a, b), one);
    assertThat(one.get(one.lookup(List.of(a, b)))).isNotNull();
    assertThat(one.get(one.lookup(List.of(b, a)))).isNull();
  }

  @Test
  void aRebuiltJarMissesTheCache(@TempDir Path dir) throws Exception {
    Path jar = write(dir.resolve("acf.jar"), "the first build");
    String first = AcfCache.singleJar(jar.toString());
    assertThat(first).isEqualTo("jar " + jar + " 15 " + Files.getLastModifiedTime(jar).toMillis());
    Path a = write(dir.resolve("a.acf"), RunSummaryTest.COUNTING);
    AcfCache before = new AcfCache(dir.resolve("cache"), first);
    load(a, before);
    assertThat(before.get(before.lookup(List.of(a)))).isNotNull();

    write(jar, "the second build, longer");
    AcfCache after = new AcfCache(dir.resolve("cache"), AcfCache.singleJar(jar.toString()));
    assertThat(after.get(after.lookup(List.of(a)))).isNull();
    // Same size, only the time moved (a rebuild of equal length): still another build.
    write(jar, "the first build");
    Files.setLastModifiedTime(
        jar, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 5_000));
    String again = AcfCache.singleJar(jar.toString());
    assertThat(again).isNotEqualTo(first);
    AcfCache touched = new AcfCache(dir.resolve("cache"), again);
    assertThat(touched.get(touched.lookup(List.of(a)))).isNull();
  }

  @Test
  void onlyAOneJarClassPathTakesTheShortCut(@TempDir Path dir) throws Exception {
    Path jar = write(dir.resolve("acf.jar"), "jar");
    assertThat(AcfCache.singleJar(jar + java.io.File.pathSeparator + jar)).isNull();
    assertThat(AcfCache.singleJar(dir.toString())).isNull();
    assertThat(AcfCache.singleJar(dir.resolve("missing.jar").toString())).isNull();
    assertThat(AcfCache.singleJar("")).isNull();
  }

  @Test
  void aDamagedEntryIsCompiledAgainSilently(@TempDir Path dir) throws Exception {
    Path acf = write(dir.resolve("a.acf"), RunSummaryTest.COUNTING);
    AcfCache cache = new AcfCache(dir.resolve("cache"), "build 1");
    byte[] expected = bytes(load(acf, cache));
    Path entry = entries(cache).get(0);
    byte[] good = Files.readAllBytes(entry);
    List<byte[]> damaged = new ArrayList<>();
    damaged.add(new byte[0]);
    damaged.add("not a cache entry".getBytes());
    damaged.add(java.util.Arrays.copyOf(good, good.length / 2));
    byte[] flipped = good.clone();
    flipped[flipped.length / 2] ^= 0x40;
    damaged.add(flipped);
    for (byte[] d : damaged) {
      Files.write(entry, d);
      assertThat(cache.get(cache.lookup(List.of(acf)))).isNull();
      Captured c = Captured.run(() -> status(() -> assertSet(expected, load(acf, cache))));
      assertThat(c.stderr()).isEmpty();
      assertThat(c.stdout()).isEmpty();
      assertThat(c.status()).isEqualTo(0);
      assertThat(Files.readAllBytes(entry)).isEqualTo(good); // replaced by a whole one
    }
  }

  @Test
  void aSetWithWarningsIsNotKeptSoTheWarningsShowEveryTime(@TempDir Path dir) throws Exception {
    // An unused replacement is a warning (UnusedReplacementLint).
    Path acf = write(dir.resolve("w.acf"), RunSummaryTest.COUNTING + "Unused: T.INSN; T.INSN;\n");
    AcfCache cache = new AcfCache(dir.resolve("cache"), "build 1");
    Captured first = Captured.run(() -> status(() -> load(acf, cache)));
    assertThat(first.stderr()).contains("warning");
    assertThat(entries(cache)).isEmpty();
    Captured second = Captured.run(() -> status(() -> load(acf, cache)));
    assertThat(second.stderr()).isEqualTo(first.stderr());
  }

  @Test
  void anUnwritableCacheOnlyCostsTheCompilation(@TempDir Path dir) throws Exception {
    Path acf = write(dir.resolve("a.acf"), RunSummaryTest.COUNTING);
    Path notADir = write(dir.resolve("file"), "x");
    AcfCache cache = new AcfCache(notADir.resolve("cache"), "build 1");
    Captured c = Captured.run(() -> status(() -> load(acf, cache)));
    assertThat(c.stderr()).isEmpty();
    assertThat(c.status()).isEqualTo(0);
  }

  @Test
  void concurrentRunsShareTheCache(@TempDir Path dir) throws Exception {
    Path acf = write(dir.resolve("a.acf"), RunSummaryTest.COUNTING);
    byte[] expected = bytes(load(acf, null));
    AcfCache cache = new AcfCache(dir.resolve("cache"), "build 1");
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<byte[]>> runs = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        runs.add(pool.submit((Callable<byte[]>) () -> bytes(load(acf, cache))));
      }
      for (Future<byte[]> r : runs) {
        assertThat(r.get()).isEqualTo(expected);
      }
    } finally {
      pool.shutdown();
    }
    assertThat(entries(cache)).hasSize(1);
    try (Stream<Path> s = Files.list(cache.directory())) {
      assertThat(s.filter(p -> p.toString().endsWith(".tmp")).toList()).isEmpty();
    }
  }

  @Test
  void theLeastRecentlyUsedEntriesGoBeyondTheLimit(@TempDir Path dir) throws Exception {
    AcfCache cache = new AcfCache(dir.resolve("cache"), "build 1");
    Files.createDirectories(cache.directory());
    for (int i = 0; i < AcfCache.MAX_ENTRIES + 5; i++) {
      Path old = cache.directory().resolve("old" + i + ".acfc");
      Files.write(old, new byte[] {1});
      Files.setLastModifiedTime(old, java.nio.file.attribute.FileTime.fromMillis(1000L + i));
    }
    Path acf = write(dir.resolve("a.acf"), RunSummaryTest.COUNTING);
    load(acf, cache);
    assertThat(entries(cache)).hasSize(AcfCache.MAX_ENTRIES);
    assertThat(cache.get(cache.lookup(List.of(acf)))).isNotNull();
    assertThat(Files.exists(cache.directory().resolve("old0.acfc"))).isFalse();
  }

  @Test
  void namesSpreadAndDependOnEveryByte() {
    assertThat(AcfCache.name(new byte[] {1, 2})).isNotEqualTo(AcfCache.name(new byte[] {2, 1}));
    assertThat(AcfCache.name(new byte[] {0})).isNotEqualTo(AcfCache.name(new byte[] {0, 0}));
    assertThat(AcfCache.name(new byte[0])).hasLength(32);
  }

  private static ProductionSet load(Path acf, AcfCache cache) {
    return AcfLoader.load(List.of(acf), cache);
  }

  private static void assertSet(byte[] expected, ProductionSet set) {
    assertThat(bytes(set)).isEqualTo(expected);
  }

  private static int status(Runnable r) {
    try {
      r.run();
      return 0;
    } catch (UserError e) {
      System.err.println("acf: " + e.getMessage());
      return e.status();
    }
  }

  static byte[] bytes(ProductionSet set) {
    return ConfigFormat.toBytes(new DeployableConfig("test", set));
  }

  static Path write(Path file, String text) throws IOException {
    Files.writeString(file, text);
    return file;
  }

  static List<Path> entries(AcfCache cache) throws IOException {
    if (!Files.isDirectory(cache.directory())) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(cache.directory())) {
      return s.filter(p -> p.toString().endsWith(".acfc")).sorted().toList();
    }
  }
}
