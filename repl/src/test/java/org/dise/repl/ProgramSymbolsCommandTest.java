package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;
import static org.dise.repl.ConfigCommandTest.acf;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dise.repl.common.Version;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code symbol(NAME)} through the commands a user types: {@code acf check --program}, {@code acf
 * run} refusing a program that lacks a symbol at the ACF's line and column, and one compiled
 * configuration deployed to two builds of a program.
 */
class ProgramSymbolsCommandTest {
  static final Path ROOT = RepositoryRoot.path();
  static final String ACF = ROOT.resolve("examples/acf/array_loads.acf").toString();
  static final String ARRAYS = ROOT.resolve("examples/programs/bin/arrays").toString();
  static final String SHIFTED =
      ROOT.resolve("integration-tests/src/test/c/bin/arrays_shifted").toString();
  static final String HELLO = ROOT.resolve("examples/programs/bin/hello").toString();

  /** The ACF with one symbol misspelt: line 16, column 14 is `symbol_end(hot_tabel)`. */
  static Path misspelt(Path dir) throws Exception {
    Path bad = dir.resolve("bad.acf");
    String text =
        Files.readString(Path.of(ACF), StandardCharsets.UTF_8)
            .replace("symbol_end(hot_table)", "symbol_end(hot_tabel)");
    Files.writeString(bad, text, StandardCharsets.UTF_8);
    assertThat(text.split("\n")[15]).startsWith("    li $dr1, symbol_end(hot_tabel)");
    return bad;
  }

  static String sha256(Path file) throws Exception {
    return java.util.HexFormat.of()
        .formatHex(
            java.security.MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
  }

  /** "function count" per profile row, the pc left out (it differs between builds). */
  static List<String> countsByFunction(String stderr) {
    List<String> out = new ArrayList<>();
    for (String line : stderr.split("\n")) {
      String[] f = line.trim().split("\\s+");
      if (f.length >= 3 && f[0].startsWith("0x")) {
        out.add(f[1] + " " + f[2]);
      }
    }
    return out;
  }

  @Test
  void checkWithProgramAcceptsTheExampleAndPointsAtAMisspeltSymbol(@TempDir Path dir)
      throws Exception {
    ConfigCommandTest.Result ok = acf("check", "--program", ARRAYS, ACF);
    assertThat(ok.status()).isEqualTo(0);
    assertThat(ok.stderr()).isEmpty();

    Path bad = misspelt(dir);
    ConfigCommandTest.Result r = acf("check", "--program", ARRAYS, bad.toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.stderr())
        .contains(bad + ":16:14: error: " + ARRAYS + " has no symbol `hot_tabel`\n");
    assertThat(r.stderr()).contains("    hint: did you mean `hot_table`?");
    // Without a program, the ACF itself is fine: symbols are the program's business.
    assertThat(acf("check", bad.toString()).status()).isEqualTo(0);
  }

  @Test
  void runRefusesAProgramWithoutTheSymbolBeforeItRuns(@TempDir Path dir) throws Exception {
    Path bad = misspelt(dir);
    ConfigCommandTest.Result r = acf("run", "--acf", bad.toString(), ARRAYS);
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.stdout()).isEmpty(); // the guest never started
    assertThat(r.stderr())
        .contains(
            bad
                + ":16:14: error: "
                + ARRAYS
                + " has no symbol `hot_tabel`\n  hint: did you mean `hot_table`?\n");
    assertThat(r.stderr())
        .endsWith("acf: 1 program symbol not found in " + ARRAYS + "; nothing was run\n");
  }

  @Test
  void oneConfigurationServesTwoBuildsAndAProgramWithoutTheSymbolsIsRefused(@TempDir Path dir)
      throws Exception {
    String cfg = dir.resolve("loads.dcfg").toString();
    assertThat(acf("compile", ACF, "-o", cfg).status()).isEqualTo(0);
    ConfigCommandTest.Result inspect = acf("inspect", cfg);
    assertThat(inspect.stdout()).contains("format version 4");
    assertThat(inspect.stdout())
        .contains(
            "program symbols (resolved when the program is loaded):"
                + " symbol(hot_table) at "
                + ACF
                + ":15:14, symbol_end(hot_table) at "
                + ACF
                + ":16:14");
    assertThat(inspect.stdout()).contains("li $dr1, symbol(hot_table)");
    // Provenance: the compiler's version and the SHA-256 of the source it read.
    assertThat(inspect.stdout()).contains("compiler: acf " + Version.VERSION + "\n");
    assertThat(inspect.stdout())
        .contains("source sha256: " + sha256(Path.of(ACF)) + "  " + ACF + "\n");

    List<String> expected = List.of("sum_hot 20480", "pick_hot 10000");
    ConfigCommandTest.Result a = acf("run", "--config", cfg, ARRAYS);
    ConfigCommandTest.Result b = acf("run", "--config", cfg, SHIFTED);
    ConfigCommandTest.Result direct = acf("run", "--acf", ACF, ARRAYS);
    assertThat(a.status()).isEqualTo(0);
    assertThat(countsByFunction(a.stderr())).isEqualTo(expected);
    assertThat(countsByFunction(b.stderr())).isEqualTo(expected);
    assertThat(direct.stderr()).isEqualTo(a.stderr());

    ConfigCommandTest.Result none = acf("run", "--config", cfg, HELLO);
    assertThat(none.status()).isEqualTo(1);
    assertThat(none.stderr())
        .contains(ACF + ":15:14: error: " + HELLO + " has no symbol `hot_table`");
    assertThat(none.stderr()).contains("acf: 2 program symbols not found in " + HELLO);
  }
}
