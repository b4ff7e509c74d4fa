package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;
import static org.dise.repl.ConfigCommandTest.acf;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.dise.repl.common.FunctionRollUp;
import org.dise.runtime.sink.ProfileTable;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 32, finding 4: {@code call(byfn, symbol(hot))} keys printed as 67338 with no name, and
 * nothing summed PC-keyed profiles per function. Symbol keys now carry their function as {@code
 * T.PC} keys do, and {@code acf report --by function} rolls address-keyed profiles up.
 */
class FunctionKeysTest {
  @Test
  void aMapKeyedBySymbolPrintsTheSymbolsName(@TempDir Path dir) throws Exception {
    Path acfFile = dir.resolve("byfn.acf");
    Files.writeString(
        acfFile,
        "sink byfn = count_map();\n"
            + "Hot: T.OPCLASS == proc_call && T.TARGET == symbol(sum_hot) => R, null\n"
            + "R: call(byfn, symbol(sum_hot)); T.INSN;\n");
    Path out = dir.resolve("out");
    ConfigCommandTest.Result r =
        ConfigCommandTest.runInto(
            acfFile.toString(),
            out,
            RepositoryRoot.resolve("examples/programs/bin/arrays").toString());
    assertThat(r.status()).isEqualTo(0);
    String csv = Files.readString(out.resolve("byfn.csv"));
    assertThat(csv).startsWith("key,function,count\n");
    assertThat(csv).containsMatch("\n0x[0-9a-f]+,sum_hot,\\d+\n");
  }

  @Test
  void reportByFunctionSumsEveryAddressOfAFunction(@TempDir Path dir) throws Exception {
    ProfileTable loads =
        new ProfileTable(
            List.of("key", "function", "count"),
            List.of(
                List.of("0x10", "walk+0x10", "50"),
                List.of("0x20", "main+0x4", "30"),
                List.of("0x14", "walk+0x14", "40")),
            List.of("key"),
            "count");
    ProfileTable pairs = CompareFormatsTest.pairs(4000, 1000);
    Path run = ReportCompareCommandTest.dir(dir, "run", Map.of("loads", loads, "pairs", pairs));
    ConfigCommandTest.Result r = acf("report", "--by", "function", run.toString());
    assertThat(r.status()).isEqualTo(0);
    String text = r.stdout();
    // walk: 50 + 40 from two pcs, first.
    assertThat(text).containsMatch("walk\\s+90\\b");
    assertThat(text).containsMatch("main\\s+30\\b");
    assertThat(text.indexOf("walk")).isLessThan(text.indexOf("main  "));
    assertThat(text).containsMatch("main\\s+hot\\s+4,?000");
    assertThat(FunctionRollUp.function("walk+0x10")).isEqualTo("walk");
    assertThat(FunctionRollUp.function("0x10558")).isEqualTo("0x10558");
  }
}
