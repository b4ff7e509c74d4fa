package org.dise.experiments;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.dise.runtime.profiles.sink.rap.RapSink;
import org.dise.runtime.sink.Sink;

/**
 * Range Adaptive Profiling (Mysore et al., Figs. 7 and 8): the RAP tree's node count (memory, 128
 * bits a node) and the percent error of its hot ranges against exact counts, for code (the pcs of
 * control transfers) and load value streams, over epsilon.
 */
public final class RapExperiment extends SplitExperiment {
  /** "each node requiring about 128 bits of memory" (Section 4.2). */
  static final int NODE_BYTES = 16;

  public RapExperiment() {
    super(
        new About(
            "rap",
            "Mysore et al., Profiling over Adaptive Ranges, Figs. 7 and 8 (nodes and error vs"
                + " epsilon)",
            "RAP tree size (maximum and average nodes, bytes) and the maximum and average"
                + " percent error of the hot ranges, for code and load value streams, versus epsilon.",
            "phases:1:ABCD",
            "jpeg:1,lz77:1,mcf:1,interp:1,chess:1"));
  }

  static List<Integer> epsilonsPpm(boolean quick) {
    return quick ? List.of(10_000, 100_000) : List.of(5_000, 10_000, 20_000, 50_000, 100_000);
  }

  /**
   * The code tree's range: 64 bits by default (a pc); 32 gives the tree height of a 32-bit address
   * space (log4 2^32 = 16 levels), which halves log(R) in the split threshold (our pcs fit in 32
   * bits, so no pc changes). The value tree stays 64 bits.
   */
  static final Option CODE_RANGE_BITS =
      new Option(
          "code_range_bits",
          "64",
          "64",
          "the code tree's range_bits, comma-separated (e.g. 64,32: each epsilon at both)");

  @Override
  public List<Option> options() {
    return List.of(CODE_RANGE_BITS);
  }

  static String acf(int ppm) {
    return acf(ppm, 64);
  }

  static String acf(int ppm, long codeRangeBits) {
    return "import rap;\n"
        + "sink Code = rap_tree(cost = 0, epsilon_ppm = "
        + ppm
        + ", code = true, range_bits = "
        + codeRangeBits
        + ");\n"
        + "sink Values = rap_tree(cost = 0, epsilon_ppm = "
        + ppm
        + ");\n"
        + "use hot_code_ranges(ranges = Code);\n"
        + "use load_value_ranges(ranges = Values);\n";
  }

  /** The table's columns; a run's result holds its rows in this order. */
  static final String[] COLUMNS = {
    "program",
    "stream",
    "range_bits",
    "epsilon_pct",
    "events",
    "max_nodes",
    "average_nodes",
    "max_bytes",
    "hot_ranges",
    "max_error_pct",
    "average_error_pct",
    "steady_max_nodes"
  };

  /** One run per code range, epsilon and program, in that order. */
  @Override
  public List<RunSpec> plan(Lab lab) {
    List<Long> codeBits = lab.counts(CODE_RANGE_BITS);
    for (long b : codeBits) {
      if (b > 64) {
        throw new ExperimentException("--set code_range_bits: at most 64, not " + b);
      }
    }
    List<RunSpec> out = new ArrayList<>();
    for (long bits : codeBits) {
      for (int ppm : epsilonsPpm(lab.quick())) {
        for (Workload w : lab.workloads()) {
          Map<String, String> settings = new java.util.TreeMap<>();
          settings.put("epsilon_ppm", Integer.toString(ppm));
          settings.put("code_range_bits", Long.toString(bits));
          // The value tree does not change with the code tree's range: the first range's run
          // reports it, the others do not.
          settings.put("values", Boolean.toString(bits == codeBits.get(0)));
          settings.put("acf", acf(ppm, bits));
          out.add(
              lab.spec(
                  "rap.run",
                  w,
                  settings,
                  String.format(
                      Locale.ROOT,
                      "rap: %-10s epsilon %5.1f%% code range %d bits",
                      w.label(),
                      ppm / 1e4,
                      bits)));
        }
      }
    }
    return out;
  }

  /**
   * One run: a table row per stream reported (code, then values), each with the figures' series it
   * belongs to.
   */
  @Override
  public JsonNode execute(Lab lab, RunSpec spec) {
    Workload w = lab.workload(spec);
    int ppm = Integer.parseInt(spec.setting("epsilon_ppm"));
    long bits = Long.parseLong(spec.setting("code_range_bits"));
    Lab.Run r = lab.run(w, lab.compile("rap.acf", spec.setting("acf")));
    ObjectNode n = Results.MAPPER.createObjectNode();
    ArrayNode rows = n.putArray("rows");
    for (Sink s : r.engine().sinks()) {
      if (!(s instanceof RapSink rap)) {
        continue;
      }
      String stream = s.name().equals("Code") ? "code" : "value";
      if (stream.equals("value") && !Boolean.parseBoolean(spec.setting("values"))) {
        continue;
      }
      // The figures' series: one per code range when several are asked for.
      String series = stream.equals("code") && bits != 64 ? "code, " + bits + "-bit" : stream;
      double[] err = rap.report(r.machine().symbols()).errors();
      ObjectNode row = rows.addObject();
      row.put("series", series);
      ArrayNode cells = row.putArray("cells");
      for (Object c :
          List.of(
              w.label(),
              stream,
              (long) rap.tree().config().rangeBits(),
              ppm / 10_000.0,
              rap.tree().events(),
              (long) rap.tree().maxNodes(),
              rap.tree().averageNodes(),
              (long) rap.tree().maxNodes() * NODE_BYTES,
              (long) rap.hotRanges().size(),
              err[0],
              err[1],
              (long) rap.tree().steadyMaxNodes())) {
        cells.add(OutcomeJson.cell(c));
      }
    }
    return n;
  }

