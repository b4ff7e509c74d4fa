package org.dise.experiments;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs one experiment and writes what {@code acf experiment} promises: {@code DIR/NAME.csv}, {@code
 * DIR/NAME.png} and {@code .svg} (further figures as {@code NAME-FIGURE.png}), the experiment's
 * section of the report ({@code DIR/NAME.section.html}) and {@code DIR/index.html} with the
 * sections of every experiment run into DIR so far.
 */
public final class ExperimentRunner {
  private ExperimentRunner() {}

  /** The files written. */
  public record Written(Path csv, List<Path> figures, Path index, Outcome outcome) {}

  /** Runs {@code e}'s plan here, one run after another, and collects it into {@code dir}. */
  public static Written run(Experiment e, Lab lab, Path dir, String command, String version) {
    return run(e, lab, dir, command, version, new InProcessExecutor(), false);
  }

  /**
   * Runs {@code e}'s plan with {@code executor} (runs with a result in {@code dir/runs} are
   * skipped) and collects it into {@code dir}.
   */
  public static Written run(
      Experiment e,
      Lab lab,
      Path dir,
      String command,
      String version,
      Executor executor,
      boolean retry) {
    writable(dir);
    lab.progress(
        "%s: %s on %d program(s)%s",
        e.name(), e.reproduces(), lab.workloads().size(), lab.quick() ? " (quick)" : "");
    executor.execute(Plans.plan(java.util.Map.of(e, lab)), new Results(dir, version), retry);
    return collect(e, lab, dir, command, version);
  }

  static void writable(Path dir) {
    try {
      Files.createDirectories(dir);
    } catch (IOException ex) {
      throw new ExperimentException("--out " + dir + ": cannot create: " + ex.getMessage());
    }
    if (!Files.isWritable(dir)) {
      throw new ExperimentException("--out " + dir + ": not writable");
    }
  }

  /**
   * Builds {@code e}'s CSV, figures, report section and {@code index.html} in {@code dir} from the
   * results of its plan's runs in {@code dir/runs} ({@code acf experiment NAME --collect DIR}). The
   * report's time is the runs' time together, and its start the first run's.
   *
   * @throws ExperimentException if a run has no result, or one from another version
   */
  public static Written collect(Experiment e, Lab lab, Path dir, String command, String version) {
    writable(dir);
    List<Results.Result> results = Plans.results(e, lab, new Results(dir, version));
    Outcome o = e.collect(lab, results.stream().map(Results.Result::value).toList());
    Instant start =
        results.stream()
            .map(Results.Result::started)
            .min(Instant::compareTo)
            .orElse(Instant.now())
            .truncatedTo(ChronoUnit.SECONDS);
    double seconds = results.stream().mapToDouble(Results.Result::seconds).sum();
    double load =
        results.stream()
            .min(java.util.Comparator.comparing(Results.Result::started))
            .map(Results.Result::load)
            .orElse(Double.NaN);
    try {
      Path csv = dir.resolve(e.name() + ".csv");
      try (Writer w = Files.newBufferedWriter(csv, StandardCharsets.UTF_8)) {
        o.data.writeCsv(w, o.settings);
      }
      List<Path> figures = new ArrayList<>();
      List<byte[]> pngs = new ArrayList<>();
      for (int i = 0; i < o.figures.size(); i++) {
        String base = i == 0 ? e.name() : e.name() + "-" + o.figures.get(i).name();
        pngs.add(Charts.write(o.figures.get(i), dir.resolve(base)));
        figures.add(dir.resolve(base + ".png"));
      }
      String section = HtmlReport.section(e, o, lab, command, version, start, seconds, load, pngs);
      Files.writeString(dir.resolve(e.name() + ".section.html"), section);
      Path index = HtmlReport.writeIndex(dir, version);
      lab.progress("%s: wrote %s, %d figure(s), %s", e.name(), csv, figures.size(), index);
      return new Written(csv, figures, index, o);
    } catch (IOException ex) {
      throw new ExperimentException("--out " + dir + ": cannot write: " + ex.getMessage());
    }
  }
}
