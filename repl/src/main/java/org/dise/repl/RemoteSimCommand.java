package org.dise.repl;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import org.dise.center.CenterClient;
import org.dise.center.CenterServer;
import org.dise.center.DeviceReporter;
import org.dise.center.Store;
import org.dise.center.StoreException;
import org.dise.center.StoreUrl;
import org.dise.runtime.Machine;
import org.dise.runtime.dise.DiseEngine;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.dise.ProfilingEngine;
import org.dise.runtime.metrics.Accuracy;
import org.dise.runtime.trigger.ProfileEstimator;
import org.dise.runtime.trigger.SamplingRun;
import org.dise.runtime.trigger.TriggerDriver;
import org.dise.runtime.trigger.TriggerSpec;
import org.dise.runtime.trigger.Triggers;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code acf remote-sim}: many simulated devices against a real center on loopback, with and
 * without phase-ID feedback (phase-based remote profiling paper, Section 3.2.5). Users run one
 * after another, each on its own input and seed, and report at the end of their run; after
 * each user count in {@code --points} the center's merged estimate is compared with the
 * exhaustive profile of all the runs so far.
 */
@Command(name = "remote-sim", mixinStandardHelpOptions = true,
    description = "Simulate N devices reporting to a real optimization center on loopback, with"
        + " and without phase-ID feedback, and print total sampled fraction, bytes sent and the"
        + " merged profile's count and hot-set error against an exhaustive profile.",
    footer = {"", "Each user runs the program on the next line of --inputs (its arguments,"
        + " cycled) with its own seed; the exhaustive profile of each distinct input is made"
        + " once. Users run one after another, so the figures after k users are those of a"
        + " k-user simulation.", "",
        "Examples (docs/benchmarks.md):",
        "  ./acf remote-sim --users 32 --program examples/programs/bin/phases \\",
        "      --inputs examples/remote/phases-inputs.txt \\",
        "      --acf examples/acf/sampled_regions.acf --interval 1M"})
public final class RemoteSimCommand implements Callable<Integer> {
  @Option(names = "--users", required = true, paramLabel = "N",
      description = "Simulated devices (1 to 1024).")
  int users;

  @Option(names = "--program", required = true, paramLabel = "PROG",
      description = "The RISC-V program every device runs.")
  Path program;

  @Option(names = "--inputs", paramLabel = "FILE",
      description = "One line of program arguments per input (blank lines and # comments"
          + " skipped); users take them in turn. Default: every user runs without arguments.")
  Path inputs;

  @Option(names = "--config", paramLabel = "FILE", description = "A deployable configuration.")
  Path config;

  @Option(names = "--acf", paramLabel = "FILE", description = "Or an ACF (repeatable).")
  List<Path> acfs = new ArrayList<>();

  @Option(names = "--sampling", paramLabel = "STRATEGY",
      description = "The devices' trigger (default: ${DEFAULT-VALUE}; feedback needs a"
          + " phase-aware one).")
  String sampling = "phase:third";

  @Option(names = "--interval", paramLabel = "N",
      description = "Sampling interval (default 1M; K, M, G suffixes).")
  String interval = "1M";

  @Option(names = "--threshold", paramLabel = "T",
      description = "Phase similarity threshold of the devices' trackers and the center"
          + " (default: ${DEFAULT-VALUE}).")
  double threshold = 25;

  @Option(names = "--enough", paramLabel = "N",
      description = "The center's 'enough': sampled intervals of a phase after which devices"
          + " skip it (default: ${DEFAULT-VALUE}).")
  long enough = 1;

  @Option(names = "--sink", paramLabel = "NAME",
      description = "The sink whose error is reported (default: the first).")
  String sink;

  @Option(names = "--points", paramLabel = "K", split = ",", splitSynopsisLabel = ",",
      description = "User counts to report after (default: 1, 2, 4, ... up to --users, and"
          + " --users).")
  List<Integer> points;

  @Option(names = "--mode", paramLabel = "MODE",
      description = "both (default), feedback or no-feedback.")
  String mode = "both";

  @Option(names = "--csv", paramLabel = "FILE", description = "Also write the rows as CSV.")
  Path csv;

  /** One reported point. */
  record Row(int users, boolean feedback, double sampledFraction, double countError,
      double hotError, long bytes, long phases, double seconds) {}

