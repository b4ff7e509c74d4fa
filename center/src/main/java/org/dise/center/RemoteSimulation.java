package org.dise.center;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.dise.runtime.Machine;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.dise.ProfilingEngine;
import org.dise.runtime.dise.TriggerDriver;
import org.dise.runtime.metrics.Accuracy;
import org.dise.runtime.profiles.sampling.ProfileEstimator;
import org.dise.runtime.profiles.sampling.SamplingRun;
import org.dise.runtime.session.ProfilingSession;
import org.dise.runtime.trigger.PhaseAwareTrigger;
import org.dise.runtime.trigger.TriggerSpec;

/**
 * Many simulated devices against a real center on loopback (phase-based remote profiling paper,
 * Section 3.2.5): each user runs the program on its own input and seed under a sampling trigger,
 * asks the center at start for the phases it holds enough of (with feedback), and uploads its
 * profile at the end. Up to {@code parallel} users run at once, each on its own thread, started in
 * user order; a user hears only of the uploads finished before it started, as a real device would.
 * After the k-th upload (for each k in the points) the center's merged whole-program estimate is
 * compared with the sum of the exhaustive profiles of the k users that uploaded. {@code acf
 * remote-sim} and {@code acf experiment remote} use it.
 */
public final class RemoteSimulation {
  /**
   * The devices: the profiling session of a device that runs the program with input {@code input}'s
   * arguments and seed {@code seed} under the settings' productions; each pass of a run takes a
   * fresh machine and engine from it.
   */
  public interface Devices {
    ProfilingSession session(int input, long seed);
  }

  /** What a simulation runs: the productions, the devices' trigger, the center's settings. */
  public record Settings(
      Path program,
      String configHash,
      ProductionSet productions,
      TriggerSpec spec,
      int inputs,
      int users,
      int parallel,
      long enough,
      double threshold,
      String sink,
      SortedSet<Integer> points) {
    public Settings {
      if (users < 1 || parallel < 1 || inputs < 1) {
        throw new IllegalArgumentException("users, parallel and inputs must be at least 1");
      }
      points = new TreeSet<>(points);
      points.removeIf(p -> p < 1 || p > users);
      points.add(users);
    }

    /** 1, 2, 4, ... up to {@code users}, and {@code users}. */
    public static SortedSet<Integer> doubling(int users) {
      TreeSet<Integer> at = new TreeSet<>();
      for (int k = 1; k <= users; k *= 2) {
        at.add(k);
      }
      at.add(users);
      return at;
    }
  }

  /**
   * One reported point: after {@code users} uploads, the total sampled fraction (sampled over all
   * application instructions of those users), the merged estimate's count error and top-15% hot-set
   * error, and what explains the hot-set error: the size of the exhaustive hot set, how many of its
   * entries the estimate misses because no sampled interval of any user saw them ({@code
   * hotUnseen}), how many it saw but ranked below the cut ({@code hotMisranked}), and the share of
   * the hot set's executions the missed entries carry ({@code weightedHotError}). {@code phases}
   * are the distinct phases the center holds, {@code devicePhases} the phases the users' trackers
   * found, summed over users (the paper's Fig. 10 compares the two).
   */
  public record Row(
      int users,
      boolean feedback,
      double sampledFraction,
      double countError,
      double hotError,
      double weightedHotError,
      int hotSize,
      int hotUnseen,
      int hotMisranked,
      long bytes,
      long phases,
      long devicePhases,
      double seconds) {}

  private final Settings settings;
  private final Devices devices;
  private final Consumer<String> progress;

  // The compressed clock (0 days: the real clock) and the retention it runs, and the store's
  // size per simulated day of the last run.
  private int simulatedDays;
  private Duration retain;
  private final List<RetentionSimulation.Day> days = new ArrayList<>();

  /** The exhaustive profile of each input (every sink), made once. */
  private final Map<Integer, Map<String, Map<String, Long>>> exact = new HashMap<>();

  /** {@code progress} hears one line per finished pass, user and point (or is null). */
  public RemoteSimulation(Settings settings, Devices devices, Consumer<String> progress) {
    this.settings = settings;
    this.devices = devices;
    this.progress = progress;
  }

