package org.dise.repl;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import org.dise.center.DeviceReporter;
import org.dise.center.RemoteSimulation;
import org.dise.center.RemoteSimulation.Row;
import org.dise.center.RetentionSimulation;
import org.dise.center.Store;
import org.dise.center.StoreException;
import org.dise.center.StoreUrl;
import org.dise.repl.common.ExitStatus;
import org.dise.repl.common.GuestFileOptions;
import org.dise.repl.common.RunGuest;
import org.dise.repl.common.RunSampling;
import org.dise.repl.common.UserError;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.linux.HostNames;
import org.dise.runtime.session.ProfilingSession;
import org.dise.runtime.session.SessionOptions;
import org.dise.runtime.trigger.TriggerSpec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code acf remote-sim}: many simulated devices against a real center on loopback, with and
 * without phase-ID feedback (phase-based remote profiling paper, Section 3.2.5), through {@link
 * RemoteSimulation}: up to {@code --parallel} users run at once, each on its own thread, input and
 * seed, and report at the end of their run; after each user count in {@code --points} the center's
 * merged estimate is compared with the exhaustive profile of the users so far.
 */
@Command(
    name = "remote-sim",
    mixinStandardHelpOptions = true,
    description =
        "Simulate N devices reporting to a real optimization center on loopback, with"
            + " and without phase-ID feedback, and print total sampled fraction, bytes sent and the"
            + " merged profile's count and hot-set error against an exhaustive profile.",
    footer = {
      "",
      "Each user runs the program on the next line of --inputs (its arguments,"
          + " cycled) with its own seed; the exhaustive profile of each distinct input is made"
          + " once. Up to --parallel users run at once, started in order; a user hears (with"
          + " feedback) of the uploads finished before it started, and the row for k users is"
          + " the center's state after k uploads. Progress goes to stderr.",
      "",
      "hot_error is the papers' top-15%% hot-set error; hot_unseen counts the hot entries"
          + " no sampled interval of any user saw, weighted_hot the share of the hot set's"
          + " executions that the missed entries carry (spec/remote.md).",
      "",
      "Examples (docs/benchmarks.md):",
      "  ./acf remote-sim --users 32 --program examples/programs/bin/phases \\",
      "      --inputs examples/remote/phases-inputs.txt \\",
      "      --acf examples/acf/sampled_regions.acf --interval 1M"
    })
public final class RemoteSimCommand implements Callable<Integer> {
  @Option(
      names = "--users",
      required = true,
      paramLabel = "N",
      description = "Simulated devices (1 to 1024).")
  int users;

  @Option(
      names = "--program",
      required = true,
      paramLabel = "PROG",
      description = "The RISC-V program every device runs.")
  Path program;

  @Option(
      names = "--inputs",
      paramLabel = "FILE",
      description =
          "One line of program arguments per input (blank lines and # comments"
              + " skipped); users take them in turn. Default: every user runs without arguments.")
  Path inputs;

  @Option(names = "--config", paramLabel = "FILE", description = "A deployable configuration.")
  Path config;

  @Option(names = "--acf", paramLabel = "FILE", description = "Or an ACF (repeatable).")
  List<Path> acfs = new ArrayList<>();

  @Option(
      names = "--sampling",
      paramLabel = "STRATEGY",
      description =
          "The devices' trigger (default: ${DEFAULT-VALUE}; feedback needs a"
              + " phase-aware one).")
  String sampling = "phase:third";

  @Option(
      names = "--interval",
      paramLabel = "N",
      description = "Sampling interval (default 1M; K, M, G suffixes).")
  String interval = "1M";

  @Option(
      names = "--threshold",
      paramLabel = "T",
      description =
          "Phase similarity threshold of the devices' trackers and the center"
              + " (default: ${DEFAULT-VALUE}).")
  double threshold = 25;

  @Option(
      names = "--enough",
      paramLabel = "N",
      description =
          "The center's 'enough': sampled intervals of a phase after which devices"
              + " skip it (default: ${DEFAULT-VALUE}).")
  long enough = 1;

  @Option(
      names = "--sink",
      paramLabel = "NAME",
      description = "The sink whose error is reported (default: the first).")
  String sink;

