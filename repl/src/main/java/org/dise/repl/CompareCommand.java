package org.dise.repl;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.dise.runtime.metrics.Accuracy;
import org.dise.runtime.metrics.StreamOverlap;
import org.dise.runtime.sink.ProfileTable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code acf compare}: the papers' accuracy metrics between a reference profile (exhaustive) and an
 * estimate (sampled): count error and top-15% hot set error (first paper, Section 4; phase-based
 * remote profiling paper, Section 3.2.3) and, for hot data streams, the overlap of the bursty
 * tracing paper's equation 5.
 */
@Command(
    name = "compare",
    description =
        "Print the papers' accuracy metrics between two runs' profiles: A is the"
            + " reference (usually exhaustive), B the estimate (usually sampled).",
    footer = {
      "",
      "For every profile both runs wrote (same NAME.json): the error in counts relative to A's"
          + " total, the hot set error (A's top 15%% of entries with ties, missing from B's"
          + " top), and for hot data stream profiles the overlap (equation 5 of the bursty"
          + " tracing paper); then the entries that moved most, by absolute change (B - A) and"
          + " by relative change ((B - A) / A, entries both runs have), and the entries and"
          + " profiles only one run has. Exit status 0, 1 when the runs share no profile or"
          + " cannot be read, 2 for a usage error.",
      "",
      "Examples (the same hot code region profile, exhaustive and sampled):",
      "  ./acf run --acf examples/acf/sampled_regions.acf --out full \\",
      "      examples/programs/bin/phases 2",
      "  ./acf run --acf examples/acf/sampled_regions.acf --sampling periodic:4 \\",
      "      --interval 1M --out sampled examples/programs/bin/phases 2",
      "  ./acf compare --normalize full sampled",
      "  ./acf compare --hot-fraction 0.10 full/Branch_handler.json \\",
      "      sampled/Branch_handler.json",
      "",
      "Two runs of one command, or one ACF on two builds or inputs:",
      "  ./acf compare --top 10 --weight instructions before after",
    },
    mixinStandardHelpOptions = true)
