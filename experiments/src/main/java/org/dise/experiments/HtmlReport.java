package org.dise.experiments;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

/**
 * The self-contained HTML report: one section per experiment (figures inline as PNG data, the
 * paper's numbers beside ours, the exact command, the programs' SHA-256s, the data as a table),
 * joined into {@code index.html}.
 */
public final class HtmlReport {
  private HtmlReport() {}

  static String esc(String s) {
    return s.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }

  static String load(double l) {
    return l < 0 || Double.isNaN(l) ? "unknown" : String.format(Locale.ROOT, "%.1f", l);
  }

  static String section(
      Experiment e,
      Outcome o,
      Lab lab,
      String command,
      String version,
      Instant start,
      double seconds,
      double loadAtStart,
      List<byte[]> pngs) {
    StringBuilder h = new StringBuilder();
    h.append("<section id=\"")
        .append(e.name())
        .append("\">\n<h2>")
        .append(esc(e.name()))
        .append(": ")
        .append(esc(e.reproduces()))
        .append("</h2>\n<p>")
        .append(esc(e.summary()))
        .append("</p>\n");
    h.append("<p class=\"meta\">Command: <code>")
        .append(esc(command))
        .append("</code><br>")
        .append("Run ")
        .append(start)
        .append(String.format(Locale.ROOT, ", %.0f s", seconds))
        .append(lab.quick() ? " (quick)" : "")
        .append(", ")
        .append(esc(version))
        .append(", ")
        .append(Runtime.getRuntime().availableProcessors())
        .append(" cores, load average ")
        .append(load(loadAtStart))
        .append(" at the start, ")
        .append(load(Lab.loadAverage()))
        .append(" at the end</p>\n");
    tableHead(h, List.of("program", "SHA-256"));
    for (Workload w : lab.workloads()) {
      row(h, true, List.of(w.label(), w.sha256()));
    }
    h.append("</table>\n");
    if (!o.settings.isEmpty()) {
      h.append("<h3>Settings every run shared</h3>\n");
      tableHead(h, List.of("setting", "value"));
      o.settings.forEach((k, v) -> row(h, true, List.of(k, v)));
      h.append("</table>\n");
    }
    if (!o.comparisons.isEmpty()) {
      h.append("<h3>The paper beside ours</h3>\n");
      tableHead(h, List.of("what", "paper", "ours", "why they differ"));
      for (Comparison c : o.comparisons) {
        row(h, false, List.of(c.what(), c.paper(), c.ours(), c.note()));
      }
      h.append("</table>\n");
    }
    for (int i = 0; i < pngs.size(); i++) {
      h.append("<figure><img alt=\"")
          .append(esc(o.figures.get(i).title()))
          .append("\" src=\"data:image/png;base64,")
          .append(Base64.getEncoder().encodeToString(pngs.get(i)))
          .append("\"><figcaption>")
          .append(esc(o.figures.get(i).title()))
          .append("</figcaption></figure>\n");
    }
    if (!o.notes.isEmpty()) {
      h.append("<h3>Notes</h3>\n<ul>\n");
      o.notes.forEach(n -> h.append("<li>").append(esc(n)).append("</li>\n"));
      h.append("</ul>\n");
    }
    h.append("<details><summary>Data (")
        .append(o.data.rows().size())
        .append(" rows, also <code>")
        .append(e.name())
        .append(".csv</code>)</summary>\n");
    tableHead(h, o.data.columns());
    for (List<Object> r : o.data.rows()) {
      row(h, false, r.stream().map(Table::cell).toList());
    }
    h.append("</table></details>\n</section>\n");
    return h.toString();
  }

  /** A table's start and its header row, the names escaped. */
  private static void tableHead(StringBuilder h, List<String> columns) {
    h.append("<table><tr>");
    columns.forEach(c -> h.append("<th>").append(esc(c)).append("</th>"));
    h.append("</tr>\n");
  }

  /** One row of a table, the cells escaped, as code where {@code code}. */
  private static void row(StringBuilder h, boolean code, List<String> cells) {
    h.append("<tr>");
    for (String c : cells) {
      h.append(code ? "<td><code>" : "<td>").append(esc(c)).append(code ? "</code></td>" : "</td>");
    }
    h.append("</tr>\n");
  }

  /** Joins every section in {@code dir}, in the order of {@link Experiments#all}. */
  static Path writeIndex(Path dir, String version) throws IOException {
    StringBuilder h = new StringBuilder();
    h.append(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
            + "<title>acf experiments</title>\n<style>\n"
            + "body{font-family:sans-serif;max-width:1000px;margin:2em auto;padding:0 1em;"
            + "line-height:1.4}\n"
            + "table{border-collapse:collapse;margin:.5em 0;font-size:90%}\n"
            + "td,th{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}\n"
            + "img{max-width:100%}\n.meta{color:#555;font-size:90%}\n"
            + "section{border-top:2px solid #333;margin-top:2em}\n</style></head><body>\n"
            + "<h1>acf experiments: the papers' results, reproduced</h1>\n");
    h.append("<p class=\"meta\">")
        .append(esc(version))
        .append(", Java ")
        .append(esc(System.getProperty("java.version")))
        .append(", ")
        .append(esc(System.getProperty("os.name")))
        .append(" ")
        .append(esc(System.getProperty("os.arch")))
        .append(". Written ")
        .append(Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS))
        .append(". Each section says how to run it again.</p>\n<ul>\n");
    StringBuilder body = new StringBuilder();
    for (Experiment e : Experiments.all()) {
      Path p = dir.resolve(e.name() + ".section.html");
      if (Files.isRegularFile(p)) {
        h.append("<li><a href=\"#")
            .append(e.name())
            .append("\">")
            .append(e.name())
            .append("</a>: ")
            .append(esc(e.reproduces()))
            .append("</li>\n");
        body.append(Files.readString(p));
      }
    }
    h.append("</ul>\n").append(body).append("</body></html>\n");
    Path index = dir.resolve("index.html");
    Files.writeString(index, h.toString());
    return index;
  }
}
