package org.dise.repl;

import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.dise.runtime.dise.CostReport;
import org.dise.runtime.dise.ProfilingEngine;
import org.dise.runtime.elf.SymbolTable;
import org.dise.runtime.sink.ProfileTable;
import org.dise.runtime.sink.Sink;

/**
 * What {@code acf run --acf} prints and writes: top profile entries with their shares, costs;
 * per sink NAME.csv, NAME.json, NAME.folded (method and call-pair profiles) and the sink's own
 * files (NAME.bb), and summary.json. {@code acf report} prints a written run the same way.
 */
final class ProfileReport {
  private ProfileReport() {}

  static final int TOP = 10;

  static void summary(ProfilingEngine engine, SymbolTable symbols, PrintStream out) {
    for (Sink s : engine.sinks()) {
      for (String line : ProfileFormats.terminal(s.name(), s.table(symbols), TOP)) {
        out.println(line);
      }
      for (String note : s.notes()) {
        out.println("  note: " + note);
      }
    }
    out.println("cost");
    for (String line : engine.cost().describe().split("\n")) {
      out.println("  " + line);
    }
  }

  static void write(ProfilingEngine engine, SymbolTable symbols, Path dir, int exitStatus) {
    try {
      Files.createDirectories(dir);
      for (Sink s : engine.sinks()) {
        ProfileTable t = s.table(symbols);
        StringWriter csv = new StringWriter();
        t.writeCsv(csv);
        write(dir.resolve(s.name() + ".csv"), csv.toString());
        write(dir.resolve(s.name() + ".json"), ProfileFormats.json(s.name(), t, s.notes()));
        Optional<String> folded = ProfileFormats.folded(t);
        if (folded.isPresent()) {
          write(dir.resolve(s.name() + ".folded"), folded.get());
        }
        for (Map.Entry<String, String> f : s.files(symbols).entrySet()) {
          write(dir.resolve(s.name() + "." + f.getKey()), f.getValue());
        }
      }
      CostReport c = engine.cost();
      String json = c.toJson();
      json = json.substring(0, json.length() - 1) + ", \"exit_status\": " + exitStatus + "}\n";
      write(dir.resolve("summary.json"), json);
    } catch (IOException e) {
      throw new UserError("--out " + dir + ": cannot write: " + e.getMessage());
    }
  }

  private static void write(Path file, String text) throws IOException {
    Files.writeString(file, text, StandardCharsets.UTF_8);
  }
}
