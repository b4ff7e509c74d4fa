package org.dise.center;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.dise.runtime.sink.ProfileTable;

/**
 * The optimization center's HTTP service (first paper, Section 4; spec/remote.md): devices upload
 * profile parts, users query merged profiles and status, devices ask which phases of a program the
 * center already holds enough of. Runs on the JDK's own HTTP server with a fixed pool of worker
 * threads (center/README.md says why).
 */
public final class CenterServer implements AutoCloseable {
  /** What a center is started with. */
  public record Settings(
      String bind,
      int port,
      boolean noAuth,
      long maxUploadBytes,
      long maxJsonBytes,
      double threshold,
      long enough,
      int threads) {
    public static Settings defaults() {
      return new Settings("127.0.0.1", 8470, false, 8L << 20, 64L << 20, 25, 1, 16);
    }

    public Settings withPort(int p) {
      return new Settings(
          bind, p, noAuth, maxUploadBytes, maxJsonBytes, threshold, enough, threads);
    }

    public Settings withNoAuth(boolean n) {
      return new Settings(bind, port, n, maxUploadBytes, maxJsonBytes, threshold, enough, threads);
    }

    public Settings withEnough(long e) {
      return new Settings(bind, port, noAuth, maxUploadBytes, maxJsonBytes, threshold, e, threads);
    }

    public Settings withThreshold(double t) {
      return new Settings(bind, port, noAuth, maxUploadBytes, maxJsonBytes, t, enough, threads);
    }
  }

  private final Store store;
  private final Settings settings;
  private final PrintStream log;
  private final HttpServer http;
  private final ExecutorService workers;

