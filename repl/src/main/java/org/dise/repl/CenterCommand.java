package org.dise.repl;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.StringWriter;
import java.net.BindException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.dise.center.CenterClient;
import org.dise.center.CenterServer;
import org.dise.center.Store;
import org.dise.center.StoreException;
import org.dise.center.StoreUrl;
import org.dise.repl.common.ExitStatus;
import org.dise.repl.common.ProfileFormats;
import org.dise.repl.common.UserError;
import org.dise.runtime.sink.ProfileTable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code acf center}: the optimization center and its administration (spec/remote.md). */
@Command(
    name = "center",
    description =
        "The optimization center: serve it, give devices tokens, query merged"
            + " profiles and its status.",
    footer = {
      "",
      "Examples (a first remote session, spec/remote.md):",
      "  ./acf center serve &               # store: sqlite:center/center.db",
      "  ./acf center token add phone1      # prints the device's token",
      "  ./acf run --acf examples/acf/hot_call_pairs.acf \\",
      "      --report-to http://127.0.0.1:8470 --device phone1 --token acf_... \\",
      "      examples/programs/bin/jpeg",
      "  ./acf center query --url http://127.0.0.1:8470 --sink CallPair_handler",
    },
    mixinStandardHelpOptions = true,
    subcommands = {
      CenterCommand.Serve.class,
      CenterCommand.Token.class,
      CenterCommand.Query.class,
      CenterCommand.Status.class,
      CenterCommand.Load.class,
      CenterCommand.Gc.class,
    })
