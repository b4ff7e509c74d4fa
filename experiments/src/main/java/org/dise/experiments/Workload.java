package org.dise.experiments;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dise.center.DeviceReporter;

/**
 * A program and its arguments, as {@code --programs} names it: {@code NAME[:ARG[:ARG...]]}, where
 * NAME is a program in the workload directory or a path ({@code phases:2}, {@code jpeg:1}).
 */
public record Workload(String label, Path program, List<String> args) {
  public Workload {
    args = List.copyOf(args);
  }

  /** A program named after its file, with {@code args} (a benchmark's row). */
  public static Workload of(Path program, List<String> args) {
    return new Workload(program.getFileName().toString(), program, args);
  }

  /** Parses one {@code --programs} item; {@code dir} holds the named programs. */
  public static Workload parse(String item, Path dir) {
    String[] parts = item.trim().split(":");
    if (parts.length == 0 || parts[0].isBlank()) {
      throw new ExperimentException("--programs: empty program name in `" + item + "`");
    }
    Path program = parts[0].contains("/") ? Path.of(parts[0]) : dir.resolve(parts[0]);
    List<String> args = new ArrayList<>(List.of(parts).subList(1, parts.length));
    if (!Files.isRegularFile(program)) {
      throw new ExperimentException("--programs: " + program + ": no such program");
    }
    String label = program.getFileName() + (args.isEmpty() ? "" : " " + String.join(" ", args));
    return new Workload(label, program, args);
  }

  /** Parses a comma-separated list. */
  public static List<Workload> parseList(String list, Path dir) {
    List<Workload> out = new ArrayList<>();
    for (String item : list.split(",")) {
      if (!item.isBlank()) {
        out.add(parse(item, dir));
      }
    }
    if (out.isEmpty()) {
      throw new ExperimentException("--programs: no program named");
    }
    return out;
  }

  /** The program file's SHA-256, for the report (the digest the center keys programs by). */
  public String sha256() {
    try {
      return DeviceReporter.sha256(program);
    } catch (IOException e) {
      throw new ExperimentException(program + ": cannot read: " + e.getMessage());
    }
  }

  /**
   * The program's path as the guest sees it (its argv[0]: a different spelling of the path changes
   * the start-up's instruction count) and its arguments: what a run specification names.
   */
  public String invocation() {
    return program + (args.isEmpty() ? "" : ":" + String.join(":", args));
  }

  /** The name as {@code --programs} takes it back. */
  public String spec() {
    return program.getFileName() + (args.isEmpty() ? "" : ":" + String.join(":", args));
  }
}
