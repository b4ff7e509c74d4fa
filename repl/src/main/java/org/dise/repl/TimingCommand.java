package org.dise.repl;

import java.util.concurrent.Callable;
import org.dise.repl.common.ExitStatus;
import org.dise.repl.common.UserError;
import org.dise.runtime.timing.TimingConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code acf timing list}: the timing models and every parameter with its defaults. */
@Command(
    name = "timing",
    description = "The cycle-level timing models (spec/timing.md).",
    footer = {
      "",
      "Examples:",
      "  ./acf timing list      # the models and every parameter with its defaults",
      "  ./acf run --timing ooo --acf examples/acf/hot_call_pairs.acf \\",
      "      examples/programs/bin/jpeg",
      "  ./acf experiment overhead --quick --timing inorder",
    },
    mixinStandardHelpOptions = true)
final class TimingCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "list", description = "list: the models and parameters")
  String what;

  @Override
  public Integer call() {
    if (!what.equals("list")) {
      throw new UserError(
          "acf timing: unknown request `" + what + "` (try: list)", ExitStatus.USAGE);
    }
    System.out.print(list());
    return 0;
  }

  static String list() {
    StringBuilder b = new StringBuilder();
    b.append("models: inorder (StrongARM SA-1110-like, single issue, 5 stages),")
        .append(" ooo (the first paper's 4-wide, 12-stage, 128-entry ROB core, window model),")
        .append(" analytic (one cycle per event, spec/cost-model.md)\n");
    b.append(String.format("%-22s %-9s %-9s %s%n", "parameter", "inorder", "ooo", "meaning"));
    for (TimingConfig.Parameter p : TimingConfig.PARAMETERS) {
      b.append(String.format("%-22s %-9s %-9s %s%n", p.name(), p.inorder(), p.ooo(), p.meaning()));
    }
    b.append("--timing-config FILE sets any of them (`name = value` lines); sources in")
        .append(" spec/timing.md\n");
    return b.toString();
  }
}
