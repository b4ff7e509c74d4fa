package org.dise.center;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.dise.runtime.sink.ProfileTable;
import org.eclipse.jetty.alpn.server.ALPNServerConnectionFactory;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The optimization center's HTTP service (first paper, Section 4; spec/remote.md): devices upload
 * profile parts, readers query merged profiles and status, devices ask which phases of a program
 * the center already holds enough of. Runs on embedded Jetty (center/README.md says why) with the
 * limits of {@link Limits}: connections in all and per client, header size, idle timeout, bytes and
 * decoded memory per upload, uploads decoded at once; every answer, the server's own errors too, is
 * JSON.
 */
public final class CenterServer implements AutoCloseable {
  /**
   * What a center refuses past (docs/reliability.md): connections in all and from one address,
   * request header bytes, seconds a connection may stay silent, the slowest request body taken,
   * compressed and uncompressed bytes of one upload, and the heap one decoded upload may hold.
   */
  public record Limits(
      long maxUploadBytes,
      long maxUncompressedBytes,
      long maxPartMemory,
      int maxConnections,
      int maxConnectionsPerClient,
      Duration idleTimeout,
      int maxHeaderBytes,
      long minRequestBytesPerSecond) {
    public static Limits defaults() {
      return new Limits(
          8L << 20, 64L << 20, 32L << 20, 1024, 64, Duration.ofSeconds(20), 8192, 1024);
    }

    /**
     * The most heap one upload request holds: the decoded part, the store's serialised copy of its
     * rows (no larger than the part's estimate), the parser's largest token, and I/O buffers.
     */
    public long memoryPerUpload() {
      return 2 * maxPartMemory + UploadCodec.MAX_TOKEN + (256 << 10);
    }

    public Limits withConnections(int all, int perClient) {
      return new Limits(
          maxUploadBytes,
          maxUncompressedBytes,
          maxPartMemory,
          all,
          perClient,
          idleTimeout,
          maxHeaderBytes,
          minRequestBytesPerSecond);
    }

    public Limits withIdleTimeout(Duration d) {
      return new Limits(
          maxUploadBytes,
          maxUncompressedBytes,
          maxPartMemory,
          maxConnections,
          maxConnectionsPerClient,
          d,
          maxHeaderBytes,
          minRequestBytesPerSecond);
    }
  }

  /** A PEM certificate chain and its PKCS#8 private key, for HTTPS. */
  public record Tls(Path cert, Path key) {}

  /** What a center is started with. */
  public record Settings(
      String bind,
      int port,
      boolean noAuth,
      boolean publicRead,
      double threshold,
      long enough,
      int threads,
      Limits limits,
      Tls tls) {
    public static Settings defaults() {
      return new Settings("127.0.0.1", 8470, false, false, 25, 1, 16, Limits.defaults(), null);
    }

    public Settings withPort(int p) {
      return new Settings(bind, p, noAuth, publicRead, threshold, enough, threads, limits, tls);
    }

    /** No token for uploads nor reads: local experiments only. */
    public Settings withNoAuth(boolean n) {
      return new Settings(bind, port, n, publicRead, threshold, enough, threads, limits, tls);
    }

    public Settings withPublicRead(boolean r) {
      return new Settings(bind, port, noAuth, r, threshold, enough, threads, limits, tls);
    }

    public Settings withEnough(long e) {
      return new Settings(bind, port, noAuth, publicRead, threshold, e, threads, limits, tls);
    }

    public Settings withThreshold(double t) {
      return new Settings(bind, port, noAuth, publicRead, t, enough, threads, limits, tls);
    }

    public Settings withLimits(Limits l) {
      return new Settings(bind, port, noAuth, publicRead, threshold, enough, threads, l, tls);
    }

    public Settings withTls(Tls t) {
      return new Settings(bind, port, noAuth, publicRead, threshold, enough, threads, limits, t);
    }

    /** Whether GET answers need no token. */
    boolean openReads() {
      return noAuth || publicRead;
    }
  }

  private final Store store;
  private final Settings settings;
  private final PrintStream log;
  private final Server jetty;
  private final ServerConnector connector;
  private final Semaphore decoding;
  private final int decodingPermits;

