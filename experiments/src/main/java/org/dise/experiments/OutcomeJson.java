package org.dise.experiments;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * An {@link Outcome} as JSON and back, unchanged: the result of an experiment that runs as one run
 * of its plan (every experiment not yet split into runs). A table cell keeps its type, since the
 * CSV writes a double as {@code %.6g} and every other value as written: {@code d} and the double's
 * exact text, {@code n} and an integer's, {@code s} and a string.
 */
final class OutcomeJson {
  private OutcomeJson() {}

  static JsonNode encode(Outcome o) {
    ObjectNode n = Results.MAPPER.createObjectNode();
    ArrayNode cols = n.putArray("columns");
    o.data.columns().forEach(cols::add);
    ArrayNode rows = n.putArray("rows");
    for (List<Object> r : o.data.rows()) {
      ArrayNode row = rows.addArray();
      for (Object c : r) {
        row.add(cell(c));
      }
    }
    n.set("figures", Results.MAPPER.valueToTree(o.figures));
    n.set("comparisons", Results.MAPPER.valueToTree(o.comparisons));
    n.set("notes", Results.MAPPER.valueToTree(o.notes));
    ObjectNode settings = n.putObject("settings");
    o.settings.forEach(settings::put); // in the outcome's order: the CSV's columns
    return n;
  }

  static String cell(Object c) {
    if (c instanceof Double d) {
      return "d" + d;
    }
    if (c instanceof Long || c instanceof Integer || c instanceof Short || c instanceof Byte) {
      return "n" + c;
    }
    return "s" + c;
  }

  static Object uncell(String s) {
    String v = s.substring(1);
    return switch (s.charAt(0)) {
      case 'd' -> Double.parseDouble(v);
      case 'n' -> Long.parseLong(v);
      default -> v;
    };
  }

  static Outcome decode(JsonNode n) {
    List<String> cols = new ArrayList<>();
    n.path("columns").forEach(c -> cols.add(c.asText()));
    Table t = new Table(cols.toArray(String[]::new));
    for (JsonNode r : n.path("rows")) {
      List<Object> row = new ArrayList<>();
      r.forEach(c -> row.add(uncell(c.asText())));
      t.add(row.toArray());
    }
    Outcome o = new Outcome(t);
    try {
      for (JsonNode f : n.path("figures")) {
        o.figure(Results.MAPPER.treeToValue(f, Figure.class));
      }
      for (JsonNode c : n.path("comparisons")) {
        o.comparisons.add(Results.MAPPER.treeToValue(c, Comparison.class));
      }
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new ExperimentException("a run's result: cannot read its outcome: " + e.getMessage());
    }
    n.path("notes").forEach(x -> o.note(x.asText()));
    n.path("settings")
        .fields()
        .forEachRemaining(e -> o.settings.put(e.getKey(), e.getValue().asText()));
    return o;
  }
}