  @Override
  public Integer call() throws Exception {
    if (users < 1 || users > 1024) {
      throw new UserError("--users must be 1 to 1024", Main.EXIT_USAGE);
    }
    if ((config == null) == acfs.isEmpty()) {
      throw new UserError("remote-sim needs one of --config FILE or --acf FILE",
          Main.EXIT_USAGE);
    }
    if (!List.of("both", "feedback", "no-feedback").contains(mode)) {
      throw new UserError("--mode " + mode + ": expected both, feedback or no-feedback",
          Main.EXIT_USAGE);
    }
    ProductionSet productions = config != null ? InspectCommand.load(config).productions()
        : AcfLoader.load(acfs);
    TriggerSpec spec;
    try {
      spec = TriggerSpec.parse(sampling)
          .with("interval", Long.toString(Triggers.parseCount("--interval", interval)))
          .with("threshold", Double.toString(threshold));
      if (!spec.phaseAware()) {
        spec = TriggerSpec.parse(sampling)
            .with("interval", Long.toString(Triggers.parseCount("--interval", interval)));
      }
      Triggers.check(spec);
    } catch (IllegalArgumentException e) {
      throw new UserError("sampling: " + e.getMessage(), Main.EXIT_USAGE);
    }
    List<List<String>> lines = inputs();
    TreeSet<Integer> at = new TreeSet<>();
    if (points != null) {
      points.stream().filter(p -> p >= 1 && p <= users).forEach(at::add);
    } else {
      for (int k = 1; k <= users; k *= 2) {
        at.add(k);
      }
    }
    at.add(users);
    List<Path> configFiles = config != null ? List.of(config) : acfs;
    Path work = Files.createTempDirectory("acf-remote-sim");
    List<Row> rows = new ArrayList<>();
    Map<Integer, Map<String, Map<String, Long>>> exact = new HashMap<>();
    System.err.printf("remote-sim: %d users, %s, %d input(s), sampling %s%n", users,
        program.getFileName(), lines.size(), spec.describe());
    for (boolean feedback : modes()) {
      rows.addAll(simulate(feedback, productions, spec, lines, at, configFiles,
          work.resolve(feedback ? "feedback" : "no-feedback"), exact));
    }
    print(rows, System.out);
    if (csv != null) {
      StringBuilder sb = new StringBuilder("users,feedback,sampled_fraction,count_error,"
          + "hot_error,bytes_sent,phases_known,seconds\n");
      for (Row r : rows) {
        sb.append(String.format(Locale.ROOT, "%d,%s,%.6f,%.6f,%.6f,%d,%d,%.1f%n", r.users(),
            r.feedback() ? "on" : "off", r.sampledFraction(), r.countError(), r.hotError(),
            r.bytes(), r.phases(), r.seconds()));
      }
      Files.writeString(csv, sb);
    }
    return 0;
  }

  private List<Boolean> modes() {
    return switch (mode) {
      case "feedback" -> List.of(true);
      case "no-feedback" -> List.of(false);
      default -> List.of(false, true);
    };
  }

  private List<List<String>> inputs() {
    if (inputs == null) {
      return List.of(List.of());
    }
    List<List<String>> out = new ArrayList<>();
    try {
      for (String l : Files.readAllLines(inputs, StandardCharsets.UTF_8)) {
        String t = l.strip();
        if (!t.isEmpty() && !t.startsWith("#")) {
          out.add(Arrays.asList(t.split("\\s+")));
        }
      }
    } catch (IOException e) {
      throw new UserError(inputs + ": cannot read: " + UserError.why(e));
    }
    if (out.isEmpty()) {
      throw new UserError(inputs + ": no inputs (one line of program arguments each)");
    }
    return out;
  }

