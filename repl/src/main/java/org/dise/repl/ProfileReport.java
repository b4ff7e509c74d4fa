package org.dise.repl;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.dise.runtime.dise.CostReport;
import org.dise.runtime.dise.ProfilingEngine;
import org.dise.runtime.elf.SymbolTable;
import org.dise.runtime.sink.ProfileTable;
import org.dise.runtime.sink.Sink;

/** What {@code acf run --acf} prints and writes: top profile entries, costs, CSVs, JSON. */
final class ProfileReport {
  private ProfileReport() {}

  static final int TOP = 10;

  static void summary(ProfilingEngine engine, SymbolTable symbols, PrintStream out) {
    for (Sink s : engine.sinks()) {
      ProfileTable t = s.table(symbols);
      out.printf("profile %s (%d entries)%n", s.name(), t.rows().size());
      for (String line : t.top(TOP)) {
        out.println("  " + line);
      }
      for (String line : s.summary()) {
        out.println("  " + line);
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
        try (Writer w = Files.newBufferedWriter(dir.resolve(s.name() + ".csv"),
            StandardCharsets.UTF_8)) {
          s.table(symbols).writeCsv(w);
        }
        for (Map.Entry<String, String> d : s.documents(symbols).entrySet()) {
          Files.writeString(dir.resolve(s.name() + "." + d.getKey()), d.getValue(),
              StandardCharsets.UTF_8);
        }
      }
      CostReport c = engine.cost();
      String json = c.toJson();
      json = json.substring(0, json.length() - 1) + ", \"exit_status\": " + exitStatus + "}\n";
      Files.writeString(dir.resolve("summary.json"), json, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UserError("--out " + dir + ": cannot write: " + e.getMessage());
    }
  }
}