  /** Whether accepted uploads are logged; refusals and failures always are. */
  private volatile boolean logAccepted = true;

  /** Whether every other answered request (queries, status, tokens) is logged too. */
  private volatile boolean logReads;

  private CenterServer(Store store, Settings settings, PrintStream log, Bound b) {
    this.store = store;
    this.settings = settings;
    this.log = log;
    this.jetty = b.jetty;
    this.connector = b.connector;
    // Uploads decoded at once: as many as half the heap holds at the per-upload bound, so that
    // their sum fits whatever the heap's size (at least one, at most --threads).
    long perUpload = settings.limits().memoryPerUpload();
    this.decodingPermits =
        (int)
            Math.max(
                1, Math.min(settings.threads(), Runtime.getRuntime().maxMemory() / 2 / perUpload));
    this.decoding = new Semaphore(decodingPermits, true);
    jetty.setHandler(new Api());
  }

  /**
   * Stops (false) or resumes logging a line per accepted upload ({@code acf center serve --quiet});
   * refused requests and store failures are logged whatever this says.
   */
  public CenterServer logAccepted(boolean on) {
    logAccepted = on;
    return this;
  }

  /**
   * Also logs a line per answered request that is not an upload ({@code acf center serve
   * --verbose}): method, path, status and client, as the log's other lines.
   */
  public CenterServer logReads(boolean on) {
    logReads = on;
    return this;
  }

  /**
   * Starts a center on {@code store}; it accepts requests when this returns. {@code log} receives
   * one line per upload and per refused request.
   */
  public static CenterServer start(Store store, Settings settings, PrintStream log)
      throws IOException {
    return bind(settings).start(store, log);
  }

  /**
   * Binds the listening socket without serving yet, so that a caller can find the port taken before
   * it creates or migrates a store ({@code acf center serve} does).
   *
   * @throws BindException when the port is taken
   * @throws IOException when the socket or the TLS files cannot be used
   */
  public static Bound bind(Settings settings) throws IOException {
    return new Bound(settings);
  }

  /** A bound socket that does not yet accept requests; close it or start a center on it. */
  public static final class Bound implements AutoCloseable {
    private final Settings settings;
    private final Server jetty;
    private final ServerConnector connector;
    private boolean started;

    private Bound(Settings settings) throws IOException {
      this.settings = settings;
      Limits l = settings.limits();
      // Worker threads for the handlers plus Jetty's own acceptor and selectors.
      QueuedThreadPool pool = new QueuedThreadPool(settings.threads() + 8, 4);
      pool.setName("center-http");
      pool.setDaemon(true);
      jetty = new Server(pool);
      jetty.setErrorHandler(new JsonErrors());
      HttpConfiguration http = new HttpConfiguration();
      http.setRequestHeaderSize(l.maxHeaderBytes());
      http.setSendServerVersion(false);
      http.setSendXPoweredBy(false);
      http.setIdleTimeout(l.idleTimeout().toMillis());
      http.setMinRequestDataRate(l.minRequestBytesPerSecond());
      HttpConnectionFactory h1 = new HttpConnectionFactory(http);
      ConnectionFactory[] factories;
      if (settings.tls() != null) {
        http.addCustomizer(new SecureRequestCustomizer(false));
        SslContextFactory.Server ssl = new SslContextFactory.Server();
        ssl.setKeyStore(PemKeys.keyStore(settings.tls().cert(), settings.tls().key()));
        ssl.setKeyStorePassword(PemKeys.PASSWORD);
        // ALPN picks HTTP/2 for clients that offer it (the JDK's SSLEngine does ALPN itself).
        HTTP2ServerConnectionFactory h2 = new HTTP2ServerConnectionFactory(http);
        h2.setMaxConcurrentStreams(settings.threads());
        ALPNServerConnectionFactory alpn = new ALPNServerConnectionFactory("h2", "http/1.1");
        alpn.setDefaultProtocol(h1.getProtocol());
        factories =
            new ConnectionFactory[] {
              new SslConnectionFactory(ssl, alpn.getProtocol()), alpn, h2, h1
            };
      } else {
        HTTP2CServerConnectionFactory h2c = new HTTP2CServerConnectionFactory(http);
        h2c.setMaxConcurrentStreams(settings.threads());
        factories = new ConnectionFactory[] {h1, h2c};
      }
      connector = new ServerConnector(jetty, 1, 1, factories);
      connector.setHost(settings.bind());
      connector.setPort(settings.port());
      connector.setIdleTimeout(l.idleTimeout().toMillis());
      connector.setAcceptQueueSize(256);
      connector.addBean(new PerClient(l.maxConnectionsPerClient(), l.idleTimeout(), connector));
      jetty.addBean(new NetworkConnectionLimit(l.maxConnections(), connector));
      jetty.addConnector(connector);
      try {
        connector.open();
      } catch (IOException e) {
        closeQuietly();
        // Jetty wraps the JDK's BindException; callers tell a taken port by it.
        if (e.getCause() instanceof BindException b) {
          throw b;
        }
        throw e;
      }
    }