  @Option(
      names = "--points",
      paramLabel = "K",
      split = ",",
      splitSynopsisLabel = ",",
      description =
          "User counts to report after (default: 1, 2, 4, ... up to --users, and" + " --users).")
  List<Integer> points;

  @Option(
      names = "--mode",
      paramLabel = "MODE",
      description = "both (default), feedback or no-feedback.")
  String mode = "both";

  @Option(
      names = "--parallel",
      paramLabel = "N",
      description =
          "Users running at once, each on its own thread (default: the number of"
              + " cores, ${DEFAULT-VALUE} here).")
  int parallel = Runtime.getRuntime().availableProcessors();

  @Option(
      names = "--simulated-days",
      paramLabel = "D",
      description =
          "Run the uploads at a compressed clock: D simulated days pass over the run, and the"
              + " center's store size is printed per day.")
  Integer simulatedDays;

  @Option(
      names = "--retain",
      paramLabel = "AGE",
      description =
          "With --simulated-days: after each upload drop the parts older than AGE (90s, 2h,"
              + " 1d), as acf center serve --retain does.")
  String retain;

  @Option(names = "--csv", paramLabel = "FILE", description = "Also write the rows as CSV.")
  Path csv;

  /** --retain's age (null: none), checked with --simulated-days. */
  private java.time.Duration retention() {
    if (retain != null && simulatedDays == null) {
      throw new UserError("--retain needs --simulated-days D", ExitStatus.USAGE);
    }
    if (simulatedDays == null) {
      return null;
    }
    if (simulatedDays < 1 || simulatedDays > 3650) {
      throw new UserError("--simulated-days must be 1 to 3650", ExitStatus.USAGE);
    }
    try {
      return retain == null ? null : org.dise.center.Since.age(retain);
    } catch (IllegalArgumentException e) {
      throw new UserError("--retain: " + e.getMessage(), ExitStatus.USAGE);
    }
  }

  @Override
  public Integer call() throws Exception {
    if (users < 1 || users > 1024) {
      throw new UserError("--users must be 1 to 1024", ExitStatus.USAGE);
    }
    if ((config == null) == acfs.isEmpty()) {
      throw new UserError("remote-sim needs one of --config FILE or --acf FILE", ExitStatus.USAGE);
    }
    if (!List.of("both", "feedback", "no-feedback").contains(mode)) {
      throw new UserError(
          "--mode " + mode + ": expected both, feedback or no-feedback", ExitStatus.USAGE);
    }
    // The options alone, before the productions are read: the devices' strategy and interval
    // with acf run's checks and messages, the simulation's own.
    boolean phased;
    try {
      phased = TriggerSpec.parse(sampling).phaseAware();
    } catch (IllegalArgumentException e) {
      throw new UserError("sampling: " + e.getMessage(), ExitStatus.USAGE);
    }
    RunSampling.interval(interval);
    if (parallel < 1 || parallel > 256) {
      throw new UserError("--parallel must be 1 to 256", ExitStatus.USAGE);
    }
    java.time.Duration age = retention();
    ProductionSet productions =
        config != null ? InspectCommand.load(config).productions() : AcfLoader.load(acfs);
    // The devices' trigger as acf run --sampling makes it, with the threshold for a phase-aware
    // strategy only (the others have none).
    TriggerSpec spec =
        new RunSampling(
                sampling, interval, phased ? Double.toString(threshold) : null, null, null, false)
            .trigger(productions, null);
    List<List<String>> lines = inputs();
    SortedSet<Integer> at =
        points != null ? new TreeSet<>(points) : RemoteSimulation.Settings.doubling(users);
    List<Path> configFiles = config != null ? List.of(config) : acfs;
    if (!Files.isRegularFile(program)) {
      throw new UserError(program + ": no such file");
    }
    RemoteSimulation.Settings settings =
        new RemoteSimulation.Settings(
            program,
            DeviceReporter.configHash(configFiles),
            productions,
            spec,
            lines.size(),
            users,
            parallel,
            enough,
            threshold,
            sink,
            at);
    RemoteSimulation sim =
        new RemoteSimulation(
            settings,
            (input, seed) -> {
              // acf run's guest with this seed: each machine its own sandbox and limits.
              RunGuest guest =
                  RunGuest.of(seed, new GuestFileOptions(), List.of(), List.of(), "fail");
              return ProfilingSession.of(
                      SessionOptions.plain(program, lines.get(input)),
                      guest.machine(HostNames.workingDirectory(), System.err),
                      productions)
                  .preparing(
                      m -> {
                        m.kernel().setStdio(0, InputStream.nullInputStream(), null);
                        m.kernel().setStdio(1, null, OutputStream.nullOutputStream());
                        m.kernel().setStdio(2, null, OutputStream.nullOutputStream());
                      });
            },
            line -> {
              System.err.println("remote-sim: " + line);
              System.err.flush();
            });
    if (simulatedDays != null) {
      sim.compressedClock(simulatedDays, age);
    }
    Path work = Files.createTempDirectory("acf-remote-sim");
    Map<Boolean, List<RetentionSimulation.Day>> days = new java.util.LinkedHashMap<>();
    System.err.printf(
        "remote-sim: %d users, %d at once, %s, %d input(s), sampling %s%n",
        users, Math.min(parallel, users), program.getFileName(), lines.size(), spec.describe());
    List<Row> rows = new ArrayList<>();
    try {
      for (boolean feedback : modes()) {
        Path dir = work.resolve(feedback ? "feedback" : "no-feedback");
        Files.createDirectories(dir);
        Store store;
        try {
          store = Store.open(StoreUrl.parse("sqlite:" + dir.resolve("center.db")), 1);
        } catch (StoreException e) {
          throw new UserError(e.getMessage());
        }
        try (store) {
          rows.addAll(sim.run(feedback, store, dir));
        }
        days.put(feedback, sim.days());
      }
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new UserError("remote-sim: " + e.getMessage());
    } finally {
      delete(work); // the centers' stores and the devices' spools
    }
    print(rows, System.out);
    days.forEach(
        (feedback, d) -> {
          if (!d.isEmpty()) {
            printDays(feedback, d, System.out);
          }
        });
    if (csv != null) {
      Files.writeString(csv, csv(rows));
    }
    return 0;
  }

