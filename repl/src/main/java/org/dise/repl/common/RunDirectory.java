package org.dise.repl.common;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.dise.runtime.sink.ProfileTable;

/**
 * A run's outputs read back from the directory {@code acf run --out DIR} wrote: its profiles
 * (NAME.json) by name, and the cost figures of summary.json. A single profile file stands for a run
 * with that one profile.
 */
public record RunDirectory(
    Path path,
    Map<String, ProfileTable> profiles,
    Map<String, Object> summary,
    Map<String, List<String>> notes) {

  /**
   * Reads a run directory or one profile JSON file.
   *
   * @throws UserError naming the file that is missing or malformed
   */
  public static RunDirectory read(Path path) {
    Map<String, ProfileTable> profiles = new LinkedHashMap<>();
    Map<String, Object> summary = new LinkedHashMap<>();
    Map<String, List<String>> notes = new LinkedHashMap<>();
    if (Files.isRegularFile(path)) {
      String name = path.getFileName().toString().replaceFirst("\\.json$", "");
      profiles.put(name, profile(path));
      notes.put(name, ProfileFormats.notesFromJson(text(path)));
      return new RunDirectory(path, profiles, summary, notes);
    }
    if (!Files.isDirectory(path)
        && path.getFileName() != null
        && path.getFileName().toString().endsWith(".json")) {
      throw new UserError(path + ": no such profile file");
    }
    if (!Files.isDirectory(path)) {
      throw new UserError(
          path + ": no such run directory (write one with acf run --acf X.acf" + " --out DIR)");
    }
    List<Path> files;
    try (Stream<Path> s = Files.list(path)) {
      files = s.filter(p -> p.getFileName().toString().endsWith(".json")).sorted().toList();
    } catch (IOException e) {
      throw new UserError(path + ": cannot read: " + e.getMessage());
    }
    List<Path> trees = files.stream().filter(RunDirectory::isRapTree).toList();
    for (Path f : files) {
      String name = f.getFileName().toString().replaceFirst("\\.json$", "");
      if (isRapTree(f)) {
        continue; // a RAP tree (NAME.tree.json) beside its range profile NAME.json
      }
      if (name.equals("summary")) {
        if (parse(f) instanceof Map<?, ?> m) {
          m.forEach((k, v) -> summary.put(String.valueOf(k), v));
        }
      } else {
        profiles.put(name, profile(f));
        notes.put(name, ProfileFormats.notesFromJson(text(f)));
      }
    }
    if (profiles.isEmpty()) {
      throw new UserError(
          path
              + ": no profiles (NAME.json) in this directory"
              + (trees.isEmpty()
                  ? ""
                  : "; "
                      + trees.get(0).getFileName()
                      + " is a RAP tree, which"
                      + " report and compare read through its range profile NAME.json"));
    }
    return new RunDirectory(path, profiles, summary, notes);
  }

  /** RAP writes its tree as NAME.tree.json beside the range profile NAME.json. */
  private static boolean isRapTree(Path f) {
    return f.getFileName().toString().endsWith(".tree.json");
  }

  private static ProfileTable profile(Path f) {
    try {
      return ProfileFormats.fromJson(text(f));
    } catch (IllegalArgumentException e) {
      throw new UserError(at(f, e));
    }
  }

  /** {@code file:line:col: message} for a JSON error, {@code file: message} otherwise. */
  private static String at(Path f, IllegalArgumentException e) {
    String m = e.getMessage();
    return f + (m.matches("\\d+:\\d+: .*") ? ":" : ": ") + m;
  }

  private static Object parse(Path f) {
    try {
      return Json.parse(text(f));
    } catch (IllegalArgumentException e) {
      throw new UserError(at(f, e));
    }
  }

  private static String text(Path f) {
    try {
      return Files.readString(f, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UserError(f + ": cannot read: " + e.getMessage());
    }
  }
}
