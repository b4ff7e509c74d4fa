package org.dise.repl;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.dise.repl.common.ExitStatus;
import org.dise.repl.common.RunDirectory;
import org.dise.repl.common.UserError;
import org.dise.repl.view.HtmlView;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code acf view}: one self-contained HTML page of a written run. */
@Command(
    name = "view",
    description =
        "Write DIR/index.html: one self-contained page (no network) of the run that"
            + " `acf run --acf X.acf --out DIR` wrote, to open in any browser.",
    footer = {
      "",
      "The page has an interactive flame graph of every profile with stacks",
      "(calling contexts, call pairs, methods: click a frame to zoom, type a regular",
      "expression to highlight, pick instructions or cycles), a sortable table of",
      "every profile with symbol names (click a column), the cost report and, for",
      "sampled runs, a timeline of the intervals, their phases and which were sampled",
      "(phases.csv). Exit status 0, 1 when DIR holds no readable profile, 2 for a",
      "usage error.",
      "",
      "Examples:",
      "  ./acf run --acf examples/acf/calling_context.acf --out prof \\",
      "      examples/programs/bin/jpeg",
      "  ./acf view prof && xdg-open prof/index.html",
      "  ./acf view prof -o /tmp/jpeg.html",
    },
    mixinStandardHelpOptions = true)
public final class ViewCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "DIR", description = "A run directory (acf run --out).")
  Path dir;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FILE",
      description = "Write the page here instead of DIR/index.html.")
  Path output;

  @Override
  public Integer call() {
    if (Files.isRegularFile(dir)) {
      throw new UserError(
          dir + ": acf view needs a run directory (acf run --out DIR), not a" + " file",
          ExitStatus.USAGE);
    }
    RunDirectory run = RunDirectory.read(dir);
    Path abs = dir.toAbsolutePath().normalize();
    String title = abs.getFileName() == null ? abs.toString() : abs.getFileName().toString();
    Path file = output != null ? output : dir.resolve("index.html");
    try {
      Files.writeString(file, HtmlView.page(run, title), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UserError(file + ": cannot write: " + UserError.why(e));
    }
    System.out.println(file);
    return 0;
  }
}
