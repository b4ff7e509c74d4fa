package org.dise.compiler;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.dise.compiler.ast.AcfFile;
import org.dise.compiler.diag.Diagnostics;
import org.dise.compiler.diag.SourceFile;
import org.dise.compiler.format.Formatter;
import org.dise.compiler.lower.Lowering;
import org.dise.compiler.parse.AcfParsing;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.dise.config.ConfigException;
import org.dise.runtime.dise.config.ConfigFormat;
import org.dise.runtime.dise.config.DeployableConfig;

/**
 * Fuzz target: the ACF front end, coverage-guided (seeded with the example ACFs). Every input must
 * give diagnostics or a checked program, never an exception; what parses must survive the
 * formatter; what checks must lower, and its configuration must be one the runtime reads back (so
 * {@code acf compile} never writes a file the runtime refuses).
 */
public class AcfFrontendFuzzTarget {
  private static final Frontend FRONTEND = TestSupport.frontend();

  @FuzzTest(maxDuration = "10s")
  void acfSourcesGiveDiagnosticsOrWorkingConfigurations(byte[] data) {
    fuzzerTestOneInput(data);
  }

  /** The entry point of the standalone Jazzer driver (longer runs: scripts/fuzz). */
  public static void fuzzerTestOneInput(byte[] data) {
    String text = new String(data, StandardCharsets.UTF_8);
    Frontend.Result r = FRONTEND.check(new SourceFile("fuzz.acf", text), null);
    if (r.ast().isEmpty()) {
      if (!r.diagnostics().hasErrors()) {
        throw new AssertionError("no AST and no error");
      }
      return;
    }
    String printed = Formatter.format(r.ast().get());
    Optional<AcfFile> again =
        AcfParsing.parse(new SourceFile("fmt.acf", printed), new Diagnostics());
    if (again.isEmpty() || !again.get().equals(r.ast().get())) {
      throw new AssertionError("formatter round trip failed:\n" + printed);
    }
    if (r.program().isEmpty()) {
      return;
    }
    Optional<ProductionSet> set = Lowering.lower(r.program().get(), new Diagnostics());
    if (set.isEmpty() || !set.get().budget().violations(set.get()).isEmpty()) {
      return; // acf compile refuses these with a message
    }
    byte[] bytes = ConfigFormat.toBytes(new DeployableConfig("fuzz.acf", set.get()));
    try {
      ConfigFormat.fromBytes(bytes, "fuzz.dcfg");
    } catch (ConfigException e) {
      throw new AssertionError(
          "compiled configuration refused by the reader: " + e.getMessage() + "\n" + text);
    }
  }
}