public final class CompareCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "A", description = "The reference run (DIR or NAME.json).")
  Path a;

  @Parameters(index = "1", paramLabel = "B", description = "The estimate (DIR or NAME.json).")
  Path b;

  @Option(
      names = "--hot-fraction",
      paramLabel = "F",
      description = "The hot set's share of A's entries (default 0.15, the papers').")
  double hotFraction = Accuracy.HOT_FRACTION;

  @Option(
      names = "--hot-weight",
      paramLabel = "W",
      description =
          "The weight-based hot set's share of A's total weight (default 0.90;"
              + " spec/profiles.md).")
  double hotWeight = Accuracy.HOT_WEIGHT;

  @Option(
      names = "--normalize",
      description =
          "Scale B's weights so that their total is A's before the count error (for a"
              + " sampled profile that was not scaled up).")
  boolean normalize;

  @Option(
      names = "--weight",
      paramLabel = "COLUMN",
      description =
          "Compare this numeric column instead of each profile's own weight column"
              + " (count, instructions...); profiles without it are skipped with a note.")
  String weight;

  @Option(
      names = "--top",
      paramLabel = "N",
      description =
          "How many entries to list per ranking (default ${DEFAULT-VALUE}; 0 lists" + " none).")
  int top = 5;

  @Override
  public Integer call() {
    if (!(hotFraction > 0 && hotFraction <= 1)) {
      throw new UserError("--hot-fraction must be in (0, 1], got " + hotFraction, ExitStatus.USAGE);
    }
    if (!(hotWeight > 0 && hotWeight <= 1)) {
      throw new UserError("--hot-weight must be in (0, 1], got " + hotWeight, ExitStatus.USAGE);
    }
    RunDirectory ra = RunDirectory.read(a);
    RunDirectory rb = RunDirectory.read(b);
    Map<String, ProfileTable[]> common = new LinkedHashMap<>();
    ra.profiles()
        .forEach(
            (name, t) -> {
              if (rb.profiles().containsKey(name)) {
                common.put(name, new ProfileTable[] {t, rb.profiles().get(name)});
              }
            });
    // Two single files compare with each other whatever their names.
    if (common.isEmpty()
        && java.nio.file.Files.isRegularFile(a)
        && java.nio.file.Files.isRegularFile(b)) {
      common.put(
          ra.profiles().keySet().iterator().next(),
          new ProfileTable[] {
            ra.profiles().values().iterator().next(), rb.profiles().values().iterator().next()
          });
    }
    if (common.isEmpty()) {
      throw new UserError(
          a
              + " and "
              + b
              + " have no profile in common ("
              + a
              + ": "
              + String.join(", ", ra.profiles().keySet())
              + "; "
              + b
              + ": "
              + String.join(", ", rb.profiles().keySet())
              + ")");
    }
    if (top < 0) {
      throw new UserError("--top must be 0 or more, got " + top, ExitStatus.USAGE);
    }
    int compared = 0;
    List<String> skipped = new java.util.ArrayList<>();
    for (Map.Entry<String, ProfileTable[]> e : common.entrySet()) {
      ProfileTable x = e.getValue()[0];
      ProfileTable y = e.getValue()[1];
      if (!x.header().equals(y.header()) || !x.weight().equals(y.weight())) {
        throw new UserError(
            "profile "
                + e.getKey()
                + " has columns "
                + x.header()
                + " in "
                + a
                + " but "
                + y.header()
                + " in "
                + b);
      }
      if (weight != null) {
        if (!x.header().contains(weight)) {
          skipped.add(e.getKey() + " (columns: " + String.join(", ", x.header()) + ")");
          continue;
        }
        x = new ProfileTable(x.header(), x.rows(), x.key(), weight);
        y = new ProfileTable(y.header(), y.rows(), y.key(), weight);
        numeric(e.getKey(), x, a);
        numeric(e.getKey(), y, b);
      }
      if (compared++ > 0) {
        System.out.println();
      }
      print(e.getKey(), x, y);
      printMoves(x, y);
    }
    for (String s : skipped) {
      System.out.println("profile " + s + ": no column `" + weight + "`, skipped");
    }
    if (compared == 0) {
      throw new UserError(
          "no profile common to " + a + " and " + b + " has a column `" + weight + "`",
          ExitStatus.USAGE);
    }
    List<String> onlyA = new java.util.ArrayList<>(ra.profiles().keySet());
    onlyA.removeAll(rb.profiles().keySet());
    List<String> onlyB = new java.util.ArrayList<>(rb.profiles().keySet());
    onlyB.removeAll(ra.profiles().keySet());
    if (!(Files.isRegularFile(a) && Files.isRegularFile(b))) {
      if (!onlyA.isEmpty()) {
        System.out.println("profiles only in A (" + a + "): " + String.join(", ", onlyA));
      }
      if (!onlyB.isEmpty()) {
        System.out.println("profiles only in B (" + b + "): " + String.join(", ", onlyB));
      }
    }
    return 0;
  }

  /** Refuses a --weight column that is not a whole number in every row. */
  private void numeric(String profile, ProfileTable t, Path run) {
    int w = t.header().indexOf(weight);
    for (List<String> r : t.rows()) {
      if (!r.get(w).matches("-?\\d{1,18}")) {
        throw new UserError(
            "--weight "
                + weight
                + ": profile "
                + profile
                + " in "
                + run
                + " has `"
                + r.get(w)
                + "` in that column, not a whole number",
            ExitStatus.USAGE);
      }
    }
  }

  /** The entries that moved most, by absolute and relative change, and those on one side. */
  private void printMoves(ProfileTable x, ProfileTable y) {
    ProfileDiff d = ProfileDiff.of(x, y);
    List<ProfileDiff.Entry> abs = d.byAbsoluteChange(top);
    if (d.byAbsoluteChange(1).isEmpty()) {
      System.out.println("  no entry moved");
      return;
    }
    if (top > 0) {
      System.out.println("  moved most, by absolute change (B - A)");
      ProfileDiff.table(abs).forEach(l -> System.out.println("    " + l));
      List<ProfileDiff.Entry> rel = d.byRelativeChange(top);
      if (!rel.isEmpty()) {
        System.out.println("  moved most, by relative change ((B - A) / A)");
        ProfileDiff.table(rel).forEach(l -> System.out.println("    " + l));
      }
    }
    for (boolean side : new boolean[] {true, false}) {
      List<ProfileDiff.Entry> only = d.onlyIn(side);
      if (!only.isEmpty()) {
        long w = only.stream().mapToLong(e -> side ? e.a() : e.b()).sum();
        System.out.printf(
            "  only in %s         %,d %s (weight %,d)%s%n",
            side ? "A" : "B",
            only.size(),
            only.size() == 1 ? "entry" : "entries",
            w,
            only.size() <= 3
                ? ": " + String.join(", ", only.stream().map(ProfileDiff.Entry::label).toList())
                : "");
      }
    }
  }

  private void print(String name, ProfileTable x, ProfileTable y) {
    Map<String, Long> exact = x.weights();
    Map<String, ? extends Number> estimate = y.weights();
    long tx = ProfileFormats.total(x);
    long ty = ProfileFormats.total(y);
    if (normalize && ty > 0) {
      Map<String, Double> scaled = new LinkedHashMap<>();
      y.weights().forEach((k, v) -> scaled.put(k, v * (double) tx / ty));
      estimate = scaled;
    }
    long positive = exact.values().stream().filter(v -> v > 0).count();
    int cut = (int) Math.max(1, Math.ceil(hotFraction * positive));
    System.out.printf("profile %s (%s)%n", name, x.weight());
    System.out.printf("  entries          %,d in A, %,d in B%n", x.rows().size(), y.rows().size());
    // The weight's name is in the heading: "total instructions" would push the column out.
    System.out.printf("  total            %,d in A, %,d in B%n", tx, ty);
    System.out.printf(
        "  count error      %.2f%%%s%n",
        100 * Accuracy.countError(exact, estimate),
        normalize ? " (B normalized to A's total)" : "");
    int hot = Accuracy.hotSet(exact, cut).size();
    System.out.printf(
        "  hot set error    %.2f%% (A's top %.0f%%: %d %s with ties)%n",
        100 * Accuracy.hotSetError(exact, estimate, hotFraction),
        100 * hotFraction,
        hot,
        hot == 1 ? "entry" : "entries");
    // The papers' top 15% of entries can be mostly cold tail; the entries carrying most of the
    // weight are the ones that matter (issue 16).
    int heavy = Accuracy.hotWeightSet(exact, hotWeight).size();
    System.out.printf(
        "  hot weight error %.2f%% (A's entries carrying %.0f%% of the weight: %d)%n",
        100 * Accuracy.hotWeightSetError(exact, estimate, hotWeight), 100 * hotWeight, heavy);
    if (x.header().containsAll(List.of("signature", "share"))) {
      System.out.printf(
          "  stream overlap   %.2f%% (equation 5)%n",
          100 * StreamOverlap.overlap(shares(x), shares(y)));
    }
  }

  /** A hot data stream profile's heat shares by access signature. */
  private static Map<String, Double> shares(ProfileTable t) {
    int sig = t.header().indexOf("signature");
    int share = t.header().indexOf("share");
    Map<String, Double> out = new LinkedHashMap<>();
    for (List<String> r : t.rows()) {
      double v;
      try {
        v = Double.parseDouble(r.get(share));
      } catch (NumberFormatException e) {
        throw new UserError(
            "a row of the hot data stream profile has share " + r.get(share) + ", not a number");
      }
      out.merge(r.get(sig), v, Double::sum);
    }
    return out;
  }
}