    /** The port bound (the one picked when the settings said 0). */
    public int port() {
      return connector.getLocalPort();
    }

    /** Serves {@code store} on this socket; the center accepts requests when this returns. */
    public CenterServer start(Store store, PrintStream log) throws IOException {
      if (started) {
        throw new IllegalStateException("already started");
      }
      started = true;
      CenterServer s = new CenterServer(store, settings, log, this);
      try {
        jetty.start();
      } catch (Exception e) {
        closeQuietly();
        throw new IOException("cannot start the HTTP server: " + e.getMessage(), e);
      }
      return s;
    }

    private void closeQuietly() {
      try {
        jetty.stop();
      } catch (Exception ignored) {
        // stopping a server that did not start: nothing held
      }
      connector.close();
    }

    /** Releases the socket if no center was started on it. */
    @Override
    public void close() {
      if (!started) {
        closeQuietly();
      }
    }
  }

  /** The address it listens on, as {@code http://HOST:PORT} (https with TLS). */
  public String url() {
    String host = connector.getHost();
    if (host == null || host.isEmpty() || host.equals("0.0.0.0") || host.equals("::")) {
      host = "127.0.0.1";
    }
    return (settings.tls() != null ? "https" : "http")
        + "://"
        + (host.contains(":") ? "[" + host + "]" : host)
        + ":"
        + connector.getLocalPort();
  }

  public int port() {
    return connector.getLocalPort();
  }

  public Store store() {
    return store;
  }

  /**
   * Uploads this center decodes at once (the rest wait): from the heap and the per-upload bound.
   */
  public int decodingPermits() {
    return decodingPermits;
  }

