package org.dise.repl;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.dise.experiments.Workload;
import org.dise.repl.common.ExitStatus;
import org.dise.repl.common.UserError;

/**
 * A named set of workloads for {@code acf bench --cold --set NAME}, read from {@code
 * examples/programs/sets/NAME.txt}: one {@code NAME PROGRAM ARGS...} a line, where PROGRAM is a
 * path from the repository root or {@code build:X/P}, program P built from fetched sources by
 * {@code scripts/real-programs/X/build.sh} into the user's cache (skipped, with the reason printed,
 * when the sources or the cross compiler cannot be had).
 */
final class BenchSet {
  private BenchSet() {}

  static Path setsDir(Path root) {
    return root.resolve("examples/programs/sets");
  }

  /** One line of a set: a workload's name, its program as written, and its arguments. */
  record Entry(String name, String program, List<String> args) {}

  /** The set's lines, checked for form; {@link #load} also resolves and builds the programs. */
  static List<Entry> read(Path root, String name) throws IOException {
    Path file = setsDir(root).resolve(name + ".txt");
    if (!Files.isRegularFile(file)) {
      throw new UserError(
          "--set " + name + ": no such workload set (" + file + "); known: " + names(root),
          ExitStatus.USAGE);
    }
    List<Entry> out = new ArrayList<>();
    int lineNo = 0;
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      lineNo++;
      String t = line.strip();
      if (t.isEmpty() || t.startsWith("#")) {
        continue;
      }
      String[] f = t.split("\\s+");
      if (f.length < 2) {
        throw new UserError(file + ":" + lineNo + ": expected NAME PROGRAM ARGS...");
      }
      if (!f[1].startsWith("build:") && !Files.isRegularFile(root.resolve(f[1]))) {
        throw new UserError(file + ":" + lineNo + ": " + root.resolve(f[1]) + ": no such program");
      }
      out.add(new Entry(f[0], f[1], List.copyOf(Arrays.asList(f).subList(2, f.length))));
    }
    return out;
  }

  /** The set's workloads, building what must be built; what is skipped is said on {@code notes}. */
  static List<Workload> load(Path root, String name, PrintStream notes) throws IOException {
    List<Workload> out = new ArrayList<>();
    for (Entry e : read(root, name)) {
      Path program =
          e.program().startsWith("build:")
              ? build(root, e.program().substring("build:".length()), notes)
              : root.resolve(e.program());
      if (program != null) {
        out.add(new Workload(e.name(), program, e.args()));
      }
    }
    return out;
  }

  /** The names of the sets in the repository. */
  static List<String> names(Path root) throws IOException {
    Path dir = setsDir(root);
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (var s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith(".txt"))
          .map(n -> n.substring(0, n.length() - 4))
          .sorted()
          .toList();
    }
  }

  /**
   * Builds {@code scripts/real-programs/X} into the cache and returns its program P (from {@code
   * X/P}); null, with a note saying why, when it cannot be built here.
   */
  private static Path build(Path root, String spec, PrintStream notes) throws IOException {
    int slash = spec.indexOf('/');
    if (slash <= 0 || slash == spec.length() - 1) {
      throw new UserError("build:" + spec + ": expected build:SCRIPT_DIR/PROGRAM");
    }
    String x = spec.substring(0, slash);
    Path script = root.resolve("scripts/real-programs").resolve(x).resolve("build.sh");
    if (!Files.isRegularFile(script)) {
      throw new UserError("build:" + x + ": no script " + script);
    }
    Path out = cacheDir().resolve("real-programs").resolve(x);
    Files.createDirectories(out);
    Path log = out.resolve("build.log");
    notes.println("bench: building " + x + " (" + script + ", once) ...");
    try {
      Process p =
          new ProcessBuilder(script.toString(), out.toString())
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      if (!p.waitFor(30, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        notes.println("bench: " + x + " skipped: its build took over 30 minutes");
        return null;
      }
      if (p.exitValue() != 0) {
        String why = Files.readString(log).strip();
        notes.println(
            "bench: "
                + x
                + " skipped: "
                + (p.exitValue() == 3 ? why : "its build failed (see " + log + ")"));
        return null;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
    Path program = out.resolve(spec.substring(slash + 1));
    if (!Files.isRegularFile(program)) {
      throw new UserError("build:" + spec + ": " + script + " did not write " + program);
    }
    return program;
  }

  /** {@code $XDG_CACHE_HOME/acf}, else {@code ~/.cache/acf}. */
  static Path cacheDir() {
    String xdg = System.getenv("XDG_CACHE_HOME");
    return (xdg != null && !xdg.isEmpty()
            ? Path.of(xdg)
            : Path.of(System.getProperty("user.home"), ".cache"))
        .resolve("acf");
  }
}
