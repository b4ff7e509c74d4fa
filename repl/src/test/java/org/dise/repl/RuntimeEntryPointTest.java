package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code acf-runtime.jar} (runtime/session's shaded jar): a configuration from {@code acf compile}
 * runs in a JVM whose class path is that jar alone, so no compiler, ANTLR, JavaPoet, JLine or
 * picocli class can be there, and none is loaded.
 */
class RuntimeEntryPointTest {
  static final Path JAR = ConfigCommandTest.ROOT.resolve("runtime/session/target/acf-runtime.jar");
  static final List<String> FORBIDDEN =
      List.of(
          "org/antlr/",
          "com/squareup/javapoet/",
          "org/jline/",
          "picocli/",
          "org/dise/compiler/",
          "org/dise/codegen/",
          "org/dise/repl/",
          "org/dise/grammar/");

  @Test
  void theJarHoldsNoCompilerClass() throws Exception {
    assertThat(Files.exists(JAR)).isTrue(); // built by runtime/profiles' package phase
    try (ZipFile z = new ZipFile(JAR.toFile())) {
      List<String> bad =
          z.stream()
              .map(e -> e.getName())
              .filter(n -> FORBIDDEN.stream().anyMatch(n::startsWith))
              .toList();
      assertThat(bad).isEmpty();
      assertThat(z.getEntry("org/dise/runtime/cli/RuntimeMain.class")).isNotNull();
      // The instruction table (acf-isa) and the opcodes generated from it at build time.
      assertThat(z.getEntry("org/dise/runtime/isa/Op.class")).isNotNull();
      assertThat(z.getEntry("org/dise/runtime/isa/Opcodes.class")).isNotNull();
    }
  }

  @Test
  void aCompiledConfigurationRunsWithTheRuntimeJarAlone(@TempDir Path dir) throws Exception {
    Path acf = dir.resolve("cc.acf");
    Files.writeString(acf, "import profiles;\nuse calling_context;\n");
    Path cfg = dir.resolve("cc.dcfg");
    assertThat(ConfigCommandTest.acf("compile", acf.toString(), "-o", cfg.toString()).status())
        .isEqualTo(0);
    Path out = dir.resolve("out");
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process p =
        new ProcessBuilder(
                java.toString(),
                "-verbose:class",
                "-cp",
                JAR.toString(),
                "org.dise.runtime.cli.RuntimeMain",
                "run",
                "--config",
                cfg.toString(),
                "--out",
                out.toString(),
                CallingContextOutputTest.PROGRAM.toString())
            .redirectError(dir.resolve("stderr").toFile())
            .start();
    String stdout = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    String stderr = Files.readString(dir.resolve("stderr"));
    assertThat(p.exitValue()).isEqualTo(0);
    assertThat(stdout).contains("checksum ");
    assertThat(stderr).contains("profile CallingContext:");
    List<String> loaded = stdout.lines().filter(l -> l.startsWith("[")).toList();
    assertThat(loaded.stream().filter(l -> l.contains("org.dise.runtime.cli.RuntimeMain")))
        .isNotEmpty();
    for (String prefix : FORBIDDEN) {
      String pkg = prefix.replace('/', '.');
      assertThat(loaded.stream().filter(l -> l.contains(" " + pkg)).toList()).isEmpty();
    }
    assertThat(Files.readString(out.resolve("CallingContext.folded")))
        .contains("main;outer;inner;work ");
    assertThat(Files.exists(out.resolve("CallingContext.pb.gz"))).isTrue();
    assertThat(Files.readString(out.resolve("summary.json"))).contains("\"exit_status\": 0");
  }

  @Test
  void aConfigurationNamingProgramSymbolsIsBoundToTheProgramItRuns(@TempDir Path dir)
      throws Exception {
    Path acf = dir.resolve("in_fn.acf");
    Files.writeString(
        acf,
        "sink sum_hot_loads = region_counter(cost = 40);\n"
            + "P1: T.OPCLASS == load && T.PC >= symbol(sum_hot) && T.PC < symbol_end(sum_hot)"
            + " => R1, null\n"
            + "R1: call(sum_hot_loads, T.PC); T.INSN;\n"
            + "P2: T.PC == symbol(no_such_fn) => R1, null\n");
    Path cfg = dir.resolve("in_fn.dcfg");
    assertThat(ConfigCommandTest.acf("compile", acf.toString(), "-o", cfg.toString()).status())
        .isEqualTo(0);
    Path arrays = ConfigCommandTest.ROOT.resolve("examples/programs/bin/arrays");
    Path stderr = dir.resolve("stderr");
    // A static program has every symbol it will ever have: a missing one is refused, named.
    assertThat(runtime(cfg, arrays, stderr)).isEqualTo(1);
    assertThat(Files.readString(stderr)).contains("has no symbol `no_such_fn`");
    assertThat(Files.readString(stderr)).contains("nothing was run");

    Files.writeString(
        acf, Files.readString(acf).replace("P2: T.PC == symbol(no_such_fn) => R1, null\n", ""));
    assertThat(ConfigCommandTest.acf("compile", acf.toString(), "-o", cfg.toString()).status())
        .isEqualTo(0);
    assertThat(runtime(cfg, arrays, stderr)).isEqualTo(0);
    // sum_hot reads hot_table 512 times per call, 40 calls (docs/custom-profiles.md section 7).
    assertThat(Files.readString(stderr)).containsMatch("0x[0-9a-f]+\\s+sum_hot\\s+20480\\s");
  }

  /** {@code java -jar acf-runtime.jar run --config cfg program}: its status, stderr to a file. */
  private static int runtime(Path cfg, Path program, Path stderr) throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process p =
        new ProcessBuilder(
                java.toString(),
                "-jar",
                JAR.toString(),
                "run",
                "--config",
                cfg.toString(),
                program.toString())
            .redirectError(stderr.toFile())
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    return p.exitValue();
  }

  @Test
  void usageErrorsExitTwoWithTheUsage() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process p =
        new ProcessBuilder(java.toString(), "-jar", JAR.toString(), "run", "prog")
            .redirectErrorStream(true)
            .start();
    String text = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isEqualTo(2);
    assertThat(text).contains("run needs --config FILE and a PROGRAM");
    assertThat(text).contains("Usage: acf-runtime run --config FILE");
  }
}
