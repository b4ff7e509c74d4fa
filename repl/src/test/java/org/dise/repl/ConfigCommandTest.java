package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.dise.repl.common.ExitStatus;
import org.dise.testsupport.Captured;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code acf compile}, {@code acf inspect} and {@code acf run --config}: a compiled ACF runs to the
 * same profile and costs as the ACF itself, and a damaged file is refused with one line naming it
 * and the problem, status 1.
 */
class ConfigCommandTest {
  static final Path ROOT = RepositoryRoot.path();
  static final String ACF = ROOT.resolve("examples/acf/hot_call_pairs.acf").toString();
  static final String PROGRAM = ROOT.resolve("integration-tests/src/test/c/bin/calls").toString();

  record Result(int status, String stdout, String stderr) {}

  static Result acf(String... args) {
    Captured c = Captured.run(() -> Cli.commandLine().execute(args));
    return new Result(c.status(), c.stdout(), c.stderr());
  }

  /**
   * {@code acf run --acf ACF --out OUT MORE...}: a run under productions that keeps its run
   * directory (MORE: further options, then the program and its arguments).
   */
  static Result runInto(String acf, Path out, String... more) {
    List<String> line = new ArrayList<>(List.of("run", "--acf", acf, "--out", out.toString()));
    line.addAll(List.of(more));
    return acf(line.toArray(String[]::new));
  }

  /** What follows the compiler's warnings: the profile and cost lines. */
  static String profile(String stderr) {
    return stderr.substring(stderr.indexOf("profile "));
  }

  @Test
  void compiledConfigurationRunsLikeTheAcfOnEitherEngine(@TempDir Path dir) throws Exception {
    String cfg = dir.resolve("pairs.dcfg").toString();
    Result c = acf("compile", ACF, "-o", cfg);
    assertThat(c.status()).isEqualTo(0);
    assertThat(c.stderr()).contains("acf: wrote " + cfg + " (3 productions, 1 replacement");

    Result inspect = acf("inspect", cfg);
    assertThat(inspect.status()).isEqualTo(0);
    assertThat(inspect.stdout()).contains("format version 4");
    assertThat(inspect.stdout()).contains("P3: T.OPCLASS == proc_call && zero_0 -> R3");
    assertThat(inspect.stdout()).contains("CallPair_handler -> call_pair_counter, 40 cycles");
    assertThat(inspect.stdout()).contains("stall per replacement: 1 cycle\n");
    // An empty section says so instead of leaving a bare heading.
    assertThat(inspect.stdout()).endsWith("triggers: none\n");

    Result fromAcf = acf("run", "--acf", ACF, PROGRAM, "4");
    Result fromConfig = acf("run", "--config", cfg, PROGRAM, "4");
    Result named = acf("run", "--config", cfg, "--engine", "interpreted", PROGRAM, "4");
    assertThat(fromAcf.status()).isEqualTo(0);
    assertThat(profile(fromAcf.stderr())).contains("replacements");
    assertThat(fromConfig.stdout()).isEqualTo(fromAcf.stdout());
    assertThat(profile(fromConfig.stderr())).isEqualTo(profile(fromAcf.stderr()));
    assertThat(named.stderr()).isEqualTo(fromConfig.stderr());
  }

  @Test
  void theRetiredGeneratedEngineIsAUsageErrorThatSaysWhy() throws Exception {
    Result r = acf("run", "--config", "any.dcfg", "--engine", "generated", PROGRAM);
    assertThat(r.status()).isEqualTo(ExitStatus.USAGE);
    assertThat(r.stderr())
        .contains(
            "the generated engine was retired: the interpreted engine, whose replacements are"
                + " emitted into translated code, ran faster on every benchmark"
                + " (docs/benchmarks.md)");
    assertThat(r.stdout()).isEmpty();
    Result bench = acf("bench", "--acf", ACF, "--engine", "both");
    assertThat(bench.status()).isEqualTo(ExitStatus.USAGE);
    assertThat(bench.stderr()).contains("the generated engine was retired");
  }

