package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code acf run --acf} as a user runs it, a fresh process each time: the run that reads the
 * compiled set back from the cache writes the same profiles, byte for byte, as a run that compiles
 * it, and loads no class of the compiler, ANTLR, JavaPoet or Jackson's databind (summary.json
 * included).
 */
class AcfCacheRunTest {
  static final Path ROOT = RepositoryRoot.path();

  record Run(
      int status, String stdout, String stderr, List<String> classes, Map<String, String> out) {}

  @Test
  void aCachedRunWritesTheSameProfilesWithoutTheCompiler(@TempDir Path dir) throws Exception {
    Path acf = ROOT.resolve("examples/acf/hot_code_regions.acf");
    Path cache = dir.resolve("cache");
    Run cold = run(dir, "off", "cold", acf);
    Run miss = run(dir, cache.toString(), "miss", acf);
    Run hit = run(dir, cache.toString(), "hit", acf);
    Run noCache = run(dir, cache.toString(), "nocache", acf, "--no-cache");
    assertThat(cold.status()).isEqualTo(0);
    assertThat(cold.stderr()).contains("profile Branch_handler");
    for (Run r : List.of(miss, hit, noCache)) {
      assertThat(r.status()).isEqualTo(cold.status());
      assertThat(r.stdout()).isEqualTo(cold.stdout());
      assertThat(r.stderr()).isEqualTo(cold.stderr());
    }
    assertThat(cold.out().keySet()).contains("summary.json");
    assertThat(cold.out().keySet()).contains("Branch_handler.csv");
    assertThat(miss.out()).isEqualTo(cold.out());
    assertThat(hit.out()).isEqualTo(cold.out());
    try (Stream<Path> s = Files.list(cache)) {
      assertThat(s.filter(p -> p.toString().endsWith(".acfc")).count()).isEqualTo(1);
    }
    assertThat(compilerClasses(cold)).isNotEmpty();
    assertThat(compilerClasses(miss)).isNotEmpty();
    assertThat(compilerClasses(hit)).isEmpty();
    assertThat(compilerClasses(noCache)).isNotEmpty();
  }

  private static List<String> compilerClasses(Run r) {
    return r.classes().stream()
        .filter(
            c ->
                c.startsWith("org.dise.compiler.")
                    || c.startsWith("org.antlr.")
                    || c.startsWith("com.palantir.javapoet.")
                    || c.startsWith("com.squareup.javapoet.")
                    || c.startsWith("com.fasterxml.jackson.databind."))
        .toList();
  }

  /**
   * {@code acf run [extra] --acf ACF --out DIR/out hello} in a fresh JVM with ACF_CACHE; the same
   * --out folder each time, since summary.json records the command.
   */
  private static Run run(Path dir, String cache, String name, Path acf, String... extra)
      throws IOException, InterruptedException {
    Path log = dir.resolve(name + ".classes");
    List<String> cmd =
        AcfJvm.command(List.of("-Xshare:off", "-Xlog:class+load=info:file=" + log), "run");
    cmd.addAll(List.of(extra));
    cmd.addAll(
        List.of(
            "--acf",
            acf.toString(),
            "--out",
            dir.resolve("out").toString(),
            "--max-insns",
            "200K",
            ROOT.resolve("examples/programs/bin/hello").toString()));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().put(AcfCache.ENV, cache);
    pb.environment().remove("ACF_COLOR");
    pb.redirectOutput(dir.resolve(name + ".out").toFile());
    pb.redirectError(dir.resolve(name + ".err").toFile());
    int status = pb.start().waitFor();
    List<String> classes = new ArrayList<>();
    for (String line : Files.readAllLines(log)) {
      // [time][info][class,load] NAME source: ...
      String[] words = line.substring(line.lastIndexOf(']') + 1).trim().split(" ");
      classes.add(words[0]);
    }
    return new Run(
        status,
        Files.readString(dir.resolve(name + ".out")),
        Files.readString(dir.resolve(name + ".err")),
        classes,
        files(dir.resolve("out")));
  }

  private static Map<String, String> files(Path dir) throws IOException {
    Map<String, String> m = new TreeMap<>();
    try (Stream<Path> s = Files.list(dir)) {
      for (Path p : s.toList()) {
        m.put(p.getFileName().toString(), Files.readString(p));
      }
    }
    return m;
  }
}
