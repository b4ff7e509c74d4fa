package org.dise.experiments;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A run's share of an experiment's table and figure points, as the run's result: the experiments
 * that run one program per run (sampling, intervals) fill a table and points per program and
 * collect them in plan order. Cells keep their type as {@link OutcomeJson} keeps them (a double
 * prints as {@code %.6g}, NaN included), points are written the same way.
 */
final class TableRows {
  private TableRows() {}

  /** {@code t}'s rows and {@code points} (series name to points) as JSON. */
  static JsonNode encode(Table t, Map<String, List<double[]>> points) {
    ObjectNode n = Results.MAPPER.createObjectNode();
    ArrayNode rows = n.putArray("rows");
    for (List<Object> r : t.rows()) {
      ArrayNode row = rows.addArray();
      r.forEach(c -> row.add(OutcomeJson.cell(c)));
    }
    ArrayNode ps = n.putArray("points"); // an array, not an object: series keep their order
    points.forEach(
        (name, list) -> {
          ObjectNode s = ps.addObject();
          s.put("series", name);
          ArrayNode xs = s.putArray("points");
          for (double[] p : list) {
            ArrayNode a = xs.addArray();
            for (double d : p) {
              a.add(OutcomeJson.cell(d));
            }
          }
        });
    return n;
  }

  /** Adds a result of {@link #encode} to {@code t} and {@code points}. */
  static void addTo(JsonNode n, Table t, Map<String, List<double[]>> points) {
    for (JsonNode r : n.path("rows")) {
      List<Object> row = new ArrayList<>();
      r.forEach(c -> row.add(OutcomeJson.uncell(c.asText())));
      t.add(row.toArray());
    }
    for (JsonNode s : n.path("points")) {
      List<double[]> list =
          points.computeIfAbsent(s.path("series").asText(), k -> new ArrayList<>());
      for (JsonNode p : s.path("points")) {
        double[] a = new double[p.size()];
        for (int i = 0; i < a.length; i++) {
          a[i] = ((Number) OutcomeJson.uncell(p.get(i).asText())).doubleValue();
        }
        list.add(a);
      }
    }
  }
}