  @Override
  public Outcome collect(Lab lab, List<JsonNode> results) {
    Table t = new Table(COLUMNS);
    Map<String, List<double[]>> byStream = new LinkedHashMap<>(); // stream -> {eps, nodes, err}
    for (JsonNode n : results) {
      for (JsonNode row : n.path("rows")) {
        List<Object> cells = new ArrayList<>();
        row.path("cells").forEach(c -> cells.add(OutcomeJson.uncell(c.asText())));
        t.add(cells.toArray());
        byStream
            .computeIfAbsent(row.path("series").asText(), k -> new ArrayList<>())
            .add(
                new double[] {
                  num(cells, "epsilon_pct"),
                  num(cells, "max_nodes"),
                  num(cells, "average_nodes"),
                  num(cells, "max_error_pct"),
                  num(cells, "average_error_pct")
                });
      }
    }
    Outcome o = new Outcome(t);
    // The bindings of acf(...) but epsilon (a column): the code stream's and the values'.
    o.component(
        "Code", "rap_tree", Map.of("cost", "0", "code", "true"), "epsilon_ppm", "range_bits");
    o.component("Values", "rap_tree", Map.of("cost", "0"), "epsilon_ppm");
    List<Figure.Series> nodes = new ArrayList<>();
    List<Figure.Series> errors = new ArrayList<>();
    Map<String, double[]> at10 = new LinkedHashMap<>();
    Map<String, double[]> at1 = new LinkedHashMap<>();
    for (Map.Entry<String, List<double[]>> e : byStream.entrySet()) {
      List<double[]> avg = byEpsilon(e.getValue());
      List<Double> xs = new ArrayList<>();
      List<Double> max = new ArrayList<>();
      List<Double> mean = new ArrayList<>();
      List<Double> emax = new ArrayList<>();
      List<Double> emean = new ArrayList<>();
      for (double[] p : avg) {
        xs.add(p[0]);
        max.add(p[1]);
        mean.add(p[2]);
        emax.add(p[3]);
        emean.add(p[4]);
        if (p[0] == 10.0) {
          at10.put(e.getKey(), p);
        }
        if (p[0] == 1.0) {
          at1.put(e.getKey(), p);
        }
      }
      nodes.add(new Figure.Series(e.getKey() + ", maximum", xs, max));
      nodes.add(new Figure.Series(e.getKey() + ", average", xs, mean));
      errors.add(new Figure.Series(e.getKey() + ", maximum", xs, emax));
      errors.add(new Figure.Series(e.getKey() + ", average", xs, emean));
    }
    o.figure(
        Figure.lines(
                "nodes",
                "RAP tree nodes vs epsilon (Fig. 7; 16 bytes a node)",
                "epsilon, %",
                "nodes",
                nodes)
            .withLogY());
    o.figure(
        Figure.lines(
            "error",
            "Percent error of the hot ranges vs epsilon (Fig. 8)",
            "epsilon, %",
            "percent error of hot ranges",
            errors));
    List<String> streams = new ArrayList<>(List.of("code", "value"));
    byStream.keySet().stream().filter(k -> !streams.contains(k)).forEach(streams::add);
    for (String stream : streams) {
      double[] p10 = at10.get(stream);
      double[] p1 = at1.get(stream);
      boolean code = stream.startsWith("code");
      o.compare(
          stream + ": maximum nodes at epsilon 10%",
          code ? "about 500 (8 KB)" : "under 500",
          p10 == null
              ? "-"
              : String.format(Locale.ROOT, "%.0f (%.1f KB)", p10[1], p10[1] * NODE_BYTES / 1024),
          "Averaged over our programs.");
      o.compare(
          stream + ": average nodes",
          code ? "about 450" : "about 300",
          p10 == null ? "-" : String.format(Locale.ROOT, "%.0f at 10%%", p10[2]),
          "");
      o.compare(
          stream + ": average hot-range error at epsilon 10%",
          code ? "about 2% (98% accurate)" : "3.4% (96.6% accurate)",
          p10 == null ? "-" : String.format(Locale.ROOT, "%.2f%%", p10[4]),
          "");
      o.compare(
          stream + ": average hot-range error at epsilon 1%",
          "negligible",
          p1 == null ? "-" : String.format(Locale.ROOT, "%.2f%%", p1[4]),
          "");
    }
    o.note(
        "Hot ranges: the tree's ranges holding at least epsilon of the events (spec/"
            + "profiles.md); errors against exact counts of the same stream.");
    return o;
  }

  /** The cell of {@code column} in a row of {@link #COLUMNS}, as a double. */
  private static double num(List<Object> cells, String column) {
    return ((Number) cells.get(List.of(COLUMNS).indexOf(column))).doubleValue();
  }

  /** {eps, nodes, avgNodes, maxErr, avgErr} averaged over programs per epsilon. */
  private static List<double[]> byEpsilon(List<double[]> ps) {
    Map<Double, List<double[]>> by = new java.util.TreeMap<>();
    ps.forEach(p -> by.computeIfAbsent(p[0], k -> new ArrayList<>()).add(p));
    List<double[]> out = new ArrayList<>();
    by.forEach(
        (eps, list) -> {
          double[] m = new double[5];
          for (double[] p : list) {
            for (int i = 0; i < 5; i++) {
              m[i] += (Double.isNaN(p[i]) ? 0 : p[i]) / list.size();
            }
          }
          out.add(m);
        });
    return out;
  }
}
