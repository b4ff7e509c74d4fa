package org.dise.repl;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dise.repl.common.UserError;
import org.dise.runtime.sink.ProfileTable;

/**
 * A sampled run's whole-program estimate, {@code NAME.estimate.csv} beside its {@code NAME.json}
 * (the sampled profile scaled up, spec/sampling.md), read back as a profile table with the sampled
 * table's key columns and weight, so that {@code acf compare} sets an exhaustive run against what
 * the sampled one estimates rather than against what it happened to count.
 */
final class SampledEstimate {
  private SampledEstimate() {}

  /** The estimate file of profile {@code name} of a run (directory or NAME.json), or null. */
  static Path file(Path run, String name) {
    Path f =
        Files.isDirectory(run)
            ? run.resolve(name + ".estimate.csv")
            : run.resolveSibling(
                run.getFileName().toString().replaceFirst("\\.json$", "") + ".estimate.csv");
    return Files.isRegularFile(f) ? f : null;
  }

  /** The estimate as a table shaped like {@code like} (its key columns, then its weight). */
  static ProfileTable read(Path f, ProfileTable like) {
    List<String> lines;
    try {
      lines = Files.readAllLines(f, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UserError(f + ": cannot read: " + UserError.why(e));
    }
    if (lines.isEmpty() || !lines.get(0).startsWith("key,estimate")) {
      throw new UserError(f + ":1: expected the header `key,estimate`");
    }
    List<String> header = new ArrayList<>(like.key());
    header.add(like.weight());
    List<List<String>> rows = new ArrayList<>();
    for (int i = 1; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.isEmpty()) {
        continue;
      }
      String key;
      String rest;
      if (line.startsWith("\"")) {
        int close = line.indexOf('"', 1);
        if (close < 0) {
          throw new UserError(f + ":" + (i + 1) + ": unterminated quoted key");
        }
        key = line.substring(1, close);
        rest = line.substring(Math.min(line.length(), close + 2));
      } else {
        int comma = line.indexOf(',');
        key = comma < 0 ? line : line.substring(0, comma);
        rest = comma < 0 ? "" : line.substring(comma + 1);
      }
      String[] parts = key.split("\\|", -1);
      if (parts.length != like.key().size()) {
        throw new UserError(
            f
                + ":"
                + (i + 1)
                + ": key `"
                + key
                + "` has "
                + parts.length
                + " parts, but the profile's key is "
                + String.join(", ", like.key()));
      }
      String estimate = rest.contains(",") ? rest.substring(0, rest.indexOf(',')) : rest;
      long w;
      try {
        w = Math.round(Double.parseDouble(estimate));
      } catch (NumberFormatException e) {
        throw new UserError(f + ":" + (i + 1) + ": estimate `" + estimate + "` is not a number");
      }
      List<String> row = new ArrayList<>(List.of(parts));
      row.add(Long.toString(w));
      rows.add(row);
    }
    return new ProfileTable(header, rows, like.key(), like.weight());
  }
}
