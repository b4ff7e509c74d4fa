package org.dise.repl;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.dise.repl.common.ExitStatus;
import org.dise.repl.common.ProfileFormats;
import org.dise.repl.common.RunDirectory;
import org.dise.repl.common.SummaryJson;
import org.dise.repl.common.TimingFigures;
import org.dise.repl.common.UserError;
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
      "",
      "A sampled run (acf run --sampling) wrote NAME.estimate.csv, its whole-program estimate"
          + " (the sampled profile scaled up, spec/sampling.md): compare reads that instead of the"
          + " sampled counts and says so (--no-estimate reads the counts).",
      "",
      "For scripts: --format csv (one line per profile: the metrics) or --format json (the"
          + " metrics, the entries that moved, with names, and what only one run has):",
      "  ./acf compare --format json full sampled | jq '.profiles[0].count_error'",
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
      names = "--no-estimate",
      description =
          "Compare a sampled run's sampled counts, not its NAME.estimate.csv (the default reads"
              + " the estimate when the run wrote one).")
  boolean noEstimate;

  /** How the comparison is printed. */
  enum Format {
    text,
    csv,
    json
  }

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      description = "text (default), csv (the metrics, one line per profile) or json.")
  Format format = Format.text;

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
    List<Map<String, Object>> compared = new ArrayList<>();
    List<String> skipped = new ArrayList<>();
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
      List<ProfileTable> named = List.of(x, y);
      String estimateA = null;
      String estimateB = null;
      if (!noEstimate && weight == null) {
        Path ea = SampledEstimate.file(a, e.getKey());
        Path eb = SampledEstimate.file(b, e.getKey());
        if (ea != null) {
          x = SampledEstimate.read(ea, x);
          estimateA = ea.toString();
        }
        if (eb != null) {
          y = SampledEstimate.read(eb, y);
          estimateB = eb.toString();
        }
      }
      compared.add(compare(e.getKey(), x, y, named, estimateA, estimateB));
    }
    if (compared.isEmpty()) {
      for (String s : skipped) {
        System.out.println("profile " + s + ": no column `" + weight + "`, skipped");
      }
      throw new UserError(
          "no profile common to " + a + " and " + b + " has a column `" + weight + "`",
          ExitStatus.USAGE);
    }
    List<String> onlyA = new ArrayList<>(ra.profiles().keySet());
    onlyA.removeAll(rb.profiles().keySet());
    List<String> onlyB = new ArrayList<>(rb.profiles().keySet());
    onlyB.removeAll(ra.profiles().keySet());
    if (Files.isRegularFile(a) && Files.isRegularFile(b)) {
      onlyA.clear();
      onlyB.clear();
    }
    switch (format) {
      case json -> {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("a", a.toString());
        doc.put("b", b.toString());
        doc.put("profiles", compared);
        doc.put("skipped", skipped);
        doc.put("profiles_only_in_a", onlyA);
        doc.put("profiles_only_in_b", onlyB);
        Map<String, Object> ta = TimingFigures.of(ra.summary());
        Map<String, Object> tb = TimingFigures.of(rb.summary());
        if (!ta.isEmpty() || !tb.isEmpty()) {
          Map<String, Object> t = new LinkedHashMap<>();
          t.put("a", ta.isEmpty() ? null : ta);
          t.put("b", tb.isEmpty() ? null : tb);
          doc.put("timing", t);
        }
        System.out.println(SummaryJson.write(doc));
      }
      case csv -> {
        System.out.println(String.join(",", CSV_COLUMNS));
        for (Map<String, Object> c : compared) {
          List<String> cells = new ArrayList<>();
          for (String col : CSV_COLUMNS) {
            Object v = c.get(col);
            cells.add(v == null ? "" : csv(String.valueOf(v)));
          }
          System.out.println(String.join(",", cells));
        }
      }
      default -> {
        boolean first = true;
        for (Map<String, Object> c : compared) {
          if (!first) {
            System.out.println();
          }
          first = false;
          printText(c);
        }
        for (String s : skipped) {
          System.out.println("profile " + s + ": no column `" + weight + "`, skipped");
        }
        if (!onlyA.isEmpty()) {
          System.out.println("profiles only in A (" + a + "): " + String.join(", ", onlyA));
        }
        if (!onlyB.isEmpty()) {
          System.out.println("profiles only in B (" + b + "): " + String.join(", ", onlyB));
        }
        printTiming(ra, rb);
      }
    }
    return 0;
  }

  /** Each run's timing figures (acf run --timing), when either has them. */
  private void printTiming(RunDirectory ra, RunDirectory rb) {
    List<String> la = TimingFigures.lines(ra.summary());
    List<String> lb = TimingFigures.lines(rb.summary());
    if (la.isEmpty() && lb.isEmpty()) {
      return;
    }
    System.out.println();
    System.out.println("timing, A (" + a + ")" + (la.isEmpty() ? ": not measured (analytic)" : ""));
    la.forEach(l -> System.out.println("  " + l));
    System.out.println("timing, B (" + b + ")" + (lb.isEmpty() ? ": not measured (analytic)" : ""));
    lb.forEach(l -> System.out.println("  " + l));
    Map<String, Object> ta = TimingFigures.of(ra.summary());
    Map<String, Object> tb = TimingFigures.of(rb.summary());
    if (!ta.isEmpty() && !tb.isEmpty()) {
      System.out.printf(
          java.util.Locale.ROOT,
          "  overhead B - A %+.2f points, cycles with profiling B / A %.4f%n",
          (double) tb.get("overhead_pct") - (double) ta.get("overhead_pct"),
          (double) tb.get("cycles_profiled") / (double) ta.get("cycles_profiled"));
    }
  }

  /** The columns of {@code --format csv}, one line per profile compared. */
  static final List<String> CSV_COLUMNS =
      List.of(
          "profile",
          "weight",
          "entries_a",
          "entries_b",
          "total_a",
          "total_b",
          "count_error",
          "hot_set_error",
          "hot_weight_error",
          "stream_overlap",
          "normalized",
          "estimate_a",
          "estimate_b");

  private static String csv(String cell) {
    return cell.contains(",") || cell.contains("\"")
        ? "\"" + cell.replace("\"", "\"\"") + "\""
        : cell;
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

  /** One profile's comparison as data (what every format prints). */
  private Map<String, Object> compare(
      String name,
      ProfileTable x,
      ProfileTable y,
      List<ProfileTable> named,
      String estimateA,
      String estimateB) {
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
    Map<String, Object> c = new LinkedHashMap<>();
    c.put("profile", name);
    c.put("weight", x.weight());
    c.put("entries_a", (long) x.rows().size());
    c.put("entries_b", (long) y.rows().size());
    c.put("total_a", tx);
    c.put("total_b", ty);
    c.put("count_error", finite(Accuracy.countError(exact, estimate)));
    c.put("hot_fraction", hotFraction);
    c.put("hot_entries", (long) Accuracy.hotSet(exact, cut).size());
    c.put("hot_set_error", finite(Accuracy.hotSetError(exact, estimate, hotFraction)));
    c.put("hot_weight", hotWeight);
    c.put("hot_weight_entries", (long) Accuracy.hotWeightSet(exact, hotWeight).size());
    c.put("hot_weight_error", finite(Accuracy.hotWeightSetError(exact, estimate, hotWeight)));
    if (x.header().containsAll(List.of("signature", "share"))) {
      c.put("stream_overlap", finite(StreamOverlap.overlap(shares(x), shares(y))));
    }
    c.put("normalized", normalize);
    c.put("estimate_a", estimateA);
    c.put("estimate_b", estimateB);
    ProfileDiff d = ProfileDiff.of(x, y, named);
    c.put("moved_absolute", entries(d.byAbsoluteChange(top)));
    c.put("moved_relative", entries(d.byRelativeChange(top)));
    c.put("any_moved", !d.byAbsoluteChange(1).isEmpty());
    c.put("only_in_a", entries(d.onlyIn(true)));
    c.put("only_in_b", entries(d.onlyIn(false)));
    return c;
  }

  /** NaN (an empty reference) as null: JSON has no NaN. */
  private static Double finite(double v) {
    return Double.isFinite(v) ? v : null;
  }

  private static double num(Object v) {
    return v == null ? Double.NaN : (double) v;
  }

  private static List<Map<String, Object>> entries(List<ProfileDiff.Entry> list) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (ProfileDiff.Entry e : list) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("key", e.key());
      m.put("label", e.label());
      m.put("a", e.a());
      m.put("b", e.b());
      m.put("change", e.change());
      m.put("relative", e.a() == 0 ? null : e.relative());
      out.add(m);
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private static List<ProfileDiff.Entry> back(Object list) {
    List<ProfileDiff.Entry> out = new ArrayList<>();
    for (Map<String, Object> m : (List<Map<String, Object>>) list) {
      out.add(
          new ProfileDiff.Entry(
              (String) m.get("key"),
              (String) m.get("label"),
              (Long) m.get("a"),
              (Long) m.get("b")));
    }
    return out;
  }

  private void printText(Map<String, Object> c) {
    System.out.printf("profile %s (%s)%n", c.get("profile"), c.get("weight"));
    for (String side : new String[] {"a", "b"}) {
      Object est = c.get("estimate_" + side);
      if (est != null) {
        System.out.printf(
            "  %s is a sampled run: compared through its whole-program estimate %s"
                + " (--no-estimate compares the sampled counts)%n",
            side.toUpperCase(java.util.Locale.ROOT), est);
      }
    }
    System.out.printf(
        "  entries          %,d in A, %,d in B%n", c.get("entries_a"), c.get("entries_b"));
    // The weight's name is in the heading: "total instructions" would push the column out.
    System.out.printf(
        "  total            %,d in A, %,d in B%n", c.get("total_a"), c.get("total_b"));
    System.out.printf(
        "  count error      %.2f%%%s%n",
        100 * num(c.get("count_error")), normalize ? " (B normalized to A's total)" : "");
    long hot = (long) c.get("hot_entries");
    System.out.printf(
        "  hot set error    %.2f%% (A's top %.0f%%: %d %s with ties)%n",
        100 * num(c.get("hot_set_error")), 100 * hotFraction, hot, hot == 1 ? "entry" : "entries");
    // The papers' top 15% of entries can be mostly cold tail; the entries carrying most of the
    // weight are the ones that matter (issue 16).
    System.out.printf(
        "  hot weight error %.2f%% (A's entries carrying %.0f%% of the weight: %d)%n",
        100 * num(c.get("hot_weight_error")), 100 * hotWeight, c.get("hot_weight_entries"));
    if (c.containsKey("stream_overlap")) {
      System.out.printf(
          "  stream overlap   %.2f%% (equation 5)%n", 100 * num(c.get("stream_overlap")));
    }
    if (!(boolean) c.get("any_moved")) {
      System.out.println("  no entry moved");
      return;
    }
    if (top > 0) {
      System.out.println("  moved most, by absolute change (B - A)");
      ProfileDiff.table(back(c.get("moved_absolute"))).forEach(l -> System.out.println("    " + l));
      List<ProfileDiff.Entry> rel = back(c.get("moved_relative"));
      if (!rel.isEmpty()) {
        System.out.println("  moved most, by relative change ((B - A) / A)");
        ProfileDiff.table(rel).forEach(l -> System.out.println("    " + l));
      }
    }
    for (boolean side : new boolean[] {true, false}) {
      List<ProfileDiff.Entry> only = back(c.get(side ? "only_in_a" : "only_in_b"));
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