  @Test
  void damagedFilesAreRefusedInOneLine(@TempDir Path dir) throws Exception {
    Path good = dir.resolve("good.dcfg");
    assertThat(acf("compile", ACF, "-o", good.toString()).status()).isEqualTo(0);
    byte[] bytes = Files.readAllBytes(good);

    Path text = dir.resolve("text.dcfg");
    Files.writeString(text, "not a configuration\n");
    Path version = dir.resolve("version.dcfg");
    byte[] v = bytes.clone();
    v[9] = 9;
    Files.write(version, v);
    Path truncated = dir.resolve("truncated.dcfg");
    Files.write(truncated, Arrays.copyOf(bytes, 20));
    Path corrupt = dir.resolve("corrupt.dcfg");
    byte[] k = bytes.clone();
    k[k.length - 1] ^= 1;
    Files.write(corrupt, k);

    assertThat(refusal(text))
        .isEqualTo("acf: " + text + ": not a DISE configuration (wrong magic number)\n");
    assertThat(refusal(version))
        .isEqualTo(
            "acf: "
                + version
                + ": format version 9 is not supported (this runtime reads versions 2 to 4)\n");
    assertThat(refusal(truncated))
        .isEqualTo(
            "acf: "
                + truncated
                + ": truncated: 20 bytes, the header announces "
                + bytes.length
                + "\n");
    assertThat(refusal(corrupt)).startsWith("acf: " + corrupt + ": corrupt: checksum mismatch");
    assertThat(refusal(corrupt).split("\n")).hasLength(1);
    assertThat(refusal(dir.resolve("none.dcfg")))
        .isEqualTo("acf: " + dir.resolve("none.dcfg") + ": no such file\n");
  }

  static String refusal(Path config) {
    Result run = acf("run", "--config", config.toString(), PROGRAM);
    Result inspect = acf("inspect", config.toString());
    assertThat(run.status()).isEqualTo(1);
    assertThat(inspect.status()).isEqualTo(1);
    assertThat(inspect.stderr()).isEqualTo(run.stderr());
    assertThat(run.stdout()).isEmpty();
    return run.stderr();
  }

  @Test
  void overBudgetSetsAreRefusedByTheCompilerAndByTheRuntime(@TempDir Path dir) throws Exception {
    StringBuilder acf =
        new StringBuilder("sink CallPair_handler = call_pair_counter(cost = 40);\n");
    for (int i = 0; i < 33; i++) {
      acf.append("P")
          .append(i)
          .append(": T.OPCLASS == proc_call && T.PC == ")
          .append(i)
          .append(" => R, null\n");
    }
    acf.append("R: call(CallPair_handler, T.INSN); T.INSN;\n");
    Path big = dir.resolve("big.acf");
    Files.writeString(big, acf);
    Path out = dir.resolve("big.dcfg");
    Result c = acf("compile", big.toString(), "-o", out.toString());
    assertThat(c.status()).isEqualTo(1);
    assertThat(c.stderr())
        .startsWith(
            big
                + ":34:1: error: the program has 33 productions, but"
                + " the pattern table has 32 entries\n");
    assertThat(c.stderr()).endsWith("acf: " + big + ": 1 error; nothing was written\n");
    assertThat(Files.exists(out)).isFalse();

    // A configuration whose own budget is smaller than its tables (written without the
    // compiler's check): the runtime refuses it before running anything.
    Path good = dir.resolve("good.dcfg");
    assertThat(acf("compile", ACF, "-o", good.toString()).status()).isEqualTo(0);
    org.dise.runtime.dise.ProductionSet s =
        org.dise.runtime.dise.config.ConfigFormat.read(good).productions();
    org.dise.runtime.dise.HardwareBudget b = s.budget();
    org.dise.runtime.dise.ProductionSet small =
        new org.dise.runtime.dise.ProductionSet(
            s.productions(),
            s.replacements(),
            s.counters(),
            s.hpsRegisters(),
            s.sinks(),
            s.triggers(),
            s.stallCycles(),
            new org.dise.runtime.dise.HardwareBudget(
                2,
                b.replacementEntries(),
                b.replacementEntryBytes(),
                b.conditionalEntries(),
                b.counters(),
                b.hpsRegisters(),
                b.diseRegisters(),
                b.maxCounterWidth()));
    Path tight = dir.resolve("tight.dcfg");
    // ConfigFormat.write refuses what the reader would refuse: write the bytes as a damaged or
    // foreign writer would.
    java.nio.file.Files.write(
        tight,
        org.dise.runtime.dise.config.ConfigFormat.toBytes(
            new org.dise.runtime.dise.config.DeployableConfig("tight", small)));
    Result r = acf("run", "--config", tight.toString(), PROGRAM);
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.stderr())
        .isEqualTo(
            "acf: "
                + tight
                + ": the production set does not fit the"
                + " hardware budget: 3 productions do not fit the pattern table's 2 entries\n");
  }
}
