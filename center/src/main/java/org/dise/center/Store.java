package org.dise.center;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.dise.runtime.sink.ProfileTable;

/**
 * The center's store behind JDBC: SQLite embedded or PostgreSQL shared, one schema (versioned,
 * created on first start, spec/remote.md). Every upload is written in one transaction, so a refused
 * or failed part leaves no row behind; a part already held is not written again.
 */
public final class Store implements AutoCloseable {
  /** The schema this code reads and writes; a newer store is refused, an older one migrated. */
  public static final int SCHEMA_VERSION = StoreSchema.VERSION;

  /** Schema migrations, index i taking version i to i + 1 ({@link StoreSchema}). */
  static final List<List<String>> MIGRATIONS = StoreSchema.MIGRATIONS;

  private final StoreUrl url;
  private final BlockingQueue<Connection> pool;
  private final List<Connection> all = new ArrayList<>();
  private final StoreTokens tokens = new StoreTokens(this);
  private final StoreIngest ingest = new StoreIngest(this);
  private final StoreQueries queries = new StoreQueries(this);
  private final StoreRetention retention = new StoreRetention(this);
  // The time an ingest stamps on a part; a test or a simulation at a compressed clock sets it.
  private volatile java.util.function.LongSupplier clock = System::currentTimeMillis;

  private Store(StoreUrl url, int connections) {
    this.url = url;
    this.pool = new ArrayBlockingQueue<>(connections);
  }

  /**
   * Opens (creating on first use) the store at {@code url}: one connection for SQLite, whose
   * writers are serialised anyway, {@code connections} for PostgreSQL.
   *
   * @throws StoreException saying why the store cannot be opened
   */
  public static Store open(StoreUrl url, int connections) throws StoreException {
    int n = url.dialect() == StoreUrl.Dialect.SQLITE ? 1 : Math.max(1, connections);
    Store s = new Store(url, n);
    try {
      if (url.file() != null && url.file().getParent() != null) {
        Files.createDirectories(url.file().getParent());
      }
      if (url.file() != null) {
        createPrivate(url.file());
      }
      for (int i = 0; i < n; i++) {
        Connection c = DriverManager.getConnection(url.jdbcUrl(), url.properties());
        s.all.add(c);
        s.pool.add(c);
      }
      StoreSchema.migrate(s.all.get(0));
      return s;
    } catch (SQLException | IOException e) {
      s.close();
      throw new StoreException("store " + url.redacted() + ": cannot open: " + e.getMessage(), e);
    }
  }

  /** Milliseconds since the epoch as this store stamps parts. */
  long now() {
    return clock.getAsLong();
  }

  /** Stamps parts with {@code clock} instead of the system's (tests, simulations). */
  public void clock(java.util.function.LongSupplier clock) {
    this.clock = clock;
  }

  /** What a retention pass dropped: parts and profile rows, and the parts kept. */
  public record Collected(long parts, long profiles, long kept) {}

  /**
   * Retention: drops the parts received before {@code beforeMs} and their profiles, in batches that
   * never hold the store for long; the phase figures and weights and the programs' totals they
   * added to are kept ({@link StoreRetention}).
   */
  public Collected gc(long beforeMs) throws StoreException {
    return retention.gc(beforeMs);
  }

  public StoreUrl url() {
    return url;
  }