  /**
   * Runs the uploads at a compressed clock: the store's clock advances by an equal step before each
   * upload so that {@code days} simulated days pass over a run, and with {@code retain} (or null) a
   * retention pass after each upload drops the parts older than it, as {@code acf center serve
   * --retain} would. The store's size after each simulated day is then in {@link #days()}.
   */
  public RemoteSimulation compressedClock(int days, Duration retain) {
    if (days < 1) {
      throw new IllegalArgumentException("--simulated-days must be at least 1");
    }
    this.simulatedDays = days;
    this.retain = retain;
    return this;
  }

  /** The store's size after each simulated day of the last run (empty at the real clock). */
  public List<RetentionSimulation.Day> days() {
    return List.copyOf(days);
  }

  /** The seed of user {@code u} (0-based): every user its own. */
  public static long seed(int u) {
    return 0x5eed + u;
  }

  /** The input user {@code u} runs: the inputs in turn. */
  public int input(int u) {
    return u % settings.inputs();
  }

  /**
   * The exhaustive pass of every input the users run, {@code parallel} at once; made once and
   * shared by both modes. Returns the sink whose error is reported.
   */
  public String exhaustive() throws InterruptedException {
    int distinct = Math.min(settings.users(), settings.inputs());
    List<Integer> todo = new ArrayList<>();
    for (int i = 0; i < distinct; i++) {
      if (!exact.containsKey(i)) {
        todo.add(i);
      }
    }
    AtomicInteger done = new AtomicInteger();
    Map<Integer, Map<String, Map<String, Long>>> made =
        runAll(
            todo,
            i -> {
              Map<String, Map<String, Long>> ex =
                  SamplingRun.firstPass(setup(i, seed(i), null), settings.spec(), -1).exact();
              say(
                  "exhaustive profile of input %d done (%d of %d)",
                  i + 1, done.incrementAndGet(), todo.size());
              return ex;
            });
    exact.putAll(made);
    Set<String> sinks = exact.get(0).keySet();
    if (sinks.isEmpty()) {
      throw new IllegalArgumentException("the productions bind no profile sink");
    }
    if (settings.sink() == null) {
      return sinks.iterator().next();
    }
    if (!sinks.contains(settings.sink())) {
      throw new IllegalArgumentException(
          "--sink " + settings.sink() + ": the productions bind " + String.join(", ", sinks));
    }
    return settings.sink();
  }