  private List<Row> simulate(boolean feedback, ProductionSet productions, TriggerSpec spec,
      List<List<String>> lines, TreeSet<Integer> at, List<Path> configFiles, Path dir,
      Map<Integer, Map<String, Map<String, Long>>> exact) throws Exception {
    Store store;
    try {
      store = Store.open(StoreUrl.parse("sqlite:" + dir.resolve("center.db")), 1);
    } catch (StoreException e) {
      throw new UserError(e.getMessage());
    }
    PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
    List<Row> rows = new ArrayList<>();
    long start = System.nanoTime();
    try (CenterServer center = CenterServer.start(store, CenterServer.Settings.defaults()
        .withPort(0).withNoAuth(true).withEnough(enough), quiet)) {
      CenterClient client = new CenterClient(center.url(), Duration.ofSeconds(60));
      Map<String, Long> reference = new HashMap<>();
      long instructions = 0;
      long sampled = 0;
      long bytes = 0;
      String sha = null;
      String sinkName = sink;
      for (int u = 0; u < users; u++) {
        int input = u % lines.size();
        List<String> args = lines.get(input);
        long seed = 0x5eed + u;
        Map<String, Map<String, Long>> ex = exact.get(input);
        if (ex == null) {
          ex = SamplingRun.firstPass(setup(productions, args, seed, null), spec, -1).exact();
          exact.put(input, ex);
        }
        if (sinkName == null) {
          sinkName = ex.keySet().iterator().next();
        } else if (!ex.containsKey(sinkName)) {
          throw new UserError("--sink " + sinkName + ": the productions bind "
              + String.join(", ", ex.keySet()));
        }
        ex.get(sinkName).forEach((k, v) -> reference.merge(k, v, Long::sum));
        DeviceReporter reporter = DeviceReporter.open(new DeviceReporter.Options(center.url(),
            "user" + (u + 1), null, dir.resolve("spool"), "at-end", feedback, 256 * 1024,
            Duration.ofSeconds(60)), program, DeviceReporter.configHash(configFiles), quiet);
        SamplingRun.Result r = SamplingRun.run(setup(productions, args, seed, reporter), spec,
            false, null, -1);
        reporter.finish(r.engine().cost().applicationInstructions(),
            r.outcome().exitStatus());
        if (reporter.spooledParts() > 0) {
          throw new UserError("remote-sim: the center on loopback did not take user " + (u + 1)
              + "'s profile");
        }
        sha = reporter.programSha256();
        for (long i = 0; i < r.driver().intervals(); i++) {
          instructions += r.driver().length(i);
          sampled += r.driver().sampled(i) ? r.driver().length(i) : 0;
        }
        bytes += reporter.bytesSent();
        if (at.contains(u + 1)) {
          JsonNode est = CenterCommand.get(client, "/v1/programs/" + sha + "/estimate?sink="
              + CenterCommand.enc(sinkName));
          Map<String, Double> estimate = new LinkedHashMap<>();
          est.path("estimate").fields().forEachRemaining(e ->
              estimate.put(e.getKey(), e.getValue().asDouble()));
          long phases = CenterCommand.get(client, "/v1/programs/" + sha + "/phases")
              .path("phases").size();
          Row row = new Row(u + 1, feedback, instructions == 0 ? 0
              : (double) sampled / instructions, Accuracy.countError(reference, estimate),
              Accuracy.hotSetError(reference, estimate), bytes, phases,
              (System.nanoTime() - start) / 1e9);
          rows.add(row);
          System.err.printf(Locale.ROOT, "remote-sim: feedback %s, %d user(s): sampled %.4f,"
              + " count error %.4f, hot error %.4f%n", feedback ? "on" : "off", u + 1,
              row.sampledFraction(), row.countError(), row.hotError());
        }
      }
    }
    return rows;
  }

  /** A device's machine and engine for one run; the guest's input is empty, its output dropped. */
  private SamplingRun.Setup setup(ProductionSet productions, List<String> args, long seed,
      DeviceReporter reporter) {
    RunCommand options = new RunCommand();
    options.seed = seed;
    Machine.Options machineOptions = options.options();
    return new SamplingRun.Setup() {
      private Machine machine;
      private ProfilingEngine engine;

      @Override
      public Machine machine() {
        machine = GuestLauncher.load(program, args, machineOptions);
        machine.kernel().setStdio(0, InputStream.nullInputStream(), null);
        machine.kernel().setStdio(1, null, OutputStream.nullOutputStream());
        machine.kernel().setStdio(2, null, OutputStream.nullOutputStream());
        return machine;
      }

      @Override
      public ProfilingEngine engine() {
        return engine = new DiseEngine(productions);
      }

      @Override
      public void started(String pass, TriggerDriver driver) {
        if (reporter != null && pass.equals("sampled run")) {
          reporter.attach(driver, engine.sinks(), machine.symbols());
        }
      }

      @Override
      public TriggerDriver.Listener listener(ProfileEstimator estimator) {
        return reporter == null ? estimator : reporter.listener(estimator);
      }
    };
  }

  static void print(List<Row> rows, PrintStream out) {
    out.println("users  feedback  sampled_fraction  count_error  hot_error  bytes_sent"
        + "  phases_known");
    for (Row r : rows) {
      out.printf(Locale.ROOT, "%5d  %-8s  %16.4f  %11.4f  %9.4f  %10d  %12d%n", r.users(),
          r.feedback() ? "on" : "off", r.sampledFraction(), r.countError(), r.hotError(),
          r.bytes(), r.phases());
    }
  }
}
