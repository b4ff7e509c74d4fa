package org.dise.repl;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.dise.runtime.sink.ProfileTable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code acf report}: prints the profiles a run wrote (acf run --out DIR) again. */
@Command(
    name = "report",
    description = "Print the profiles and costs that `acf run --acf X.acf --out DIR` wrote:"
        + " the top entries of each profile with their shares and symbol names.",
    footer = {
      "",
      "Reads DIR/NAME.json (one per profile) and DIR/summary.json. Exit status 0, 1 when DIR"
          + " holds no readable profile, 2 for a usage error.",
      "",
      "Examples:",
      "  ./acf run --acf examples/acf/hot_call_pairs.acf --out prof \\",
      "      examples/programs/bin/jpeg",
      "  ./acf report prof",
      "  ./acf report --top 30 --profile CallPair_handler prof",
      "  ./acf report prof/CallPair_handler.json",
    },
    mixinStandardHelpOptions = true)
public final class ReportCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "DIR",
      description = "A run directory (acf run --out DIR), or one NAME.json profile.")
  Path dir;

  @Option(names = "--top", paramLabel = "N", description = "Entries per profile (default 10).")
  int top = ProfileReport.TOP;

  @Option(names = "--profile", paramLabel = "NAME",
      description = "Print only this profile (default: every profile).")
  String only;

  @Override
  public Integer call() {
    if (top < 1) {
      throw new UserError("--top must be at least 1, got " + top, Main.EXIT_USAGE);
    }
    RunDirectory run = RunDirectory.read(dir);
    if (only != null && !run.profiles().containsKey(only)) {
      throw new UserError(dir + " has no profile `" + only + "` (it has "
          + String.join(", ", run.profiles().keySet()) + ")");
    }
    for (Map.Entry<String, ProfileTable> p : run.profiles().entrySet()) {
      if (only == null || only.equals(p.getKey())) {
        ProfileFormats.terminal(p.getKey(), p.getValue(), top).forEach(System.out::println);
        run.notes().getOrDefault(p.getKey(), List.of())
            .forEach(n -> System.out.println("  note: " + n));
      }
    }
    if (only == null && !run.summary().isEmpty()) {
      System.out.println("cost");
      run.summary().forEach((k, v) -> System.out.printf("  %-25s %s%n", k.replace('_', ' '), v));
    }
    return 0;
  }
}