  /**
   * Runs every user against a fresh center on {@code store} (created empty by the caller), with or
   * without phase-ID feedback, and returns a row per point.
   */
  public List<Row> run(boolean feedback, Store store, Path work)
      throws IOException, InterruptedException {
    String sink = exhaustive();
    PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
    long start = System.nanoTime();
    String mode = feedback ? "feedback on" : "feedback off";
    days.clear();
    long dayMs = Duration.ofDays(1).toMillis();
    // Rounded up, so that the last upload ends the last day.
    long step =
        simulatedDays == 0 ? 0 : (simulatedDays * dayMs + settings.users() - 1) / settings.users();
    long[] now = {RetentionSimulation.START_MS};
    long[] dropped = {0};
    if (simulatedDays > 0) {
      store.clock(() -> now[0]);
    }
    try (CenterServer center =
        CenterServer.start(
            store,
            CenterServer.Settings.defaults()
                .withPort(0)
                .withNoAuth(true)
                .withEnough(settings.enough())
                .withThreshold(settings.threshold()),
            quiet)) {
      CenterClient client = new CenterClient(center.url(), Duration.ofSeconds(60));
      Tally tally = new Tally();
      List<Integer> users = new ArrayList<>();
      for (int u = 0; u < settings.users(); u++) {
        users.add(u);
      }
      runAll(
          users,
          u -> {
            DeviceReporter reporter =
                DeviceReporter.open(
                    new DeviceReporter.Options(
                        center.url(),
                        "user" + (u + 1),
                        null,
                        work.resolve("spool-" + (u + 1)),
                        "at-end",
                        feedback,
                        256 * 1024,
                        Duration.ofSeconds(60)),
                    settings.program(),
                    settings.configHash(),
                    quiet);
            SamplingRun.Result r =
                SamplingRun.run(
                    setup(input(u), seed(u), reporter), settings.spec(), false, null, -1);
            long instructions = 0;
            long sampled = 0;
            int found = r.trigger() instanceof PhaseAwareTrigger p ? p.tracker().phaseCount() : 0;
            for (long i = 0; i < r.driver().intervals(); i++) {
              instructions += r.driver().length(i);
              sampled += r.driver().sampled(i) ? r.driver().length(i) : 0;
            }
            // One upload and its point at a time, so that the k-th point is the center's state
            // after exactly k uploads.
            synchronized (tally) {
              now[0] += step;
              reporter.finish(
                  r.engine().cost().applicationInstructions(), r.outcome().exitStatus());
              if (simulatedDays > 0) {
                compressed(store, now[0], dropped, mode);
              }
              if (reporter.spooledParts() > 0) {
                throw new IllegalStateException(
                    "the center on loopback did not take user " + (u + 1) + "'s profile");
              }
              tally.add(
                  exact.get(input(u)).get(sink),
                  instructions,
                  sampled,
                  reporter.bytesSent(),
                  found);
              int k = tally.users;
              say(
                  "%s: user %d done (%d of %d uploaded; input %d, sampled %.3f of its run)",
                  mode,
                  u + 1,
                  k,
                  settings.users(),
                  input(u) + 1,
                  instructions == 0 ? 0 : (double) sampled / instructions);
              if (settings.points().contains(k)) {
                Row row =
                    point(
                        client,
                        reporter.programSha256(),
                        sink,
                        feedback,
                        tally,
                        (System.nanoTime() - start) / 1e9);
                tally.rows.add(row);
                say(
                    "%s, %d user(s): sampled %.4f, count error %.4f, hot-set error %.4f (%d of %d"
                        + " hot entries never sampled)",
                    mode,
                    k,
                    row.sampledFraction(),
                    row.countError(),
                    row.hotError(),
                    row.hotUnseen(),
                    row.hotSize());
              }
            }
            return null;
          });
      return tally.rows;
    }
  }

  /**
   * After an upload at the compressed clock: the retention pass, and the store's size for every
   * simulated day that ended.
   */
  private void compressed(Store store, long now, long[] dropped, String mode) {
    try {
      if (retain != null) {
        dropped[0] += store.gc(now - retain.toMillis()).parts();
      }
      long dayMs = Duration.ofDays(1).toMillis();
      while (days.size() < simulatedDays
          && now >= RetentionSimulation.START_MS + (days.size() + 1) * dayMs) {
        RetentionSimulation.Day d = RetentionSimulation.size(store, days.size() + 1, dropped[0]);
        dropped[0] = 0;
        days.add(d);
        say(
            "%s, simulated day %d: %d part(s), %d profile row(s), %d bytes held; %d dropped",
            mode, d.day(), d.parts(), d.profileRows(), d.bytes(), d.dropped());
      }
    } catch (StoreException e) {
      throw new IllegalStateException("the center's store: " + e.getMessage());
    }
  }

  /** What the uploads so far add up to. */
  private static final class Tally {
    int users;
    long instructions;
    long sampled;
    long bytes;
    long devicePhases;
    final Map<String, Long> reference = new HashMap<>();
    final List<Row> rows = new ArrayList<>();

    void add(Map<String, Long> exact, long instructions, long sampled, long bytes, int phases) {
      users++;
      devicePhases += phases;
      exact.forEach((k, v) -> reference.merge(k, v, Long::sum));
      this.instructions += instructions;
      this.sampled += sampled;
      this.bytes += bytes;
    }
  }

