package org.dise.repl.view;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.dise.repl.common.CostLines;
import org.dise.repl.common.Json;
import org.dise.repl.common.ProfileFormats;
import org.dise.repl.common.RunDirectory;
import org.dise.repl.common.UserError;
import org.dise.runtime.format.FlameGraph;
import org.dise.runtime.format.StackProfile;
import org.dise.runtime.sink.ProfileTable;

/**
 * The page {@code acf view DIR} writes: one self-contained HTML file (the script and style inlined,
 * nothing fetched) with a flame graph of every profile with stacks, a sortable table of every
 * profile, the cost report and, for sampled runs, a timeline of intervals and phases. The run's
 * data is embedded as JSON, which view.js lays out in the browser.
 */
public final class HtmlView {
  private HtmlView() {}

  /** Rows per table embedded in the page; the full profile stays in NAME.csv. */
  public static final int MAX_ROWS = 5000;

  public static String page(RunDirectory run, String title) {
    StringBuilder data = new StringBuilder("{\"title\": ").append(Json.quote(title));
    data.append(", \"cost\": ").append(list(CostLines.of(run.summary())));
    data.append(", \"profiles\": [");
    String sep = "";
    for (Map.Entry<String, ProfileTable> e : run.profiles().entrySet()) {
      data.append(sep)
          .append(
              profile(e.getKey(), e.getValue(), run.notes().getOrDefault(e.getKey(), List.of())));
      sep = ",\n";
    }
    data.append("], \"phases\": ").append(phases(run.path())).append('}');
    // Inside <script>, only "</" can end the element early.
    String json = data.toString().replace("</", "<\\/");
    return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        + "<title>acf: "
        + FlameGraph.xml(title)
        + "</title>\n<style>\n"
        + resource("view.css")
        + "</style>\n</head>\n<body>\n"
        + "<noscript>This page draws its flame graphs and tables with JavaScript.</noscript>\n"
        + "<script type=\"application/json\" id=\"acf-data\">"
        + json
        + "</script>\n"
        + "<script>\n"
        + resource("view.js")
        + "</script>\n</body>\n</html>\n";
  }

  private static String profile(String name, ProfileTable t, List<String> notes) {
    StringBuilder sb = new StringBuilder("{\"name\": ").append(Json.quote(name));
    sb.append(", \"columns\": ").append(list(t.header()));
    sb.append(", \"weight\": ").append(Json.quote(t.weight()));
    sb.append(", \"total\": ").append(ProfileFormats.total(t));
    sb.append(", \"count\": ").append(t.rows().size());
    sb.append(", \"notes\": ").append(list(notes));
    sb.append(", \"rows\": [");
    List<List<String>> rows = t.rows().subList(0, Math.min(MAX_ROWS, t.rows().size()));
    for (int i = 0; i < rows.size(); i++) {
      sb.append(i == 0 ? "" : ",").append(list(rows.get(i)));
    }
    sb.append("], \"stacks\": ");
    StackProfile p = StackProfile.of(t).orElse(null);
    if (p == null) {
      sb.append("null");
    } else {
      sb.append("{\"types\": ")
          .append(list(p.types().stream().map(StackProfile.ValueType::type).toList()));
      sb.append(", \"samples\": [");
      String sep = "";
      for (StackProfile.Sample s : p.samples()) {
        sb.append(sep)
            .append('[')
            .append(list(s.stack().stream().map(StackProfile.Frame::name).toList()))
            .append(", [");
        for (int i = 0; i < s.values().length; i++) {
          sb.append(i == 0 ? "" : ",").append(s.values()[i]);
        }
        sb.append("]]");
        sep = ",";
      }
      sb.append("]}");
    }
    return sb.append('}').toString();
  }

  /** DIR/phases.csv as [[interval, phase or null, predicted or null, sampled]], or null. */
  private static String phases(Path dir) {
    Path f = dir.resolve("phases.csv");
    if (!Files.isRegularFile(f)) {
      return "null";
    }
    List<String> lines;
    try {
      lines = Files.readAllLines(f, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UserError(f + ": cannot read: " + UserError.why(e));
    }
    List<String> out = new ArrayList<>();
    for (int i = 1; i < lines.size(); i++) {
      String[] c = lines.get(i).split(",", -1);
      if (c.length != 4
          || !c[0].matches("\\d+")
          || !c[3].matches("[01]")
          || !c[1].matches("-?\\d*")
          || !c[2].matches("-?\\d*")) {
        throw new UserError(
            f
                + ":"
                + (i + 1)
                + ":1: expected interval,phase,predicted,sampled,"
                + " got `"
                + lines.get(i)
                + "`");
      }
      out.add(
          "["
              + c[0]
              + ","
              + (c[1].isEmpty() ? "null" : c[1])
              + ","
              + (c[2].isEmpty() ? "null" : c[2])
              + ","
              + c[3]
              + "]");
    }
    return "[" + String.join(",", out) + "]";
  }

  private static String list(List<String> items) {
    return "[" + String.join(",", items.stream().map(Json::quote).toList()) + "]";
  }

  private static String resource(String name) {
    try (InputStream in = HtmlView.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("view/" + name + " is missing from the jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read view/" + name, e);
    }
  }
}
