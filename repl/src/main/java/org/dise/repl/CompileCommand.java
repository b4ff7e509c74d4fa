package org.dise.repl;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.dise.repl.common.RunService;
import org.dise.repl.common.Verbosity;
import org.dise.repl.common.Version;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.dise.config.DeployableConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code acf compile}: an ACF into a deployable configuration (spec/config-format.md). */
@Command(
    name = "compile",
    description =
        "Compile an ACF into a deployable configuration that the runtime loads"
            + " without the compiler.",
    footer = {
      "",
      "Examples:",
      "  ./acf compile examples/acf/hot_call_pairs.acf -o pairs.dcfg",
      "  ./acf compile examples/acf/hot_methods.acf examples/acf/hot_call_pairs.acf \\",
      "      -o both.dcfg",
      "  ./acf inspect pairs.dcfg",
      "  ./acf run --config pairs.dcfg examples/programs/bin/jpeg",
    },
    mixinStandardHelpOptions = true)
public final class CompileCommand implements Callable<Integer> {
  @Parameters(
      arity = "1..*",
      paramLabel = "FILE.acf",
      description = "The ACF to compile; several compose in the order given.")
  List<Path> acfs;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FILE",
      required = true,
      description = "Where to write the configuration.")
  Path output;

  @Override
  public Integer call() {
    ProductionSet set = AcfLoader.load(acfs, "nothing was written");
    RunService.checkBudget(set, acfs.get(0) + ": ");
    // Provenance: which compiler built the set from which bytes (acf inspect shows it).
    DeployableConfig.Provenance provenance =
        new DeployableConfig.Provenance(
            "acf " + Version.VERSION,
            acfs.stream()
                .map(a -> new DeployableConfig.SourceHash(a.toString(), Sha256.of(a)))
                .toList());
    DeployableConfig config =
        new DeployableConfig(
            String.join("+", acfs.stream().map(a -> a.getFileName().toString()).toList()),
            set,
            provenance);
    RunService.writeConfig(config, output, output.toString());
    int p = set.productions().size();
    int r = set.replacements().size();
    Verbosity.debug(
        System.err,
        "ACF sources: " + String.join(", ", acfs.stream().map(Path::toString).toList()));
    Verbosity.notice(
        System.err,
        String.format(
            "acf: wrote %s (%d production%s, %d replacement sequence%s)",
            output, p, p == 1 ? "" : "s", r, r == 1 ? "" : "s"));
    return 0;
  }
}