  private CenterServer(Store store, Settings settings, PrintStream log, HttpServer http) {
    this.store = store;
    this.settings = settings;
    this.log = log;
    this.http = http;
    this.workers =
        Executors.newFixedThreadPool(
            settings.threads(),
            r -> {
              Thread t = new Thread(r, "center-http");
              t.setDaemon(true);
              return t;
            });
    http.setExecutor(workers);
    http.createContext("/", this::handle);
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
   */
  public static Bound bind(Settings settings) throws IOException {
    return new Bound(
        settings, HttpServer.create(new InetSocketAddress(settings.bind(), settings.port()), 256));
  }

  /** A bound socket that does not yet accept requests; close it or start a center on it. */
  public static final class Bound implements AutoCloseable {
    private final Settings settings;
    private final HttpServer http;
    private boolean started;

    private Bound(Settings settings, HttpServer http) {
      this.settings = settings;
      this.http = http;
    }

    /** The port bound (the one picked when the settings said 0). */
    public int port() {
      return http.getAddress().getPort();
    }

    /** Serves {@code store} on this socket; the center accepts requests when this returns. */
    public CenterServer start(Store store, PrintStream log) {
      if (started) {
        throw new IllegalStateException("already started");
      }
      started = true;
      CenterServer s = new CenterServer(store, settings, log, http);
      http.start();
      return s;
    }

    /** Releases the socket if no center was started on it. */
    @Override
    public void close() {
      if (!started) {
        http.stop(0);
      }
    }
  }

  /** The address it listens on, as {@code http://HOST:PORT}. */
  public String url() {
    InetSocketAddress a = http.getAddress();
    String host = a.getAddress().getHostAddress();
    return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort();
  }

  public int port() {
    return http.getAddress().getPort();
  }

  public Store store() {
    return store;
  }

  private void handle(HttpExchange x) throws IOException {
    try (x) {
      String path = x.getRequestURI().getRawPath();
      String method = x.getRequestMethod();
      Map<String, String> query = query(x.getRequestURI().getRawQuery());
      try {
        if (path.equals("/v1/uploads")) {
          need(method, "POST");
          upload(x);
        } else if (path.equals("/v1/profiles")) {
          need(method, "GET");
          profiles(x, query);
        } else if (path.equals("/v1/status")) {
          need(method, "GET");
          send(x, 200, statusJson(store.status()));
        } else if (path.equals("/v1/health")) {
          send(
              x,
              200,
              UploadCodec.JSON
                  .createObjectNode()
                  .put("ok", true)
                  .put("upload_version", Upload.VERSION));
        } else if (path.matches("/v1/programs/[0-9a-f]{64}/phases")) {
          need(method, "GET");
          send(x, 200, phasesJson(path.split("/")[3]));
        } else if (path.matches("/v1/programs/[0-9a-f]{64}/estimate")) {
          need(method, "GET");
          String sink = query.get("sink");
          if (sink == null) {
            throw new UploadException(400, "estimate needs ?sink=NAME");
          }
          ObjectNode o = UploadCodec.JSON.createObjectNode();
          o.put("sink", sink);
          ObjectNode e = o.putObject("estimate");
          store.estimate(path.split("/")[3], sink).forEach(e::put);
          send(x, 200, o);
        } else {
          throw new UploadException(404, "no such endpoint: " + path + " (see spec/remote.md)");
        }
      } catch (UploadException e) {
        refuse(x, e.status(), e.getMessage(), null);
      } catch (StoreException e) {
        log("503 " + method + " " + path + ": " + e.getMessage());
        error(x, 503, "the store failed: " + e.getMessage());
      } catch (RuntimeException e) {
        // Never a stack trace to the client; the log keeps the cause.
        log("500 " + method + " " + path + ": " + e);
        error(x, 500, "internal error (see the center's log)");
      }
    }
  }

  private static void need(String method, String wanted) throws UploadException {
    if (!method.equals(wanted)) {
      throw new UploadException(405, "use " + wanted + " here, not " + method);
    }
  }

  private void upload(HttpExchange x) throws IOException, UploadException, StoreException {
    String tokenDevice = null;
    if (!settings.noAuth()) {
      String auth = x.getRequestHeaders().getFirst("Authorization");
      if (auth == null || !auth.startsWith("Bearer ")) {
        drain(x.getRequestBody(), settings.maxUploadBytes());
        refuse(
            x,
            401,
            "an upload needs `Authorization: Bearer TOKEN` (acf center token add" + " DEVICE)",
            null);
        return;
      }
      tokenDevice = store.deviceOf(auth.substring("Bearer ".length()).trim());
      if (tokenDevice == null) {
        drain(x.getRequestBody(), settings.maxUploadBytes());
        refuse(x, 401, "unknown token", null);
        return;
      }
    }
    String length = x.getRequestHeaders().getFirst("Content-Length");
    if (length != null
        && length.matches("[0-9]{1,18}")
        && Long.parseLong(length) > settings.maxUploadBytes()) {
      // Read and drop a body up to four times the limit, so that the sender, still writing,
      // sees the 413 rather than a reset connection; a larger one is cut off.
      if (Long.parseLong(length) <= 4 * settings.maxUploadBytes()) {
        x.getRequestBody().transferTo(OutputStream.nullOutputStream());
      }
      throw new UploadException(
          413, "upload of " + length + " bytes is over the limit of " + settings.maxUploadBytes());
    }
    byte[] body = readBody(x.getRequestBody(), settings.maxUploadBytes());
    Upload u = UploadCodec.read(body, settings.maxJsonBytes());
    if (tokenDevice != null && !tokenDevice.equals(u.device())) {
      refuse(
          x,
          403,
          "this token belongs to device " + tokenDevice + ", not " + u.device(),
          u.device());
      return;
    }
    Store.Ingested r = store.ingest(u, body.length, settings.threshold());
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
            + body.length
            + " bytes)"
            + (r == Store.Ingested.DUPLICATE ? ": already held, not stored again" : ""));
    ObjectNode o = UploadCodec.JSON.createObjectNode();
    o.put("upload_id", u.uploadId());
    o.put("part", u.part());
    o.put("stored", r == Store.Ingested.STORED);
    send(x, r == Store.Ingested.STORED ? 201 : 200, o);
  }

  /** Reads and drops up to {@code max} bytes of a refused body, so the sender sees the answer. */
  private static void drain(InputStream in, long max) throws IOException {
    byte[] buf = new byte[16384];
    long left = max;
    int n;
    while (left > 0 && (n = in.read(buf, 0, (int) Math.min(buf.length, left))) > 0) {
      left -= n;
    }
  }