  /** The API's one handler: routes by path, answers JSON, never a stack trace. */
  private final class Api extends Handler.Abstract {
    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      Exchange x = new Exchange(request, response, callback);
      // Logged before the answer is written, so that the line is there once the client has it.
      x.beforeAnswer =
          status -> {
            if (logReads && status < 400 && !x.method.equals("POST")) {
              log(answered(x, status));
            }
          };
      try {
        route(x);
      } catch (UploadException e) {
        refuse(x, e.status(), e.getMessage(), null);
      } catch (StoreException e) {
        // The cause (with its SQL) stays in the log; the client learns only that the store failed.
        log("503 " + x.method + " " + x.path + ": " + e.getMessage());
        x.header("Retry-After", "10");
        x.error(503, "the store failed; try again later (the center's log says why)");
      } catch (IOException e) {
        log("400 " + x.method + " " + x.path + ": cannot read the request: " + e.getMessage());
        x.error(400, "cannot read the request (the connection ended or stalled)");
      } catch (RuntimeException e) {
        log("500 " + x.method + " " + x.path + ": " + e);
        x.error(500, "internal error (see the center's log)");
      }
      if (!x.answered) {
        x.error(500, "internal error (see the center's log)");
      }
      return true;
    }
  }

  private void route(Exchange x) throws UploadException, StoreException, IOException {
    String path = x.path;
    if (path.equals("/v1/health")) {
      need(x, "GET", "HEAD");
      x.send(
          200,
          UploadCodec.JSON
              .createObjectNode()
              .put("ok", true)
              .put("upload_version", Upload.VERSION));
    } else if (path.equals("/v1/uploads")) {
      need(x, "POST");
      upload(x);
    } else if (path.equals("/v1/profiles")) {
      need(x, "GET");
      reader(x, false);
      profiles(x, x.query());
    } else if (path.equals("/v1/status")) {
      need(x, "GET");
      reader(x, false);
      x.send(200, statusJson(store.status()));
    } else if (path.matches("/v1/programs/[0-9a-f]{64}/phases")) {
      need(x, "GET");
      // Phase feedback: what a device asks at the start of each run, so its own token will do.
      reader(x, true);
      x.send(200, phasesJson(path.split("/")[3]));
    } else if (path.matches("/v1/programs/[0-9a-f]{64}/estimate")) {
      need(x, "GET");
      reader(x, false);
      String sink = x.query().get("sink");
      if (sink == null) {
        throw new UploadException(400, "estimate needs ?sink=NAME");
      }
      ObjectNode o = UploadCodec.JSON.createObjectNode();
      o.put("sink", sink);
      ObjectNode e = o.putObject("estimate");
      store.estimate(path.split("/")[3], sink).forEach(e::put);
      x.send(200, o);
    } else {
      throw new UploadException(404, "no such endpoint: " + path + " (see spec/remote.md)");
    }
  }

  private static void need(Exchange x, String... methods) throws UploadException {
    for (String m : methods) {
      if (m.equals(x.method)) {
        return;
      }
    }
    x.header("Allow", String.join(", ", methods));
    throw new UploadException(
        405, "use " + String.join(" or ", methods) + " here, not " + x.method);
  }

  /**
   * Checks a GET's token: a read token, or (for phase feedback) a device's; none needed under
   * --public-read or --no-auth.
   */
  private void reader(Exchange x, boolean deviceMay) throws UploadException, StoreException {
    if (settings.openReads()) {
      return;
    }
    String token = x.bearer();
    if (token == null) {
      throw new UploadException(
          401,
          "reading needs a read token as `Authorization: Bearer TOKEN` (acf center token add NAME"
              + " --read; the center's --public-read opens reads to anyone)");
    }
    if (store.readerOf(token) != null) {
      return;
    }
    if (store.deviceOf(token) != null) {
      if (deviceMay) {
        return;
      }
      throw new UploadException(403, "a device's token may upload, not read (use a read token)");
    }
    throw new UploadException(401, "unknown token");
  }

  private void upload(Exchange x) throws IOException, UploadException, StoreException {
    Limits limits = settings.limits();
    String tokenDevice = null;
    if (!settings.noAuth()) {
      String token = x.bearer();
      if (token == null) {
        x.drain(limits.maxUploadBytes());
        throw new UploadException(
            401, "an upload needs `Authorization: Bearer TOKEN` (acf center token add DEVICE)");
      }
      tokenDevice = store.deviceOf(token);
      if (tokenDevice == null) {
        x.drain(limits.maxUploadBytes());
        throw new UploadException(401, "unknown token");
      }
    }
    long length = x.request.getLength();
    if (length > limits.maxUploadBytes()) {
      // Read and drop a body up to four times the limit, so that the sender, still writing,
      // sees the 413 rather than a reset connection; a larger one is cut off. Nothing is kept.
      if (length <= 4 * limits.maxUploadBytes()) {
        x.drain(length);
      }
      throw new UploadException(
          413, "upload of " + length + " bytes is over the limit of " + limits.maxUploadBytes());
    }
    boolean permitted;
    try {
      permitted = decoding.tryAcquire(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      permitted = false;
    }
    if (!permitted) {
      x.header("Retry-After", "30");
      throw new UploadException(503, "the center is busy decoding other uploads; try again later");
    }
    Upload u;
    long bytes;
    try {
      CountingBody body = new CountingBody(Request.asInputStream(x.request), limits);
      u =
          UploadCodec.read(
              body, new UploadCodec.Limits(limits.maxUncompressedBytes(), limits.maxPartMemory()));
      // The gzip trailer and anything after it: a body must end where its stream does.
      if (body.read() >= 0) {
        throw new UploadException(400, "content after the gzip stream");
      }
      bytes = body.count;
      if (tokenDevice != null && !tokenDevice.equals(u.device())) {
        refuse(
            x,
            403,
            "this token belongs to device " + tokenDevice + ", not " + u.device(),
            u.device());
        return;
      }
      Store.Ingested r = store.ingest(u, bytes, settings.threshold());
      if (logAccepted) {
        log(
            (r == Store.Ingested.STORED ? "201" : "200")
                + " upload "
                + u.uploadId()
                + " part "
                + u.part()
                + " from "
                + u.device()
                + " ("
                + u.programName()
                + ", "
                + bytes
                + " bytes)"
                + (r == Store.Ingested.DUPLICATE ? ": already held, not stored again" : ""));
      }
      ObjectNode o = UploadCodec.JSON.createObjectNode();
      o.put("upload_id", u.uploadId());
      o.put("part", u.part());
      o.put("stored", r == Store.Ingested.STORED);
      x.send(r == Store.Ingested.STORED ? 201 : 200, o);
    } finally {
      decoding.release();
    }
  }

  /**
   * The request body, counted while it is read: refused (413) past the compressed limit, and (408)
   * when, after a grace of {@link #GRACE_NANOS}, it arrives slower than the minimum rate, so that a
   * body dripped byte by byte holds a worker for seconds, not hours.
   */
  private static final class CountingBody extends MeteredInputStream {
    static final long GRACE_NANOS = TimeUnit.SECONDS.toNanos(5);
    private final long max;
    private final long minRate;
    private final long deadline;
    private final long start = System.nanoTime();
    long count;

    CountingBody(InputStream in, Limits limits) {
      super(in);
      this.max = limits.maxUploadBytes();
      this.minRate = limits.minRequestBytesPerSecond();
      // The whole body within six idle timeouts (2 minutes by default): a body that keeps the
      // minimum rate still cannot hold a decoding permit for long.
      this.deadline = 6 * limits.idleTimeout().toNanos();
    }

    @Override
    protected void counted(int n) throws IOException {
      count += n;
      if (count > max) {
        throw new IOException(
            new UploadException(413, "upload is over the limit of " + max + " bytes"));
      }
      long elapsed = System.nanoTime() - start;
      if (elapsed > deadline) {
        throw new IOException(
            new UploadException(
                408,
                "the upload took longer than "
                    + TimeUnit.NANOSECONDS.toSeconds(deadline)
                    + " s (six idle timeouts)"));
      }
      long late = elapsed - GRACE_NANOS;
      if (minRate > 0 && late > 0 && count < minRate * (late / 1_000_000_000.0)) {
        throw new IOException(
            new UploadException(
                408, "the upload arrives slower than " + minRate + " bytes per second"));
      }
    }
  }

  private void profiles(Exchange x, Map<String, String> q) throws UploadException, StoreException {
    Store.Filter f = filter(q);
    String sink = q.get("sink");
    if (sink == null || sink.isEmpty()) {
      throw new UploadException(
          400, "a profile query needs ?sink=NAME; held: " + String.join(", ", store.sinks(f)));
    }
    boolean[] saturated = new boolean[1];
    ProfileTable t = store.merged(sink, f, saturated);
    if (t == null) {
      List<String> held = store.sinks(f);
      throw new UploadException(
          404,
          "no uploads hold sink "
              + sink
              + " for this selection"
              + (held.isEmpty() ? "" : "; held: " + String.join(", ", held)));
    }
    ObjectNode o = profileJson(sink, t);
    if (saturated[0] || o.path("saturated").asBoolean(false)) {
      o.put("saturated", true);
    }
    x.send(200, o);
  }

  static Store.Filter filter(Map<String, String> q) throws UploadException {
    Long since = null;
    if (q.get("since") != null) {
      try {
        since = Since.parse(q.get("since"), Instant.now()).toEpochMilli();
      } catch (IllegalArgumentException | ArithmeticException | DateTimeException e) {
        throw new UploadException(
            400,
            "since "
                + q.get("since")
                + ": expected an ISO-8601 time (2026-11-24T08:00:00Z), a date (2026-11-24) or an"
                + " age (30m, 2h, 7d) that the clock can represent");
      }
    }
    return new Store.Filter(q.get("program"), q.get("device"), since);
  }

  /**
   * A profile as {@code acf run --out} writes NAME.json: columns, key, weight, total, rows; {@code
   * saturated} when a sum reached 2^63-1 and stopped there (spec/remote.md).
   */
  public static ObjectNode profileJson(String name, ProfileTable t) {
    ObjectNode o = UploadCodec.JSON.createObjectNode();
    o.put("profile", name);
    t.header().forEach(o.putArray("columns")::add);
    t.key().forEach(o.putArray("key")::add);
    o.put("weight", t.weight());
    int w = t.header().indexOf(t.weight());
    long total = 0;
    boolean saturated = false;
    for (List<String> r : t.rows()) {
      long v;
      try {
        v = Long.parseLong(r.get(w));
      } catch (NumberFormatException e) {
        continue;
      }
      long sum = total + v;
      if (((total ^ sum) & (v ^ sum)) < 0) {
        sum = Long.MAX_VALUE;
        saturated = true;
      }
      total = sum;
    }
    o.put("total", total);
    if (saturated) {
      o.put("saturated", true);
    }
    ArrayNode rows = o.putArray("rows");
    for (List<String> r : t.rows()) {
      ObjectNode row = rows.addObject();
      for (int i = 0; i < r.size(); i++) {
        String cell = r.get(i);
        if (cell.matches("-?(0|[1-9][0-9]{0,17})")) {
          row.put(t.header().get(i), Long.parseLong(cell));
        } else if (cell.matches("-?(0|[1-9][0-9]*)\\.[0-9]+")) {
          row.put(t.header().get(i), new java.math.BigDecimal(cell));
        } else if (cell.matches("[0-9]{19}")) {
          row.put(t.header().get(i), new java.math.BigInteger(cell));
        } else {
          row.put(t.header().get(i), cell);
        }
      }
    }
    return o;
  }

  private ObjectNode phasesJson(String sha) throws StoreException {
    ObjectNode o = UploadCodec.JSON.createObjectNode();
    o.put("program", sha);
    o.put("threshold", settings.threshold());
    o.put("enough", settings.enough());
    ArrayNode a = o.putArray("phases");
    for (Store.Phase p : store.phases(sha)) {
      ObjectNode n =
          UploadCodec.phase(
              a.addObject(),
              p.phase(),
              p.signature(),
              p.intervals(),
              p.instructions(),
              p.sampledIntervals(),
              p.sampledInstructions());
      n.put("enough", p.sampledIntervals() >= settings.enough());
    }
    return o;
  }

  static ObjectNode statusJson(Store.Status s) {
    ObjectNode o = UploadCodec.JSON.createObjectNode();
    o.put("uploads", s.uploads());
    o.put("parts", s.parts());
    o.put("bytes", s.bytes());
    o.put("phases", s.phases());
    ArrayNode programs = o.putArray("programs");
    for (Store.ProgramStatus p : s.programs()) {
      programs
          .addObject()
          .put("name", p.name())
          .put("sha256", p.sha256())
          .put("uploads", p.uploads())
          .put("parts", p.parts())
          .put("devices", p.devices())
          .put("phases", p.phases())
          .put("bytes", p.bytes())
          .put("instructions", p.instructions())
          .put("sampled_instructions", p.sampledInstructions());
    }
    ArrayNode devices = o.putArray("devices");
    for (Store.DeviceStatus d : s.devices()) {
      ObjectNode n =
          devices
              .addObject()
              .put("device", d.device())
              .put("token", d.token())
              .put("uploads", d.uploads())
              .put("bytes", d.bytes());
      if (d.lastMs() > 0) {
        n.put("last_upload", Instant.ofEpochMilli(d.lastMs()).toString());
      }
    }
    return o;
  }

  private void refuse(Exchange x, int status, String message, String device) {
    log(answered(x, status) + (device != null ? " (device " + device + ")" : "") + ": " + message);
    x.error(status, message);
  }

  /** The start of a request's log line: its status, method, path and client. */
  private static String answered(Exchange x, int status) {
    return status + " " + x.method + " " + x.path + " from " + Request.getRemoteAddr(x.request);
  }

  /** One line in the log, every value from the network escaped. */
  private void log(String line) {
    synchronized (log) {
      log.println("center: " + Instant.now() + " " + CenterLog.escape(line));
    }
  }

  /** One request and its answer, written once. */
  private static final class Exchange {
    final Request request;
    final Response response;
    final Callback callback;
    final String method;
    final String path;
    boolean answered;
    java.util.function.IntConsumer beforeAnswer = status -> {};

    Exchange(Request request, Response response, Callback callback) {
      this.request = request;
      this.response = response;
      this.callback = callback;
      this.method = request.getMethod();
      String p = request.getHttpURI().getPath();
      this.path = p == null ? "/" : p;
    }

    String bearer() {
      String auth = request.getHeaders().get(HttpHeader.AUTHORIZATION);
      if (auth == null || !auth.startsWith("Bearer ")) {
        return null;
      }
      String t = auth.substring("Bearer ".length()).trim();
      return t.isEmpty() ? null : t;
    }

    Map<String, String> query() throws UploadException {
      return CenterServer.query(request.getHttpURI().getQuery());
    }

    void header(String name, String value) {
      response.getHeaders().put(name, value);
    }

    /** Reads and drops up to {@code max} bytes of a refused body, so the sender sees the answer. */
    void drain(long max) {
      try (InputStream in = Request.asInputStream(request)) {
        byte[] buf = new byte[16384];
        long left = max;
        int n;
        while (left > 0 && (n = in.read(buf, 0, (int) Math.min(buf.length, left))) > 0) {
          left -= n;
        }
      } catch (IOException e) {
        // the sender went away: the answer is written anyway
      }
    }

    void error(int status, String message) {
      send(status, UploadCodec.JSON.createObjectNode().put("error", message));
    }

    void send(int status, ObjectNode body) {
      if (answered) {
        return;
      }
      answered = true;
      byte[] b;
      try {
        b = UploadCodec.JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(body);
      } catch (IOException e) {
        b = "{\"error\": \"internal error\"}".getBytes(StandardCharsets.UTF_8);
        status = 500;
      }
      beforeAnswer.accept(status);
      response.setStatus(status);
      response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json; charset=utf-8");
      response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
      response.getHeaders().put(HttpHeader.CONTENT_LENGTH, b.length);
      response.write(true, ByteBuffer.wrap(b), callback);
    }
  }

  /**
   * The server's own errors (a malformed request line, headers over the limit, a stalled body) as
   * the API's: a JSON object with {@code error}, never an HTML page or an exception's name.
   */
  private static final class JsonErrors extends ErrorHandler {
    @Override
    public boolean errorPageForMethod(String method) {
      return true;
    }

    @Override
    protected void generateResponse(
        Request request,
        Response response,
        int code,
        String message,
        Throwable cause,
        Callback callback) {
      byte[] b = body(code);
      response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json; charset=utf-8");
      response.getHeaders().put(HttpHeader.CONTENT_LENGTH, b.length);
      response.write(true, ByteBuffer.wrap(b), callback);
    }

    @Override
    public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
      fields.put(new HttpField(HttpHeader.CONTENT_TYPE, "application/json; charset=utf-8"));
      return ByteBuffer.wrap(body(status));
    }

    private static byte[] body(int code) {
      String text =
          switch (code) {
            case 400 -> "bad request: the request line, headers or URI are malformed";
            case 408 -> "the request took too long (idle or slower than the center's minimum rate)";
            case 413 -> "the request is over the center's size limit";
            case 414 -> "the URI is over the center's size limit";
            case 431 -> "the request's headers are over the center's limit";
            default -> HttpStatus.getMessage(code);
          };
      String json = UploadCodec.JSON.createObjectNode().put("error", text).toPrettyString();
      return json.getBytes(StandardCharsets.UTF_8);
    }
  }

  /**
   * At most {@code max} open connections from one address: one client cannot take every connection
   * the center accepts (NetworkConnectionLimit bounds them all).
   */
  private static final class PerClient implements Connection.Listener {
    private final int max;
    private final Duration headerDeadline;
    private final ServerConnector connector;
    private final Map<String, Integer> open = new ConcurrentHashMap<>();
    // The address each counted connection was opened from (a closed one no longer knows it).
    private final Map<Connection, String> counted = new ConcurrentHashMap<>();

    PerClient(int max, Duration headerDeadline, ServerConnector connector) {
      this.max = max;
      this.headerDeadline = headerDeadline;
      this.connector = connector;
    }

    private static String address(Connection c) {
      SocketAddress a = c.getEndPoint().getRemoteSocketAddress();
      return a instanceof InetSocketAddress i && i.getAddress() != null
          ? i.getAddress().getHostAddress()
          : String.valueOf(a);
    }

    @Override
    public void onOpened(Connection c) {
      if (c instanceof HttpConnection h) {
        watchHeaders(h, System.nanoTime());
      }
      if (!(c.getEndPoint() instanceof org.eclipse.jetty.io.SocketChannelEndPoint)) {
        return; // a connection inside TLS: its socket's connection is the one counted
      }
      String a = address(c);
      if (open.merge(a, 1, Integer::sum) > max) {
        release(a);
        c.getEndPoint().close();
        return;
      }
      counted.put(c, a);
    }

    /**
     * A header deadline for every request on an HTTP/1 connection, not only the first: headers must
     * arrive whole within the idle timeout of their first byte (of the connection's opening, for
     * the first request), however slowly they trickle to stay "active". The connection is looked at
     * four times per deadline; a request whose headers are complete (its body is bounded by the
     * minimum data rate) or a connection waiting between requests (bounded by the idle timeout)
     * restarts the clock.
     */
    private void watchHeaders(HttpConnection h, long since) {
      long tick = Math.max(1, headerDeadline.toMillis() / 4);
      connector
          .getScheduler()
          .schedule(
              () -> {
                if (!h.getEndPoint().isOpen() || h.getEndPoint().getConnection() != h) {
                  return; // closed, or upgraded to HTTP/2 (its own limits apply)
                }
                HttpParser p = h.getParser();
                boolean waitingForHeaders =
                    h.getMessagesIn() == 0 ? p.inHeaderState() : p.inHeaderState() && !p.isStart();
                long now = System.nanoTime();
                if (!waitingForHeaders) {
                  watchHeaders(h, now);
                } else if (now - since >= headerDeadline.toNanos()) {
                  h.getEndPoint().close();
                } else {
                  watchHeaders(h, since);
                }
              },
              tick,
              TimeUnit.MILLISECONDS);
    }

    @Override
    public void onClosed(Connection c) {
      String a = counted.remove(c);
      if (a != null) {
        release(a);
      } // else refused on opening: never counted
    }

    private void release(String a) {
      open.computeIfPresent(a, (k, v) -> v <= 1 ? null : v - 1);
    }
  }

  static Map<String, String> query(String raw) throws UploadException {
    Map<String, String> out = new LinkedHashMap<>();
    if (raw == null || raw.isEmpty()) {
      return out;
    }
    for (String kv : raw.split("&")) {
      int eq = kv.indexOf('=');
      try {
        String k = URLDecoder.decode(eq < 0 ? kv : kv.substring(0, eq), StandardCharsets.UTF_8);
        String v = eq < 0 ? "" : URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8);
        out.put(k, v);
      } catch (IllegalArgumentException e) {
        throw new UploadException(400, "malformed query: a bad %-escape");
      }
    }
    return out;
  }

  /** Stops accepting, lets requests under way finish (up to two seconds), closes the store. */
  @Override
  public void close() {
    jetty.setStopTimeout(2000);
    try {
      jetty.stop();
    } catch (Exception e) {
      log("stopping the HTTP server: " + e.getMessage());
    }
    store.close();
  }
}