  private Row point(
      CenterClient client, String sha, String sink, boolean feedback, Tally t, double seconds) {
    try {
      JsonNode est =
          client.get(
              "/v1/programs/"
                  + sha
                  + "/estimate?sink="
                  + java.net.URLEncoder.encode(sink, java.nio.charset.StandardCharsets.UTF_8));
      Map<String, Double> estimate = new LinkedHashMap<>();
      est.path("estimate")
          .fields()
          .forEachRemaining(e -> estimate.put(e.getKey(), e.getValue().asDouble()));
      long phases = client.get("/v1/programs/" + sha + "/phases").path("phases").size();
      HotMisses m = HotMisses.of(t.reference, estimate);
      return new Row(
          t.users,
          feedback,
          t.instructions == 0 ? 0 : (double) t.sampled / t.instructions,
          Accuracy.countError(t.reference, estimate),
          Accuracy.hotSetError(t.reference, estimate),
          Accuracy.weightedHotSetError(t.reference, estimate),
          m.hot(),
          m.unseen(),
          m.misranked(),
          t.bytes,
          phases,
          t.devicePhases,
          seconds);
    } catch (CenterClient.CenterException e) {
      throw new IllegalStateException("the center on loopback: " + e.getMessage());
    }
  }

  /** The exhaustive hot set's entries that the estimate's hot set misses, and why. */
  record HotMisses(int hot, int unseen, int misranked) {
    static HotMisses of(Map<String, Long> exact, Map<String, Double> estimate) {
      long positive = exact.values().stream().filter(v -> v > 0).count();
      int cut = (int) Math.max(1, Math.ceil(Accuracy.HOT_FRACTION * positive));
      Set<String> hotExact = Accuracy.hotSet(exact, cut);
      Set<String> hotEstimate = Accuracy.hotSet(estimate, cut);
      int unseen = 0;
      int misranked = 0;
      for (String k : hotExact) {
        if (!hotEstimate.contains(k)) {
          Double e = estimate.get(k);
          if (e == null || e == 0) {
            unseen++;
          } else {
            misranked++;
          }
        }
      }
      return new HotMisses(hotExact.size(), unseen, misranked);
    }
  }

  /** One user's machines and engines; with a reporter, its profile buffer hears the run. */
  private SamplingRun.Setup setup(int input, long seed, DeviceReporter reporter) {
    return devices
        .session(input, seed)
        .named("the center's productions")
        .sampling(
            new ProfilingSession.Hooks() {
              @Override
              public void started(
                  String pass, TriggerDriver driver, Machine machine, ProfilingEngine engine) {
                if (reporter != null && pass.equals("sampled run")) {
                  reporter.attach(driver, engine.sinks(), machine.symbols());
                }
              }

              @Override
              public TriggerDriver.Listener listener(ProfileEstimator estimator) {
                return reporter == null ? estimator : reporter.listener(estimator);
              }
            });
  }

  /** A task that may fail. */
  private interface Task<T> {
    T run(int item) throws Exception;
  }

  /**
   * Runs {@code task} over {@code items} on {@code parallel} threads, started in order; the first
   * failure cancels the rest and is thrown.
   */
  private <T> Map<Integer, T> runAll(List<Integer> items, Task<T> task)
      throws InterruptedException {
    ExecutorService pool =
        Executors.newFixedThreadPool(
            Math.max(1, Math.min(settings.parallel(), items.size())),
            r -> {
              Thread th = new Thread(r, "remote-sim-user");
              th.setDaemon(true);
              return th;
            });
    try {
      Map<Integer, Future<T>> futures = new LinkedHashMap<>();
      for (int i : items) {
        futures.put(i, pool.submit(() -> task.run(i)));
      }
      Map<Integer, T> out = new HashMap<>();
      for (Map.Entry<Integer, Future<T>> f : futures.entrySet()) {
        try {
          out.put(f.getKey(), f.getValue().get());
        } catch (ExecutionException e) {
          Throwable c = e.getCause();
          if (c instanceof RuntimeException re) {
            throw re;
          }
          if (c instanceof Error err) {
            throw err;
          }
          throw new IllegalStateException(c.getMessage(), c);
        }
      }
      return out;
    } finally {
      pool.shutdownNow();
    }
  }

  private void say(String format, Object... args) {
    if (progress != null) {
      synchronized (this) {
        progress.accept(String.format(Locale.ROOT, format, args));
      }
    }
  }
}
