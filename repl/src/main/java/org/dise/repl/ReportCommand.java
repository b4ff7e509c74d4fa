package org.dise.repl;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.dise.repl.common.CostLines;
import org.dise.repl.common.ExitStatus;
import org.dise.repl.common.FunctionRollUp;
import org.dise.repl.common.ProfileFormats;
import org.dise.repl.common.ProfileReport;
import org.dise.repl.common.RunDirectory;
import org.dise.repl.common.UserError;
import org.dise.runtime.sink.ProfileTable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code acf report}: prints the profiles a run wrote (acf run --out DIR) again. */
@Command(
    name = "report",
    description =
        "Print the profiles and costs that `acf run --acf X.acf --out DIR` wrote:"
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
      "  ./acf report --svg prof     # prof/NAME.svg: flame graphs",
      "  ./acf report --by function prof  # address-keyed profiles per function",
      "  ./acf report --by line prof      # per source line (a program built with -g)",
      "  ./acf report --format json prof | jq '.profiles[0].total'",
    },
    mixinStandardHelpOptions = true)
public final class ReportCommand implements Callable<Integer> {
  @Parameters(
      index = "0",
      paramLabel = "DIR",
      description = "A run directory (acf run --out DIR), or one NAME.json profile.")
  Path dir;

  @Option(names = "--top", paramLabel = "N", description = "Entries per profile (default 10).")
  int top = ProfileReport.TOP;

  @Option(
      names = "--profile",
      paramLabel = "NAME",
      description = "Print only this profile (default: every profile).")
  String only;

  @Option(
      names = "--svg",
      description =
          "Also write a flame graph SVG per profile with stacks (calling contexts, call"
              + " pairs, methods) as DIR/NAME.svg, weighted by the profile's first value"
              + " (instructions for calling contexts; DIR/NAME.cycles.svg by cycles).")
  boolean svg;

  /** How entries are grouped. */
  enum By {
    entry,
    function,
    line
  }

  @Option(
      names = "--by",
      paramLabel = "GROUP",
      description =
          "entry (default: each profile's own keys) or function: the weights of a profile keyed"
              + " by code addresses (T.PC, T.TARGET, symbol(NAME), call pairs) summed per"
              + " function (per pair of functions for two addresses); or line: summed per source"
              + " line (lines.c:12) for a program built with -g.")
  By by = By.entry;

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      description =
          "text (default) or json: one document with the same figures (each profile's top"
              + " entries with their shares, total and notes; the cost from summary.json).")
  OutputFormat format = OutputFormat.text;

  @Override
  public Integer call() {
    if (top < 1) {
      throw new UserError("--top must be at least 1, got " + top, ExitStatus.USAGE);
    }
    RunDirectory run = RunDirectory.read(dir);
    if (only != null && !run.profiles().containsKey(only)) {
      throw new UserError(
          dir
              + " has no profile `"
              + only
              + "` (it has "
              + String.join(", ", run.profiles().keySet())
              + ")");
    }
    boolean json = format == OutputFormat.json;
    List<Map<String, Object>> profiles = new java.util.ArrayList<>();
    for (Map.Entry<String, ProfileTable> p : run.profiles().entrySet()) {
      if (only == null || only.equals(p.getKey())) {
        ProfileTable t = p.getValue();
        String byEntry = null;
        if (by != By.entry) {
          java.util.Optional<ProfileTable> rolled =
              by == By.function ? FunctionRollUp.of(t) : FunctionRollUp.byLine(t);
          if (rolled.isEmpty()) {
            byEntry =
                by == By.line && FunctionRollUp.of(t).isPresent()
                    ? "its addresses have no source lines (build the program with -g), so it is"
                        + " printed by entry"
                    : "its keys are not code addresses, so it is printed by entry";
            if (!json) {
              System.out.println("profile " + p.getKey() + ": " + byEntry);
            }
          } else {
            t = rolled.get();
          }
        }
        List<String> notes = run.notes().getOrDefault(p.getKey(), List.of());
        if (json) {
          profiles.add(jsonProfile(p.getKey(), t, notes, byEntry));
          continue;
        }
        ProfileFormats.terminal(p.getKey(), t, top).forEach(System.out::println);
        notes.forEach(n -> System.out.println("  note: " + n));
      }
    }
    if (svg) {
      writeSvgs(run);
    }
    if (json) {
      Map<String, Object> doc = new java.util.LinkedHashMap<>();
      doc.put("run", dir.toString());
      doc.put("profiles", profiles);
      doc.put("cost", only == null && !run.summary().isEmpty() ? run.summary() : null);
      System.out.println(org.dise.repl.common.SummaryJson.write(doc));
      return 0;
    }
    if (only == null && !run.summary().isEmpty()) {
      System.out.println("cost");
      CostLines.of(run.summary()).forEach(l -> System.out.println("  " + l));
    }
    return 0;
  }

  /**
   * One profile as the text shows it: entries, total weight, the top {@code --top} rows (cells by
   * column; whole numbers as numbers) each with its share of the total in percent.
   */
  private Map<String, Object> jsonProfile(
      String name, ProfileTable t, List<String> notes, String byEntry) {
    long total = ProfileFormats.total(t);
    int w = t.header().indexOf(t.weight());
    List<Map<String, Object>> rows = new java.util.ArrayList<>();
    for (List<String> r : t.rows().subList(0, Math.min(top, t.rows().size()))) {
      Map<String, Object> row = new java.util.LinkedHashMap<>();
      for (int i = 0; i < r.size(); i++) {
        String cell = r.get(i);
        boolean whole = cell.matches("-?(0|[1-9][0-9]{0,17})");
        row.put(t.header().get(i), whole ? (Object) Long.parseLong(cell) : cell);
      }
      row.put("share_percent", total == 0 ? 0.0 : 100.0 * Long.parseLong(r.get(w)) / total);
      rows.add(row);
    }
    Map<String, Object> m = new java.util.LinkedHashMap<>();
    m.put("profile", name);
    m.put("entries", (long) t.rows().size());
    m.put("key", t.key());
    m.put("weight", t.weight());
    m.put("total", total);
    m.put("top", rows);
    m.put("notes", notes);
    if (byEntry != null) {
      m.put("by_entry", byEntry);
    }
    return m;
  }

  /** DIR/NAME.svg (and NAME.TYPE.svg for further value types) per profile with stacks. */
  private void writeSvgs(RunDirectory run) {
    Path into = java.nio.file.Files.isDirectory(dir) ? dir : dir.toAbsolutePath().getParent();
    for (Map.Entry<String, ProfileTable> p : run.profiles().entrySet()) {
      if (only != null && !only.equals(p.getKey())) {
        continue;
      }
      var stacks = org.dise.runtime.format.StackProfile.of(p.getValue());
      if (stacks.isEmpty()) {
        continue;
      }
      for (int i = 0; i < stacks.get().types().size(); i++) {
        String type = stacks.get().types().get(i).type();
        Path file = into.resolve(p.getKey() + (i == 0 ? "" : "." + type) + ".svg");
        try {
          java.nio.file.Files.writeString(
              file,
              org.dise.runtime.format.FlameGraph.svg(stacks.get(), i, p.getKey()),
              java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
          throw new UserError(file + ": cannot write: " + UserError.why(e));
        }
        org.dise.repl.common.Verbosity.notice(System.err, "acf: wrote " + file);
      }
    }
  }
}
