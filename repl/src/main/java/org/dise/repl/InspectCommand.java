package org.dise.repl;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.dise.repl.common.SummaryJson;
import org.dise.runtime.dise.config.ConfigFormat;
import org.dise.runtime.dise.config.ConfigPrinter;
import org.dise.runtime.dise.config.DeployableConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code acf inspect}: prints a deployable configuration readably. */
@Command(
    name = "inspect",
    description =
        "Print a deployable configuration (from acf compile): budget, tables, counters,"
            + " sinks and triggers. A corrupt, truncated or wrong-version file is refused (exit 1).",
    footer = {
      "",
      "Examples:",
      "  ./acf compile examples/acf/hot_call_pairs.acf -o pairs.dcfg",
      "  ./acf inspect pairs.dcfg",
      "  ./acf run --config pairs.dcfg examples/programs/bin/jpeg",
      "  ./acf inspect --format json pairs.dcfg | jq .budget",
      "",
      "The layout of the file is in spec/config-format.md.",
    },
    mixinStandardHelpOptions = true)
public final class InspectCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "FILE", description = "The configuration file.")
  Path file;

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      description = "text (default) or json: one document with the same figures.")
  OutputFormat format = OutputFormat.text;

  @Override
  public Integer call() {
    DeployableConfig c = load(file);
    int bytes = (int) file.toFile().length();
    if (format == OutputFormat.json) {
      System.out.println(SummaryJson.write(ConfigPrinter.figures(c, bytes, version(file))));
    } else {
      System.out.print(ConfigPrinter.describe(c, bytes, version(file)));
    }
    return 0;
  }

  /** The format version in the file's header (read() has checked it). */
  private static int version(Path file) {
    try (java.io.DataInputStream in =
        new java.io.DataInputStream(java.nio.file.Files.newInputStream(file))) {
      in.skipNBytes(ConfigFormat.MAGIC.length);
      return in.readUnsignedShort();
    } catch (java.io.IOException e) {
      return ConfigFormat.VERSION;
    }
  }

  /** Reads a configuration, turning every refusal into a one-line user error. */
  static DeployableConfig load(Path file) {
    return org.dise.runtime.session.Productions.config(file);
  }
}
