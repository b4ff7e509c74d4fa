package org.dise.experiments;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

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

  /** The program file's SHA-256, for the report. */
  public String sha256() {
    try (InputStream in = Files.newInputStream(program)) {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      byte[] buf = new byte[1 << 16];
      for (int n; (n = in.read(buf)) > 0; ) {
        md.update(buf, 0, n);
      }
      return HexFormat.of().formatHex(md.digest());
    } catch (IOException e) {
      throw new ExperimentException(program + ": cannot read: " + e.getMessage());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
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