  /**
   * Creates the SQLite file readable by its owner alone (0600) before SQLite opens it: it holds
   * every device's profiles and the token hashes. An existing file keeps its mode.
   */
  private static void createPrivate(java.nio.file.Path file) throws IOException {
    if (Files.exists(file)) {
      return;
    }
    try {
      Files.createFile(
          file,
          java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
              java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
    } catch (UnsupportedOperationException e) {
      // not a POSIX file system: the platform's default mode
    } catch (java.nio.file.FileAlreadyExistsException e) {
      // another process created it first
    }
  }

  /** A unit of work on one connection. */
  interface Work<T> {
    T run(Connection c) throws SQLException, UploadException;
  }

  /** Runs {@code w} in one transaction: committed when it returns, rolled back when it throws. */
  <T> T transaction(Work<T> w) throws StoreException, UploadException {
    Connection c;
    try {
      c = pool.poll(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StoreException("interrupted while waiting for the store", e);
    }
    if (c == null) {
      throw new StoreException("the store is busy (no connection free for 30 s)", null);
    }
    try {
      c.setAutoCommit(false);
      T result = w.run(c);
      c.commit();
      return result;
    } catch (SQLException | UploadException | RuntimeException e) {
      try {
        c.rollback();
      } catch (SQLException ignored) {
        // the connection reports the first error; this one adds nothing
      }
      if (e instanceof UploadException u) {
        throw u;
      }
      if (e instanceof RuntimeException r) {
        throw r;
      }
      throw new StoreException("store " + url.redacted() + ": " + e.getMessage(), e);
    } finally {
      pool.add(c);
    }
  }

  /** As {@link #transaction} for work that refuses nothing. */
  <T> T read(Work<T> w) throws StoreException {
    try {
      return transaction(w);
    } catch (UploadException e) {
      throw new StoreException(e.getMessage(), e);
    }
  }

  /** Creates (or replaces) the token of {@code device} and returns it; only its hash is kept. */
  public String addToken(String device) throws StoreException {
    return tokens.addToken(device);
  }

  /**
   * Creates (or replaces) the read token called {@code name} and returns it: it may read profiles,
   * status and estimates but not upload. Only its hash is kept.
   */
  public String addReadToken(String name) throws StoreException {
    return tokens.addReadToken(name);
  }

  /** The reader a read token belongs to, or null. */
  public String readerOf(String token) throws StoreException {
    return tokens.readerOf(token);
  }

  /** The device a token belongs to, or null for an unknown token. */
  public String deviceOf(String token) throws StoreException {
    return tokens.deviceOf(token);
  }

  /** Whether an ingest stored a new part or found it already held. */
  public enum Ingested {
    STORED,
    DUPLICATE
  }

  /**
   * Stores one part in one transaction: the upload row, its profiles, and its phases matched
   * against the program's known phases at {@code threshold} percent (the tracker's measure).
   */
  public Ingested ingest(Upload u, long bytes, double threshold)
      throws StoreException, UploadException {
    return ingest.ingest(u, bytes, threshold);
  }

  /** {@code a + b}, or a 422 naming {@code what} when the sum does not fit 63 bits. */
  static long checkedSum(long a, long b, String what) throws UploadException {
    return StoreIngest.checkedSum(a, b, what);
  }

  /** Which uploads a query merges: any field may be null for all. */
  public record Filter(String program, String device, Long sinceMs) {}

  /**
   * The profile of {@code sink} merged over the selected uploads, or null when none holds it.
   *
   * @throws StoreException also when the selected uploads hold the sink in two shapes
   */
  public ProfileTable merged(String sink, Filter f) throws StoreException {
    return queries.merged(sink, f);
  }

  /**
   * As {@link #merged(String, Filter)}; {@code saturated[0]} is set when a merged count reached
   * 2^63-1 and stopped there.
   */
  public ProfileTable merged(String sink, Filter f, boolean[] saturated) throws StoreException {
    return queries.merged(sink, f, saturated);
  }

  /** The sinks the selected uploads hold, for a query that names none or a wrong one. */
  public List<String> sinks(Filter f) throws StoreException {
    return queries.sinks(f);
  }

  /** One program as {@code acf center status} lists it. */
  public record ProgramStatus(
      String name,
      String sha256,
      long uploads,
      long parts,
      long devices,
      long phases,
      long bytes,
      long instructions,
      long sampledInstructions) {}

  /** One device as {@code acf center status} lists it (lastMs 0 when it never uploaded). */
  public record DeviceStatus(String device, boolean token, long uploads, long bytes, long lastMs) {}

  /** Everything {@code acf center status} shows. */
  public record Status(
      List<ProgramStatus> programs,
      List<DeviceStatus> devices,
      long uploads,
      long parts,
      long bytes,
      long phases) {}

  public Status status() throws StoreException {
    return queries.status();
  }

  /** A phase the center knows of a program, with how much of it it holds. */
  public record Phase(
      int phase,
      double[] signature,
      long intervals,
      long instructions,
      long sampledIntervals,
      long sampledInstructions) {}

  /** The phases known of the program with this SHA-256, by phase ID. */
  public List<Phase> phases(String sha256) throws StoreException {
    return queries.phases(sha256);
  }

  /**
   * The whole-program estimate of {@code sink} over every device's runs of a program (the
   * phase-based paper's scaling, across users): per phase, the weights its sampled intervals added,
   * times the phase's instructions over its sampled instructions. Phases never sampled add nothing.
   */
  public Map<String, Double> estimate(String sha256, String sink) throws StoreException {
    return queries.estimate(sha256, sink);
  }

  static PreparedStatement prepare(Connection c, String sql, List<Object> args)
      throws SQLException {
    PreparedStatement q = c.prepareStatement(sql);
    for (int i = 0; i < args.size(); i++) {
      q.setObject(i + 1, args.get(i));
    }
    return q;
  }

  /** One row of a result set, read into a value. */
  interface Row<T> {
    T read(ResultSet rs) throws SQLException;
  }

  /** Runs the query {@code sql} with {@code args} bound in order and reads every row. */
  static <T> List<T> query(Connection c, String sql, List<Object> args, Row<T> row)
      throws SQLException {
    List<T> out = new ArrayList<>();
    try (PreparedStatement q = prepare(c, sql, args);
        ResultSet rs = q.executeQuery()) {
      while (rs.next()) {
        out.add(row.read(rs));
      }
    }
    return out;
  }

  /** Runs the statement {@code sql} with {@code args} bound in order; the rows it changed. */
  static int update(Connection c, String sql, List<Object> args) throws SQLException {
    try (PreparedStatement q = prepare(c, sql, args)) {
      return q.executeUpdate();
    }
  }

  static String json(Object o) {
    try {
      return UploadCodec.JSON.writeValueAsString(o);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  static List<String> strings(String json) throws SQLException {
    try {
      return UploadCodec.JSON.readValue(json, new TypeReference<List<String>>() {});
    } catch (JsonProcessingException e) {
      throw new SQLException("corrupt stored profile: " + e.getOriginalMessage());
    }
  }

  static List<List<String>> rows(String json) throws SQLException {
    try {
      return UploadCodec.JSON.readValue(json, new TypeReference<List<List<String>>>() {});
    } catch (JsonProcessingException e) {
      throw new SQLException("corrupt stored profile: " + e.getOriginalMessage());
    }
  }

  static String signatureText(double[] s) {
    StringBuilder sb = new StringBuilder();
    for (double d : s) {
      sb.append(sb.length() == 0 ? "" : ",").append(d);
    }
    return sb.toString();
  }

  static double[] signature(String text) {
    String[] parts = text.split(",");
    double[] out = new double[parts.length];
    for (int i = 0; i < parts.length; i++) {
      out[i] = Double.parseDouble(parts[i]);
    }
    return out;
  }

  /** The SHA-256 of a text, in lower-case hex. */
  public static String sha256(String text) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    for (Connection c : all) {
      try {
        c.close();
      } catch (SQLException ignored) {
        // closing: nothing left to do with this connection
      }
    }
  }
}