  private static byte[] readBody(InputStream in, long max) throws IOException, UploadException {
    byte[] buf = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, max + 1));
    if (buf.length > max) {
      throw new UploadException(413, "upload is over the limit of " + max + " bytes");
    }
    return buf;
  }

  private void profiles(HttpExchange x, Map<String, String> q)
      throws IOException, UploadException, StoreException {
    Store.Filter f = filter(q);
    String sink = q.get("sink");
    if (sink == null || sink.isEmpty()) {
      throw new UploadException(
          400, "a profile query needs ?sink=NAME; held: " + String.join(", ", store.sinks(f)));
    }
    ProfileTable t = store.merged(sink, f);
    if (t == null) {
      List<String> held = store.sinks(f);
      throw new UploadException(
          404,
          "no uploads hold sink "
              + sink
              + " for this selection"
              + (held.isEmpty() ? "" : "; held: " + String.join(", ", held)));
    }
    send(x, 200, profileJson(sink, t));
  }

  static Store.Filter filter(Map<String, String> q) throws UploadException {
    Long since = null;
    if (q.get("since") != null) {
      try {
        since = Since.parse(q.get("since"), Instant.now()).toEpochMilli();
      } catch (IllegalArgumentException e) {
        throw new UploadException(400, e.getMessage());
      }
    }
    return new Store.Filter(q.get("program"), q.get("device"), since);
  }

  /** A profile as {@code acf run --out} writes NAME.json: columns, key, weight, total, rows. */
  public static ObjectNode profileJson(String name, ProfileTable t) {
    ObjectNode o = UploadCodec.JSON.createObjectNode();
    o.put("profile", name);
    t.header().forEach(o.putArray("columns")::add);
    t.key().forEach(o.putArray("key")::add);
    o.put("weight", t.weight());
    long total = 0;
    for (long w : t.weights().values()) {
      total += w;
    }
    o.put("total", total);
    ArrayNode rows = o.putArray("rows");
    for (List<String> r : t.rows()) {
      ObjectNode row = rows.addObject();
      for (int i = 0; i < r.size(); i++) {
        String cell = r.get(i);
        if (cell.matches("-?(0|[1-9][0-9]{0,17})")) {
          row.put(t.header().get(i), Long.parseLong(cell));
        } else if (cell.matches("-?(0|[1-9][0-9]*)\\.[0-9]+")) {
          row.put(t.header().get(i), new java.math.BigDecimal(cell));
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
      ObjectNode n = a.addObject();
      n.put("phase", p.phase());
      ArrayNode sig = n.putArray("signature");
      for (double d : p.signature()) {
        sig.add(d);
      }
      n.put("intervals", p.intervals());
      n.put("instructions", p.instructions());
      n.put("sampled_intervals", p.sampledIntervals());
      n.put("sampled_instructions", p.sampledInstructions());
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

  private void refuse(HttpExchange x, int status, String message, String device)
      throws IOException {
    log(
        status
            + " "
            + x.getRequestMethod()
            + " "
            + x.getRequestURI().getRawPath()
            + " from "
            + x.getRemoteAddress().getAddress().getHostAddress()
            + (device != null ? " (device " + device + ")" : "")
            + ": "
            + message);
    error(x, status, message);
  }

  private static void error(HttpExchange x, int status, String message) throws IOException {
    send(x, status, UploadCodec.JSON.createObjectNode().put("error", message));
  }

  private static void send(HttpExchange x, int status, ObjectNode body) throws IOException {
    byte[] b = UploadCodec.JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(body);
    x.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
    x.sendResponseHeaders(status, b.length);
    try (OutputStream out = x.getResponseBody()) {
      out.write(b);
    }
  }

  private void log(String line) {
    synchronized (log) {
      log.println("center: " + Instant.now() + " " + line);
    }
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> out = new LinkedHashMap<>();
    if (raw == null || raw.isEmpty()) {
      return out;
    }
    for (String kv : raw.split("&")) {
      int eq = kv.indexOf('=');
      String k = URLDecoder.decode(eq < 0 ? kv : kv.substring(0, eq), StandardCharsets.UTF_8);
      String v = eq < 0 ? "" : URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8);
      out.put(k, v);
    }
    return out;
  }

  /** Stops accepting, lets requests under way finish (up to two seconds), closes the store. */
  @Override
  public void close() {
    http.stop(1);
    workers.shutdown();
    try {
      workers.awaitTermination(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    store.close();
  }
}