  private static void delete(Path dir) {
    try (var walk = Files.walk(dir)) {
      walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // a temporary directory left behind is harmless
    }
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

  static String csv(List<Row> rows) {
    StringBuilder sb =
        new StringBuilder(
            "users,feedback,sampled_fraction,count_error,"
                + "hot_error,hot_size,hot_unseen,hot_misranked,weighted_hot_error,bytes_sent,"
                + "phases_known,device_phases,seconds\n");
    for (Row r : rows) {
      sb.append(
          String.format(
              Locale.ROOT,
              "%d,%s,%.6f,%.6f,%.6f,%d,%d,%d,%.6f,%d,%d,%d,%.1f%n",
              r.users(),
              r.feedback() ? "on" : "off",
              r.sampledFraction(),
              r.countError(),
              r.hotError(),
              r.hotSize(),
              r.hotUnseen(),
              r.hotMisranked(),
              r.weightedHotError(),
              r.bytes(),
              r.phases(),
              r.devicePhases(),
              r.seconds()));
    }
    return sb.toString();
  }

  /** The center store's size per simulated day, so that a plateau under --retain shows. */
  static void printDays(boolean feedback, List<RetentionSimulation.Day> days, PrintStream out) {
    out.printf("%nfeedback %s: the center's store per simulated day%n", feedback ? "on" : "off");
    out.println("  day  parts  profile_rows     bytes  dropped");
    for (RetentionSimulation.Day d : days) {
      out.printf(
          Locale.ROOT,
          "%5d  %5d  %12d  %8d  %7d%n",
          d.day(),
          d.parts(),
          d.profileRows(),
          d.bytes(),
          d.dropped());
    }
  }

  static void print(List<Row> rows, PrintStream out) {
    out.println(
        "users  feedback  sampled_fraction  count_error  hot_error  hot_unseen"
            + "  weighted_hot  bytes_sent  phases_known");
    for (Row r : rows) {
      out.printf(
          Locale.ROOT,
          "%5d  %-8s  %16.4f  %11.4f  %9.4f  %10s  %12.4f  %10d  %12d%n",
          r.users(),
          r.feedback() ? "on" : "off",
          r.sampledFraction(),
          r.countError(),
          r.hotError(),
          r.hotUnseen() + "/" + r.hotSize(),
          r.weightedHotError(),
          r.bytes(),
          r.phases());
    }
  }
}