public final class CenterCommand implements Runnable {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.err);
    throw new UserError(
        "acf center needs a command: serve, token, query, status or loadtest", ExitStatus.USAGE);
  }

  static StoreUrl storeUrl(String text) {
    try {
      return StoreUrl.parse(text);
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage(), ExitStatus.USAGE);
    }
  }

  static Store openStore(String text, int connections) {
    try {
      return Store.open(storeUrl(text), connections);
    } catch (StoreException e) {
      throw new UserError(e.getMessage());
    }
  }

  static CenterClient client(String url) {
    try {
      return new CenterClient(url, Duration.ofSeconds(30));
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage(), ExitStatus.USAGE);
    }
  }

  static JsonNode get(CenterClient c, String path) {
    return get(c, path, null);
  }

  static JsonNode get(CenterClient c, String path, String token) {
    try {
      return c.get(path, token);
    } catch (CenterClient.CenterException e) {
      throw new UserError(e.getMessage());
    }
  }

  /** {@code acf center serve}. */
  @Command(
      name = "serve",
      mixinStandardHelpOptions = true,
      description =
          "Start the optimization center: an HTTP service that takes devices' profile"
              + " uploads, merges them, and tells devices which phases it holds. Prints `listening"
              + " on http://HOST:PORT` once it accepts requests; stops on Ctrl-C or SIGTERM.",
      footer = {
        "",
        "Examples:",
        "  ./acf center serve",
        "  ./acf center serve --port 0 --store sqlite:/var/lib/acf/center.db",
        "  ./acf center serve --store postgresql://acf:secret@127.0.0.1:5432/acf",
        "  ./acf center serve --bind 0.0.0.0 --tls-cert center.pem --tls-key center.key",
        "",
        "Every GET but /v1/health needs a read token (acf center token add NAME",
        "--read) unless --public-read. The limits above bound what one client can",
        "make the center hold (docs/reliability.md, \"The center\"); behind a reverse",
        "proxy, keep the proxy's limits at or under these."
      })
  static final class Serve implements Callable<Integer> {
    @Option(
        names = "--bind",
        paramLabel = "HOST",
        description = "The address to listen on (default: ${DEFAULT-VALUE}).")
    String bind = "127.0.0.1";

    @Option(
        names = "--port",
        paramLabel = "N",
        description = "The port (default: ${DEFAULT-VALUE}; 0 picks a free one).")
    int port = 8470;

    @Option(
        names = "--store",
        paramLabel = "URL",
        description =
            "sqlite:PATH (default: ${DEFAULT-VALUE}, created on first start) or"
                + " postgresql://USER:PASSWORD@HOST:PORT/DATABASE.")
    String store = StoreUrl.DEFAULT;

    @Option(
        names = "--no-auth",
        description = "Accept uploads and reads without a token (local experiments only).")
    boolean noAuth;

    @Option(
        names = "--public-read",
        description =
            "Answer profile, status and estimate queries without a read token (prints a"
                + " warning at start-up).")
    boolean publicRead;

    @Option(
        names = "--tls-cert",
        paramLabel = "PEM",
        description =
            "Serve HTTPS with this PEM certificate chain (with --tls-key); else plain HTTP/1.1"
                + " and HTTP/2 cleartext, for loopback or behind a TLS-terminating proxy.")
    java.nio.file.Path tlsCert;

    @Option(
        names = "--tls-key",
        paramLabel = "PEM",
        description = "The certificate's private key, PKCS#8 PEM, unencrypted.")
    java.nio.file.Path tlsKey;

    @Option(
        names = "--enough",
        paramLabel = "N",
        description =
            "Phase feedback: a phase is held enough once N of its intervals were"
                + " sampled (default: ${DEFAULT-VALUE}); devices then stop sampling it.")
    long enough = 1;

    @Option(
        names = "--threshold",
        paramLabel = "T",
        description =
            "Phase matching: two signatures are one phase when their Manhattan"
                + " distance is under T percent, the tracker's measure (default: ${DEFAULT-VALUE}).")
    double threshold = 25;

    @Option(
        names = "--max-upload",
        paramLabel = "BYTES",
        converter = CountConverter.class,
        description =
            "Limit: the largest upload part taken, compressed, counted while it is read"
                + " (default 8M); a larger Content-Length is refused (413) before reading.")
    long maxUpload = 8L << 20;

    @Option(
        names = "--max-uncompressed",
        paramLabel = "BYTES",
        converter = CountConverter.class,
        description = "Limit: the most one part may uncompress to (default 64M).")
    long maxUncompressed = 64L << 20;

    @Option(
        names = "--max-part-memory",
        paramLabel = "BYTES",
        converter = CountConverter.class,
        description =
            "Limit: the heap one decoded part may hold, estimated while it is decoded"
                + " (default 32M); one upload request holds at most twice this plus 1.3M, and"
                + " uploads are decoded at once only as many as half the heap holds.")
    long maxPartMemory = 32L << 20;

    @Option(
        names = "--max-connections",
        paramLabel = "N",
        description = "Limit: open connections in all (default: ${DEFAULT-VALUE}).")
    int maxConnections = 1024;

    @Option(
        names = "--max-connections-per-client",
        paramLabel = "N",
        description = "Limit: open connections from one address (default: ${DEFAULT-VALUE}).")
    int maxPerClient = 64;

    @Option(
        names = "--idle-timeout",
        paramLabel = "SECONDS",
        description =
            "Limit: a connection silent this long is closed, and one whose first"
                + " request's headers are not whole by then (default: ${DEFAULT-VALUE}); an upload"
                + " body slower"
                + " than 1 KiB/s after 5 s, or taking over six timeouts, is cut off (408).")
    int idleTimeout = 20;

    @Option(
        names = "--threads",
        paramLabel = "N",
        description =
            "Limit: requests handled at once (default: ${DEFAULT-VALUE}); connections"
                + " waiting for their headers hold no thread.")
    int threads = 16;

    @Option(
        names = "--retain",
        paramLabel = "AGE",
        description =
            "Drop parts received more than AGE ago (90s, 30m, 2h, 30d), checked at start and"
                + " then every AGE/4 (1 s to 1 h); the phase figures, weights and totals they"
                + " added to are kept (spec/remote.md, \"Retention\"). Default: keep all.")
    String retain;

    @Override
    public Integer call() throws InterruptedException {
      java.time.Duration retention = retain == null ? null : age(retain);
      if (port < 0
          || port > 65535
          || threads < 1
          || enough < 1
          || maxUpload < 1024
          || maxUncompressed < 1024
          || maxPartMemory < 64 * 1024
          || maxConnections < 1
          || maxPerClient < 1
          || idleTimeout < 1
          || !(threshold >= 0 && threshold <= 100)) {
        throw new UserError(
            "--port 0..65535, --threads >= 1, --enough >= 1, --max-upload and"
                + " --max-uncompressed >= 1K, --max-part-memory >= 64K, --max-connections,"
                + " --max-connections-per-client and --idle-timeout >= 1, and --threshold 0..100,"
                + " please",
            ExitStatus.USAGE);
      }
      if ((tlsCert == null) != (tlsKey == null)) {
        throw new UserError("--tls-cert and --tls-key go together", ExitStatus.USAGE);
      }
      CenterServer.Limits limits =
          new CenterServer.Limits(
              maxUpload,
              maxUncompressed,
              maxPartMemory,
              maxConnections,
              maxPerClient,
              java.time.Duration.ofSeconds(idleTimeout),
              8192,
              1024);
      CenterServer.Settings settings =
          new CenterServer.Settings(
              bind,
              port,
              noAuth,
              publicRead,
              threshold,
              enough,
              threads,
              limits,
              tlsCert == null ? null : new CenterServer.Tls(tlsCert, tlsKey));
      // The port first: a taken port must not leave a store created or migrated behind it.
      CenterServer.Bound socket;
      try {
        socket = CenterServer.bind(settings);
      } catch (BindException e) {
        throw new UserError(
            "cannot listen on "
                + bind
                + ":"
                + port
                + ": port "
                + port
                + " is in use (another center running? --port N picks another, --port 0 a free"
                + " one)");
      } catch (IOException e) {
        throw new UserError("cannot listen on " + bind + ":" + port + ": " + UserError.why(e));
      }
      // The port is bound: from here on the socket must be released on every failure.
      Store s;
      try {
        s = openStore(store, threads);
      } catch (RuntimeException e) {
        socket.close();
        throw e;
      }
      CenterServer server;
      try {
        server = socket.start(s, System.err);
        // --quiet: the log keeps refusals and failures, not every accepted upload.
        server.logAccepted(!org.dise.repl.common.Verbosity.quiet());
        // --verbose: every query and status request as well.
        server.logReads(org.dise.repl.common.Verbosity.verbose());
      } catch (IOException e) {
        s.close();
        throw new UserError("cannot start the center: " + UserError.why(e));
      }
      if (publicRead && !noAuth) {
        System.err.println(
            "center: WARNING: --public-read: every device's profiles, the device list and the"
                + " status are readable by ANYONE who can reach "
                + server.url()
                + ", without a token.");
      }
      if (noAuth) {
        System.err.println(
            "center: WARNING: --no-auth: uploads are taken from ANYONE who can"
                + " reach "
                + server.url()
                + ", without a token, and reads need none either. Use it for local experiments"
                + " only.");
      }
      org.dise.repl.common.Verbosity.notice(
          System.err,
          String.format(
              Locale.ROOT,
              "center: limits: %d connections (%d per client), %ds idle, upload %d bytes"
                  + " compressed / %d uncompressed / %d decoded, %d upload(s) decoded at once",
              maxConnections,
              maxPerClient,
              idleTimeout,
              maxUpload,
              maxUncompressed,
              maxPartMemory,
              server.decodingPermits()));
      org.dise.repl.common.Verbosity.notice(
          System.err,
          "center: store "
              + s.url().redacted()
              + " (schema version "
              + Store.SCHEMA_VERSION
              + "), phase threshold "
              + threshold
              + "%, enough "
              + enough
              + " sampled interval(s)");
      CountDownLatch stopped = new CountDownLatch(1);
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    server.close();
                    org.dise.repl.common.Verbosity.notice(System.err, "center: stopped");
                    stopped.countDown();
                  }));
      if (retention != null) {
        retainEvery(s, retention);
      }
      System.out.println("listening on " + server.url());
      System.out.flush();
      stopped.await();
      return 0;
    }
  }

  static java.time.Duration age(String text) {
    try {
      return org.dise.center.Since.age(text);
    } catch (IllegalArgumentException e) {
      throw new UserError("--retain " + e.getMessage(), ExitStatus.USAGE);
    }
  }

  /**
   * Runs retention on {@code store} now and every quarter of {@code retention} (1 s to 1 h), on a
   * daemon thread; each pass that drops something says so on stderr.
   */
  static void retainEvery(Store store, java.time.Duration retention) {
    long every = Math.max(1000, Math.min(3_600_000, retention.toMillis() / 4));
    java.util.concurrent.ScheduledExecutorService timer =
        java.util.concurrent.Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "center-retention");
              t.setDaemon(true);
              return t;
            });
    timer.scheduleWithFixedDelay(
        () -> {
          long before = System.currentTimeMillis() - retention.toMillis();
          try {
            Store.Collected c = store.gc(before);
            if (c.parts() > 0) {
              System.err.println("center: retention: " + dropped(c, before) + " kept");
            }
          } catch (StoreException | RuntimeException e) {
            System.err.println("center: retention: " + e.getMessage() + "; tried again later");
          }
        },
        0,
        every,
        java.util.concurrent.TimeUnit.MILLISECONDS);
  }

  /**
   * What a retention pass dropped, as acf center gc and serve --retain say it, up to the count of
   * parts kept.
   */
  static String dropped(Store.Collected c, long before) {
    return "dropped "
        + c.parts()
        + " part(s) received before "
        + java.time.Instant.ofEpochMilli(before)
        + " ("
        + c.profiles()
        + " profile row(s)); "
        + c.kept();
  }

  /** {@code acf center gc}. */
  @Command(
      name = "gc",
      mixinStandardHelpOptions = true,
      description =
          "Drop the parts a store received more than AGE ago, as acf center serve --retain"
              + " does; the phase figures, weights and totals they added to are kept. Safe while"
              + " centers serve the store: it deletes a batch of parts per transaction.",
      footer = {
        "",
        "Examples:",
        "  ./acf center gc --retain 30d --store sqlite:center/center.db",
        "  ./acf center gc --retain 7d --store postgresql://acf:secret@127.0.0.1:5432/acf"
      })
  static final class Gc implements Callable<Integer> {
    @Option(
        names = "--retain",
        required = true,
        paramLabel = "AGE",
        description = "Keep the parts received within AGE (90s, 30m, 2h, 30d).")
    String retain;

    @picocli.CommandLine.Mixin StoreOption store = new StoreOption();

    @Override
    public Integer call() {
      java.time.Duration retention = age(retain);
      try (Store s = openStore(store.url, 1)) {
        long before = System.currentTimeMillis() - retention.toMillis();
        Store.Collected c = s.gc(before);
        System.out.println(dropped(c, before) + " part(s) kept in " + s.url().redacted());
        return 0;
      } catch (StoreException e) {
        throw new UserError(e.getMessage());
      }
    }
  }

  /** {@code acf center token}. */
  @Command(
      name = "token",
      mixinStandardHelpOptions = true,
      description = "Device tokens.",
      subcommands = {Token.Add.class})
  static final class Token implements Runnable {
    @Override
    public void run() {
      throw new UserError("acf center token needs a command: add", ExitStatus.USAGE);
    }

    /** {@code acf center token add DEVICE}. */
    @Command(
        name = "add",
        mixinStandardHelpOptions = true,
        description =
            "Create a token for DEVICE (replacing any earlier one) and print it; the"
                + " store keeps only its hash.",
        footer = {
          "",
          "Examples:",
          "  ./acf center token add phone1 --store sqlite:center/center.db"
        })
    static final class Add implements Callable<Integer> {
      @Parameters(
          index = "0",
          paramLabel = "NAME",
          description = "The device's name (or the reader's, with --read).")
      String device;

      @Option(
          names = "--read",
          description =
              "A read token: it may query profiles, status and estimates, and may not"
                  + " upload. Without it, a device's upload token.")
      boolean read;

      @picocli.CommandLine.Mixin StoreOption store = new StoreOption();

      @Override
      public Integer call() {
        try (Store s = openStore(store.url, 1)) {
          if (read) {
            String token = s.addReadToken(device);
            System.out.println(token);
            System.err.println(
                "acf: read token "
                    + device
                    + " in "
                    + s.url().redacted()
                    + "; pass it as acf center query|status --token TOKEN");
            return 0;
          }
          String token = s.addToken(device);
          System.out.println(token);
          System.err.println(
              "acf: token for device "
                  + device
                  + " in "
                  + s.url().redacted()
                  + "; pass it as acf run --report-to URL --device "
                  + device
                  + " --token TOKEN");
          return 0;
        } catch (StoreException e) {
          throw new UserError(e.getMessage());
        }
      }
    }
  }

  /** Output formats of query and status. */
  enum Format {
    table,
    csv,
    json
  }

  /** {@code acf center query}. */
  @Command(
      name = "query",
      mixinStandardHelpOptions = true,
      description =
          "Print a sink's profile merged over the center's uploads (counts summed),"
              + " in the shape acf run --out writes it.",
      footer = {
        "",
        "Examples:",
        "  ./acf center query --url http://127.0.0.1:8470 --sink CallPair_handler",
        "  ./acf center query --url http://127.0.0.1:8470 --sink Branch_handler \\",
        "      --program jpeg --device phone1 --since 2h --format csv"
      })
  static final class Query implements Callable<Integer> {
    @picocli.CommandLine.Mixin Reader center = new Reader();

    @Option(
        names = "--sink",
        required = true,
        paramLabel = "NAME",
        description = "The sink (the handler the productions call, e.g. CallPair_handler).")
    String sink;

    @Option(
        names = "--program",
        paramLabel = "NAME|SHA256",
        description = "Only uploads of this program (its file name or SHA-256).")
    String program;

    @Option(names = "--device", paramLabel = "ID", description = "Only this device's uploads.")
    String device;

    @Option(
        names = "--since",
        paramLabel = "T",
        description =
            "Only uploads received since T: an ISO-8601 time, a date, or an age"
                + " (30m, 2h, 7d).")
    String since;

    @Option(
        names = "--format",
        paramLabel = "FORMAT",
        description =
            "table (default: the top entries with shares), csv or json (as NAME.csv"
                + " and NAME.json of acf run --out).")
    Format format = Format.table;

    @Option(
        names = "--top",
        paramLabel = "N",
        description = "Rows of the table format (default: ${DEFAULT-VALUE}).")
    int top = 20;

    @Override
    public Integer call() throws IOException {
      StringBuilder q = new StringBuilder("/v1/profiles?sink=").append(enc(sink));
      if (program != null) {
        q.append("&program=").append(enc(program));
      }
      if (device != null) {
        q.append("&device=").append(enc(device));
      }
      if (since != null) {
        q.append("&since=").append(enc(since));
      }
      JsonNode n = get(client(center.url), q.toString(), center.token);
      ProfileTable t;
      try {
        t = ProfileFormats.fromJson(n.toString());
      } catch (IllegalArgumentException e) {
        throw new UserError(
            center.url + ": the center's answer is not a profile: " + e.getMessage());
      }
      switch (format) {
        case csv -> {
          StringWriter w = new StringWriter();
          t.writeCsv(w);
          System.out.print(w);
        }
        case json -> System.out.print(ProfileFormats.json(sink, t));
        default -> ProfileFormats.terminal(sink, t, top).forEach(System.out::println);
      }
      return 0;
    }
  }

  static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  /** {@code acf center loadtest}. */
  @Command(
      name = "loadtest",
      mixinStandardHelpOptions = true,
      description =
          "Start a center on loopback and have N devices upload to it at once;"
              + " print uploads per second and latency percentiles. Stops after --parts parts per"
              + " device or --max-seconds, whichever comes first.",
      footer = {
        "",
        "Examples (docs/benchmarks.md):",
        "  ./acf center loadtest --devices 50 --parts 20",
        "  ./acf center loadtest --devices 50 --store postgresql://acf:acf@127.0.0.1/acf"
      })
  static final class Load implements Callable<Integer> {
    @Option(
        names = "--devices",
        paramLabel = "N",
        description = "Devices (default: ${DEFAULT-VALUE}).")
    int devices = 50;

    @Option(
        names = "--parts",
        paramLabel = "N",
        description = "Parts each device sends (default: ${DEFAULT-VALUE}).")
    int parts = 20;

    @Option(
        names = "--rows",
        paramLabel = "N",
        description = "Rows of each part's call-pair profile (default: ${DEFAULT-VALUE}).")
    int rows = 200;

    @Option(
        names = "--max-seconds",
        paramLabel = "S",
        description = "Stop sending after S seconds (default: ${DEFAULT-VALUE}).")
    int maxSeconds = 120;

    @Option(
        names = "--store",
        paramLabel = "URL",
        description = "The store (default: a new SQLite file in a temporary directory).")
    String store;

    @Option(
        names = "--instances",
        paramLabel = "N",
        description =
            "Centers on the one store, device d sending to center d mod N (default:"
                + " ${DEFAULT-VALUE}); more than one needs PostgreSQL.")
    int instances = 1;

    @Override
    public Integer call() throws Exception {
      if (devices < 1
          || devices > 1000
          || parts < 1
          || rows < 1
          || maxSeconds < 1
          || instances < 1
          || instances > 16) {
        throw new UserError(
            "--devices 1..1000, --instances 1..16, --parts, --rows and --max-seconds >= 1, please",
            ExitStatus.USAGE);
      }
      if (instances > 1
          && (store == null
              || !(store.startsWith("postgresql:") || store.startsWith("postgres:")))) {
        throw new UserError(
            "--instances "
                + instances
                + " needs a PostgreSQL --store: several centers share a database server, not an"
                + " SQLite file",
            ExitStatus.USAGE);
      }
      String url =
          store != null
              ? store
              : "sqlite:"
                  + java.nio.file.Files.createTempDirectory("acf-loadtest").resolve("center.db");
      org.dise.center.LoadTest.Result r =
          org.dise.center.LoadTest.run(
              openStore(url, 16),
              instances,
              devices,
              parts,
              rows,
              java.time.Duration.ofSeconds(maxSeconds),
              System.err);
      System.out.println(
          "loadtest: store "
              + storeUrl(url).redacted().replaceFirst(":.*/", ":.../")
              + ", "
              + Runtime.getRuntime().availableProcessors()
              + " cores, "
              + instances
              + (instances == 1 ? " center" : " centers"));
      System.out.println("loadtest: " + r.describe());
      return r.failed() == 0 ? 0 : ExitStatus.FAILURE;
    }
  }

  /** {@code acf center status}. */
  @Command(
      name = "status",
      mixinStandardHelpOptions = true,
      description =
          "List the center's programs, devices, uploads, phases known and bytes" + " received.",
      footer = {"", "Examples:", "  ./acf center status --url http://127.0.0.1:8470"})
  static final class Status implements Callable<Integer> {
    @picocli.CommandLine.Mixin Reader center = new Reader();

    @Option(names = "--format", paramLabel = "FORMAT", description = "table (default) or json.")
    Format format = Format.table;

    @Override
    public Integer call() {
      JsonNode n = get(client(center.url), "/v1/status", center.token);
      if (format == Format.json) {
        System.out.println(n.toPrettyString());
        return 0;
      }
      System.out.printf(
          Locale.ROOT,
          "center %s: %,d uploads (%,d parts), %,d bytes received," + " %,d phases known%n",
          center.url,
          n.path("uploads").asLong(),
          n.path("parts").asLong(),
          n.path("bytes").asLong(),
          n.path("phases").asLong());
      List<List<String>> programs = new ArrayList<>();
      programs.add(
          List.of("program", "sha256", "uploads", "devices", "phases", "bytes", "sampled"));
      for (JsonNode p : n.path("programs")) {
        long all = p.path("instructions").asLong();
        programs.add(
            List.of(
                p.path("name").asText(),
                p.path("sha256").asText().substring(0, 12),
                p.path("uploads").asText(),
                p.path("devices").asText(),
                p.path("phases").asText(),
                p.path("bytes").asText(),
                all == 0
                    ? "-"
                    : String.format(
                        Locale.ROOT,
                        "%.1f%%",
                        100.0 * p.path("sampled_instructions").asLong() / all)));
      }
      print("programs", programs);
      List<List<String>> devices = new ArrayList<>();
      devices.add(List.of("device", "token", "uploads", "bytes", "last upload"));
      for (JsonNode d : n.path("devices")) {
        devices.add(
            List.of(
                d.path("device").asText(),
                d.path("token").asBoolean() ? "yes" : "no",
                d.path("uploads").asText(),
                d.path("bytes").asText(),
                d.path("last_upload").asText("-")));
      }
      print("devices", devices);
      return 0;
    }

    private static void print(String title, List<List<String>> rows) {
      System.out.println(title + (rows.size() == 1 ? ": none" : ""));
      if (rows.size() == 1) {
        return;
      }
      int[] w = new int[rows.get(0).size()];
      for (List<String> r : rows) {
        for (int i = 0; i < r.size(); i++) {
          w[i] = Math.max(w[i], r.get(i).length());
        }
      }
      for (List<String> r : rows) {
        StringBuilder sb = new StringBuilder("  ");
        for (int i = 0; i < r.size(); i++) {
          sb.append(String.format("%-" + (w[i] + 2) + "s", r.get(i)));
        }
        System.out.println(sb.toString().stripTrailing());
      }
    }
  }

  /** {@code --store}: the store a maintenance command (gc, token add) works on directly. */
  static final class StoreOption {
    @Option(
        names = "--store",
        paramLabel = "URL",
        description = "The center's store (default: ${DEFAULT-VALUE}).")
    String url = StoreUrl.DEFAULT;
  }

  /** {@code --url} and {@code --token}: which center a reading command asks, and with what. */
  static final class Reader {
    @Option(names = "--url", required = true, paramLabel = "URL", description = "The center.")
    String url;

    @Option(
        names = "--token",
        paramLabel = "T",
        description =
            "A read token (acf center token add NAME --read); not needed by a center started"
                + " with --public-read.")
    String token;
  }
}
