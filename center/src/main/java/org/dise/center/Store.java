package org.dise.center;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.dise.runtime.sink.ProfileTable;
import org.dise.runtime.trigger.PhaseTracker;

/**
 * The center's store behind JDBC: SQLite embedded or PostgreSQL shared, one schema (versioned,
 * created on first start, spec/remote.md). Every upload is written in one transaction, so a refused
 * or failed part leaves no row behind; a part already held is not written again.
 */
public final class Store implements AutoCloseable {
  /** The schema this code reads and writes; a newer store is refused, an older one migrated. */
  public static final int SCHEMA_VERSION = 2;

  /** Schema migrations, index i taking version i to i + 1; plain SQL both databases accept. */
  static final List<List<String>> MIGRATIONS =
      List.of(
          List.of(
              "CREATE TABLE devices (device TEXT PRIMARY KEY, token_sha256 TEXT NOT NULL UNIQUE,"
                  + " created_ms BIGINT NOT NULL)",
              "CREATE TABLE programs (sha256 TEXT PRIMARY KEY, name TEXT NOT NULL,"
                  + " first_seen_ms BIGINT NOT NULL)",
              "CREATE TABLE uploads (upload_id TEXT NOT NULL, part INTEGER NOT NULL,"
                  + " last_part INTEGER NOT NULL, device TEXT NOT NULL,"
                  + " program_sha256 TEXT NOT NULL REFERENCES programs (sha256),"
                  + " config_hash TEXT NOT NULL, received_ms BIGINT NOT NULL, bytes BIGINT NOT NULL,"
                  + " intervals BIGINT NOT NULL, sampled_intervals BIGINT NOT NULL,"
                  + " instructions BIGINT NOT NULL, sampled_instructions BIGINT NOT NULL,"
                  + " exit_status INTEGER, phase_trace TEXT NOT NULL, PRIMARY KEY (upload_id, part))",
              "CREATE INDEX uploads_program ON uploads (program_sha256, received_ms)",
              "CREATE TABLE profiles (upload_id TEXT NOT NULL, part INTEGER NOT NULL,"
                  + " sink TEXT NOT NULL, columns TEXT NOT NULL, key_columns TEXT NOT NULL,"
                  + " weight TEXT NOT NULL, row_count INTEGER NOT NULL, rows TEXT NOT NULL,"
                  + " PRIMARY KEY (upload_id, part, sink),"
                  + " FOREIGN KEY (upload_id, part) REFERENCES uploads (upload_id, part))",
              "CREATE INDEX profiles_sink ON profiles (sink)",
              "CREATE TABLE phases (program_sha256 TEXT NOT NULL REFERENCES programs (sha256),"
                  + " phase INTEGER NOT NULL, signature TEXT NOT NULL, intervals BIGINT NOT NULL,"
                  + " instructions BIGINT NOT NULL, sampled_intervals BIGINT NOT NULL,"
                  + " sampled_instructions BIGINT NOT NULL, PRIMARY KEY (program_sha256, phase))",
              "CREATE TABLE phase_weights (program_sha256 TEXT NOT NULL, phase INTEGER NOT NULL,"
                  + " sink TEXT NOT NULL, entry_key TEXT NOT NULL, weight BIGINT NOT NULL,"
                  + " PRIMARY KEY (program_sha256, phase, sink, entry_key))"),
          // 2: read tokens; a part is keyed by (device, upload id, part), so that one device's
          // upload id can neither hide nor reveal another's (issue 31).
          List.of(
              "CREATE TABLE readers (name TEXT PRIMARY KEY, token_sha256 TEXT NOT NULL UNIQUE,"
                  + " created_ms BIGINT NOT NULL)",
              "CREATE TABLE uploads2 (upload_id TEXT NOT NULL, part INTEGER NOT NULL,"
                  + " last_part INTEGER NOT NULL, device TEXT NOT NULL,"
                  + " program_sha256 TEXT NOT NULL REFERENCES programs (sha256),"
                  + " config_hash TEXT NOT NULL, received_ms BIGINT NOT NULL, bytes BIGINT NOT NULL,"
                  + " intervals BIGINT NOT NULL, sampled_intervals BIGINT NOT NULL,"
                  + " instructions BIGINT NOT NULL, sampled_instructions BIGINT NOT NULL,"
                  + " exit_status INTEGER, phase_trace TEXT NOT NULL,"
                  + " PRIMARY KEY (device, upload_id, part))",
              "INSERT INTO uploads2 SELECT upload_id, part, last_part, device, program_sha256,"
                  + " config_hash, received_ms, bytes, intervals, sampled_intervals, instructions,"
                  + " sampled_instructions, exit_status, phase_trace FROM uploads",
              "CREATE TABLE profiles2 (device TEXT NOT NULL, upload_id TEXT NOT NULL,"
                  + " part INTEGER NOT NULL, sink TEXT NOT NULL, columns TEXT NOT NULL,"
                  + " key_columns TEXT NOT NULL, weight TEXT NOT NULL, row_count INTEGER NOT NULL,"
                  + " rows TEXT NOT NULL, PRIMARY KEY (device, upload_id, part, sink),"
                  + " FOREIGN KEY (device, upload_id, part) REFERENCES uploads2 (device, upload_id,"
                  + " part))",
              "INSERT INTO profiles2 SELECT u.device, pr.upload_id, pr.part, pr.sink, pr.columns,"
                  + " pr.key_columns, pr.weight, pr.row_count, pr.rows FROM profiles pr JOIN uploads u"
                  + " ON u.upload_id = pr.upload_id AND u.part = pr.part",
              "DROP TABLE profiles",
              "DROP TABLE uploads",
              "ALTER TABLE uploads2 RENAME TO uploads",
              "ALTER TABLE profiles2 RENAME TO profiles",
              "CREATE INDEX uploads_program ON uploads (program_sha256, received_ms)",
              "CREATE INDEX uploads_device ON uploads (device)",
              "CREATE INDEX profiles_sink ON profiles (sink)",
              // The program's running totals, which every ingest checks against 2^63-1.
              "ALTER TABLE programs ADD COLUMN intervals BIGINT NOT NULL DEFAULT 0",
              "ALTER TABLE programs ADD COLUMN sampled_intervals BIGINT NOT NULL DEFAULT 0",
              "ALTER TABLE programs ADD COLUMN instructions BIGINT NOT NULL DEFAULT 0",
              "ALTER TABLE programs ADD COLUMN sampled_instructions BIGINT NOT NULL DEFAULT 0",
              "UPDATE programs SET intervals = (SELECT COALESCE(SUM(u.intervals), 0) FROM uploads u"
                  + " WHERE u.program_sha256 = programs.sha256), sampled_intervals = (SELECT"
                  + " COALESCE(SUM(u.sampled_intervals), 0) FROM uploads u WHERE u.program_sha256 ="
                  + " programs.sha256), instructions = (SELECT COALESCE(SUM(u.instructions), 0) FROM"
                  + " uploads u WHERE u.program_sha256 = programs.sha256), sampled_instructions ="
                  + " (SELECT COALESCE(SUM(u.sampled_instructions), 0) FROM uploads u WHERE"
                  + " u.program_sha256 = programs.sha256)"));

  private final StoreUrl url;
  private final BlockingQueue<Connection> pool;
  private final List<Connection> all = new ArrayList<>();

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
      s.migrate();
      return s;
    } catch (SQLException | IOException e) {
      s.close();
      throw new StoreException("store " + url.redacted() + ": cannot open: " + e.getMessage(), e);
    }
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

  private void migrate() throws SQLException {
    Connection c = all.get(0);
    c.setAutoCommit(false);
    try (Statement st = c.createStatement()) {
      st.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
      int version = 0;
      try (ResultSet rs = st.executeQuery("SELECT MAX(version) FROM schema_version")) {
        if (rs.next()) {
          version = rs.getInt(1);
        }
      }
      if (version > SCHEMA_VERSION) {
        throw new SQLException(
            "its schema is version "
                + version
                + ", newer than this acf's ("
                + SCHEMA_VERSION
                + "); use a newer acf");
      }
      for (int v = version; v < SCHEMA_VERSION; v++) {
        for (String sql : MIGRATIONS.get(v)) {
          st.execute(sql);
        }
        st.execute("INSERT INTO schema_version (version) VALUES (" + (v + 1) + ")");
      }
      c.commit();
    } catch (SQLException e) {
      c.rollback();
      throw e;
    }
  }

  /** Creates (or replaces) the token of {@code device} and returns it; only its hash is kept. */
  public String addToken(String device) throws StoreException {
    if (!device.matches("[A-Za-z0-9._-]{1,64}")) {
      throw new StoreException(
          "device name " + device + ": use 1 to 64 letters, digits, '.'," + " '_' or '-'", null);
    }
    byte[] raw = new byte[24];
    new SecureRandom().nextBytes(raw);
    String token = "acf_" + Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
    read(
        c -> {
          try (PreparedStatement d = c.prepareStatement("DELETE FROM devices WHERE device = ?")) {
            d.setString(1, device);
            d.executeUpdate();
          }
          try (PreparedStatement i =
              c.prepareStatement(
                  "INSERT INTO devices (device, token_sha256, created_ms) VALUES (?, ?, ?)")) {
            i.setString(1, device);
            i.setString(2, sha256(token));
            i.setLong(3, System.currentTimeMillis());
            i.executeUpdate();
          }
          return null;
        });
    return token;
  }

  /**
   * Creates (or replaces) the read token called {@code name} and returns it: it may read profiles,
   * status and estimates but not upload. Only its hash is kept.
   */
  public String addReadToken(String name) throws StoreException {
    if (!name.matches("[A-Za-z0-9._-]{1,64}")) {
      throw new StoreException(
          "reader name " + name + ": use 1 to 64 letters, digits, '.', '_' or '-'", null);
    }
    byte[] raw = new byte[24];
    new SecureRandom().nextBytes(raw);
    String token = "acfr_" + Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
    read(
        c -> {
          try (PreparedStatement d = c.prepareStatement("DELETE FROM readers WHERE name = ?")) {
            d.setString(1, name);
            d.executeUpdate();
          }
          try (PreparedStatement i =
              c.prepareStatement(
                  "INSERT INTO readers (name, token_sha256, created_ms) VALUES (?, ?, ?)")) {
            i.setString(1, name);
            i.setString(2, sha256(token));
            i.setLong(3, System.currentTimeMillis());
            i.executeUpdate();
          }
          return null;
        });
    return token;
  }

  /** The reader a read token belongs to, or null. */
  public String readerOf(String token) throws StoreException {
    String hash = sha256(token);
    return read(
        c -> {
          try (PreparedStatement q =
              c.prepareStatement("SELECT name FROM readers WHERE token_sha256 = ?")) {
            q.setString(1, hash);
            try (ResultSet rs = q.executeQuery()) {
              return rs.next() ? rs.getString(1) : null;
            }
          }
        });
  }

  /** The device a token belongs to, or null for an unknown token. */
  public String deviceOf(String token) throws StoreException {
    String hash = sha256(token);
    return read(
        c -> {
          try (PreparedStatement q =
              c.prepareStatement("SELECT device FROM devices WHERE token_sha256 = ?")) {
            q.setString(1, hash);
            try (ResultSet rs = q.executeQuery()) {
              return rs.next() ? rs.getString(1) : null;
            }
          }
        });
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
    try {
      return transaction(c -> ingestIn(c, u, bytes, threshold));
    } catch (StoreException e) {
      // Two copies of one retried part racing: the loser's insert fails on the primary key.
      if (held(u)) {
        return Ingested.DUPLICATE;
      }
      throw e;
    }
  }

  private boolean held(Upload u) throws StoreException {
    return read(
        c -> {
          try (PreparedStatement q =
              c.prepareStatement(
                  "SELECT 1 FROM uploads WHERE device = ? AND upload_id = ? AND part = ?")) {
            q.setString(1, u.device());
            q.setString(2, u.uploadId());
            q.setInt(3, u.part());
            try (ResultSet rs = q.executeQuery()) {
              return rs.next();
            }
          }
        });
  }

  private Ingested ingestIn(Connection c, Upload u, long bytes, double threshold)
      throws SQLException, UploadException {
    try (PreparedStatement q =
        c.prepareStatement(
            "SELECT 1 FROM uploads WHERE device = ? AND upload_id = ? AND part = ?")) {
      q.setString(1, u.device());
      q.setString(2, u.uploadId());
      q.setInt(3, u.part());
      try (ResultSet rs = q.executeQuery()) {
        if (rs.next()) {
          return Ingested.DUPLICATE;
        }
      }
    }
    long now = System.currentTimeMillis();
    try (PreparedStatement p =
        c.prepareStatement(
            "INSERT INTO programs (sha256, name,"
                + " first_seen_ms) VALUES (?, ?, ?) ON CONFLICT (sha256) DO NOTHING")) {
      p.setString(1, u.programSha256());
      p.setString(2, u.programName());
      p.setLong(3, now);
      p.executeUpdate();
    }
    addProgramTotals(c, u);
    Upload.Figures f = u.figures();
    try (PreparedStatement i =
        c.prepareStatement(
            "INSERT INTO uploads (upload_id, part,"
                + " last_part, device, program_sha256, config_hash, received_ms, bytes, intervals,"
                + " sampled_intervals, instructions, sampled_instructions, exit_status, phase_trace)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      i.setString(1, u.uploadId());
      i.setInt(2, u.part());
      i.setInt(3, u.last() ? 1 : 0);
      i.setString(4, u.device());
      i.setString(5, u.programSha256());
      i.setString(6, u.configHash());
      i.setLong(7, now);
      i.setLong(8, bytes);
      i.setLong(9, f.intervals());
      i.setLong(10, f.sampledIntervals());
      i.setLong(11, f.instructions());
      i.setLong(12, f.sampledInstructions());
      if (f.exitStatus() == null) {
        i.setNull(13, java.sql.Types.INTEGER);
      } else {
        i.setInt(13, f.exitStatus());
      }
      i.setString(14, "");
      i.executeUpdate();
    }
    try (PreparedStatement i =
        c.prepareStatement(
            "INSERT INTO profiles (device, upload_id, part, sink, columns, key_columns, weight,"
                + " row_count, rows) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      for (Upload.SinkProfile s : u.profiles()) {
        i.setString(1, u.device());
        i.setString(2, u.uploadId());
        i.setInt(3, u.part());
        i.setString(4, s.sink());
        i.setString(5, json(s.table().header()));
        i.setString(6, json(s.table().key()));
        i.setString(7, s.table().weight());
        i.setInt(8, s.table().rows().size());
        i.setString(9, json(s.table().rows()));
        i.addBatch();
      }
      i.executeBatch();
    }
    // Phases last: on PostgreSQL the program's lock is then held only for the matching.
    if (url.dialect() == StoreUrl.Dialect.POSTGRESQL && !u.phases().isEmpty()) {
      // Phase IDs are assigned per program: one ingest at a time matches a program's phases,
      // also across several center processes sharing the database.
      try (PreparedStatement l = c.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
        l.setLong(1, Long.parseUnsignedLong(u.programSha256().substring(0, 15), 16));
        l.execute();
      }
    }
    Map<Integer, Integer> centerPhase = matchPhases(c, u, threshold);
    StringBuilder trace = new StringBuilder();
    for (int t : u.trace()) {
      trace.append(trace.length() == 0 ? "" : ",").append(t < 0 ? -1 : centerPhase.get(t));
    }
    try (PreparedStatement t =
        c.prepareStatement(
            "UPDATE uploads SET phase_trace = ? WHERE device = ? AND upload_id = ? AND part = ?")) {
      t.setString(1, trace.toString());
      t.setString(2, u.device());
      t.setString(3, u.uploadId());
      t.setInt(4, u.part());
      t.executeUpdate();
    }
    return Ingested.STORED;
  }

  /**
   * Matches each of the part's phases with the program's known phases (nearest signature by
   * Manhattan distance under {@code threshold}, else a new phase), adds its figures and sampled
   * weights, and returns the center's phase ID of each of the device's.
   */
  private Map<Integer, Integer> matchPhases(Connection c, Upload u, double threshold)
      throws SQLException, UploadException {
    Map<Integer, Integer> out = new LinkedHashMap<>();
    if (u.phases().isEmpty()) {
      return out;
    }
    List<double[]> known = new ArrayList<>();
    List<long[]> figures = new ArrayList<>();
    try (PreparedStatement q =
        c.prepareStatement(
            "SELECT phase, signature, intervals, instructions, sampled_intervals,"
                + " sampled_instructions FROM phases WHERE program_sha256 = ? ORDER BY phase")) {
      q.setString(1, u.programSha256());
      try (ResultSet rs = q.executeQuery()) {
        while (rs.next()) {
          known.add(signature(rs.getString(2)));
          figures.add(new long[] {rs.getLong(3), rs.getLong(4), rs.getLong(5), rs.getLong(6)});
        }
      }
    }
    for (Upload.PhaseReport p : u.phases()) {
      int best = -1;
      double bestDistance = Double.MAX_VALUE;
      for (int i = 0; i < known.size(); i++) {
        if (known.get(i).length != p.signature().length) {
          continue; // a tracker with another number of buckets: never the same phase
        }
        double d = PhaseTracker.distance(p.signature(), known.get(i));
        if (d < bestDistance) {
          bestDistance = d;
          best = i;
        }
      }
      if (best < 0 || bestDistance >= threshold) {
        best = known.size();
        known.add(p.signature());
        figures.add(new long[4]);
        try (PreparedStatement i =
            c.prepareStatement(
                "INSERT INTO phases (program_sha256,"
                    + " phase, signature, intervals, instructions, sampled_intervals,"
                    + " sampled_instructions) VALUES (?, ?, ?, 0, 0, 0, 0)")) {
          i.setString(1, u.programSha256());
          i.setInt(2, best);
          i.setString(3, signatureText(p.signature()));
          i.executeUpdate();
        }
      }
      out.put(p.localPhase(), best);
      // Every sum checked before it is written: a part that would take one past 2^63-1 is
      // refused whole (422), so no later query meets an overflow (spec/remote.md).
      long[] have = figures.get(best);
      long[] add = {p.intervals(), p.instructions(), p.sampledIntervals(), p.sampledInstructions()};
      String[] names = {"intervals", "instructions", "sampled_intervals", "sampled_instructions"};
      for (int k = 0; k < 4; k++) {
        have[k] = checkedSum(have[k], add[k], "phase " + best + "'s " + names[k]);
      }
      try (PreparedStatement up =
          c.prepareStatement(
              "UPDATE phases SET intervals = intervals"
                  + " + ?, instructions = instructions + ?, sampled_intervals = sampled_intervals + ?,"
                  + " sampled_instructions = sampled_instructions + ? WHERE program_sha256 = ? AND"
                  + " phase = ?")) {
        up.setLong(1, p.intervals());
        up.setLong(2, p.instructions());
        up.setLong(3, p.sampledIntervals());
        up.setLong(4, p.sampledInstructions());
        up.setString(5, u.programSha256());
        up.setInt(6, best);
        up.executeUpdate();
      }
      try (PreparedStatement w =
          c.prepareStatement(
              "INSERT INTO phase_weights (program_sha256,"
                  + " phase, sink, entry_key, weight) VALUES (?, ?, ?, ?, ?) ON CONFLICT (program_sha256,"
                  + " phase, sink, entry_key) DO UPDATE SET weight = phase_weights.weight"
                  + " + excluded.weight WHERE phase_weights.weight <= ? - excluded.weight")) {
        List<String> what = new ArrayList<>();
        for (var s : p.weights().entrySet()) {
          for (var e : s.getValue().entrySet()) {
            w.setString(1, u.programSha256());
            w.setInt(2, best);
            w.setString(3, s.getKey());
            w.setString(4, e.getKey());
            w.setLong(5, e.getValue());
            w.setLong(6, Long.MAX_VALUE);
            w.addBatch();
            what.add(e.getKey() + " in " + s.getKey());
          }
        }
        int[] changed = w.executeBatch();
        for (int k = 0; k < changed.length; k++) {
          // The guard held a sum back: it would have passed 2^63-1 (spec/remote.md).
          if (changed[k] == 0) {
            throw new UploadException(
                422,
                "this part would take phase "
                    + best
                    + "'s weight of "
                    + what.get(k)
                    + " past 2^63-1; the center refuses it");
          }
        }
      }
    }
    return out;
  }

  /** {@code a + b}, or a 422 naming {@code what} when the sum does not fit 63 bits. */
  static long checkedSum(long a, long b, String what) throws UploadException {
    try {
      return Math.addExact(a, b);
    } catch (ArithmeticException e) {
      throw new UploadException(
          422, "this part would take " + what + " past 2^63-1; the center refuses it");
    }
  }

  /**
   * Adds the part's figures to the program's running totals (what {@code /v1/status} sums), in one
   * guarded update: no row changes, and the part is refused (422), when a total would pass 2^63-1.
   * The guard is evaluated under the row's lock, so racing ingests cannot both pass it.
   */
  private static void addProgramTotals(Connection c, Upload u)
      throws SQLException, UploadException {
    Upload.Figures f = u.figures();
    try (PreparedStatement q =
        c.prepareStatement(
            "UPDATE programs SET intervals = intervals + ?, sampled_intervals = sampled_intervals"
                + " + ?, instructions = instructions + ?, sampled_instructions ="
                + " sampled_instructions + ? WHERE sha256 = ? AND intervals <= ? AND"
                + " sampled_intervals <= ? AND instructions <= ? AND sampled_instructions <= ?")) {
      long[] add = {f.intervals(), f.sampledIntervals(), f.instructions(), f.sampledInstructions()};
      for (int i = 0; i < 4; i++) {
        q.setLong(1 + i, add[i]);
        q.setLong(6 + i, Long.MAX_VALUE - add[i]);
      }
      q.setString(5, u.programSha256());
      if (q.executeUpdate() == 0) {
        throw new UploadException(
            422,
            "this part would take the program's interval or instruction totals past 2^63-1;"
                + " the center refuses it");
      }
    }
  }

  /** Which uploads a query merges: any field may be null for all. */
  public record Filter(String program, String device, Long sinceMs) {}

  /**
   * The profile of {@code sink} merged over the selected uploads, or null when none holds it.
   *
   * @throws StoreException also when the selected uploads hold the sink in two shapes
   */
  public ProfileTable merged(String sink, Filter f) throws StoreException {
    return merged(sink, f, new boolean[1]);
  }

  /**
   * As {@link #merged(String, Filter)}; {@code saturated[0]} is set when a merged count reached
   * 2^63-1 and stopped there.
   */
  public ProfileTable merged(String sink, Filter f, boolean[] saturated) throws StoreException {
    List<ProfileTable> tables =
        read(
            c -> {
              StringBuilder sql =
                  new StringBuilder(
                      "SELECT pr.columns, pr.key_columns, pr.weight,"
                          + " pr.rows FROM profiles pr JOIN uploads u ON u.device = pr.device AND"
                          + " u.upload_id = pr.upload_id AND u.part = pr.part JOIN programs p ON"
                          + " p.sha256 = u.program_sha256 WHERE pr.sink = ?");
              List<Object> args = new ArrayList<>(List.of(sink));
              where(sql, args, f);
              sql.append(" ORDER BY u.received_ms, u.upload_id, u.part");
              List<ProfileTable> out = new ArrayList<>();
              try (PreparedStatement q = prepare(c, sql.toString(), args);
                  ResultSet rs = q.executeQuery()) {
                while (rs.next()) {
                  out.add(
                      new ProfileTable(
                          strings(rs.getString(1)),
                          rows(rs.getString(4)),
                          strings(rs.getString(2)),
                          rs.getString(3)));
                }
              }
              return out;
            });
    if (tables.isEmpty()) {
      return null;
    }
    try {
      return ProfileMerge.merge(tables, saturated);
    } catch (IllegalArgumentException e) {
      throw new StoreException("sink " + sink + ": " + e.getMessage(), e);
    }
  }

  private static void where(StringBuilder sql, List<Object> args, Filter f) {
    if (f.program() != null) {
      sql.append(f.program().matches("[0-9a-f]{64}") ? " AND p.sha256 = ?" : " AND p.name = ?");
      args.add(f.program());
    }
    if (f.device() != null) {
      sql.append(" AND u.device = ?");
      args.add(f.device());
    }
    if (f.sinceMs() != null) {
      sql.append(" AND u.received_ms >= ?");
      args.add(f.sinceMs());
    }
  }

  /** The sinks the selected uploads hold, for a query that names none or a wrong one. */
  public List<String> sinks(Filter f) throws StoreException {
    return read(
        c -> {
          StringBuilder sql =
              new StringBuilder(
                  "SELECT DISTINCT pr.sink FROM profiles pr JOIN"
                      + " uploads u ON u.device = pr.device AND u.upload_id = pr.upload_id AND"
                      + " u.part = pr.part JOIN programs p ON"
                      + " p.sha256 = u.program_sha256 WHERE 1 = 1");
          List<Object> args = new ArrayList<>();
          where(sql, args, f);
          sql.append(" ORDER BY pr.sink");
          List<String> out = new ArrayList<>();
          try (PreparedStatement q = prepare(c, sql.toString(), args);
              ResultSet rs = q.executeQuery()) {
            while (rs.next()) {
              out.add(rs.getString(1));
            }
          }
          return out;
        });
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
    return read(
        c -> {
          Map<String, Long> phaseCounts = new TreeMap<>();
          try (PreparedStatement q =
                  c.prepareStatement(
                      "SELECT program_sha256, COUNT(*) FROM phases GROUP BY program_sha256");
              ResultSet rs = q.executeQuery()) {
            while (rs.next()) {
              phaseCounts.put(rs.getString(1), rs.getLong(2));
            }
          }
          List<ProgramStatus> programs = new ArrayList<>();
          try (PreparedStatement q =
                  c.prepareStatement(
                      "SELECT p.name, p.sha256,"
                          + " COUNT(DISTINCT u.upload_id), COUNT(u.upload_id), COUNT(DISTINCT u.device),"
                          + " COALESCE(SUM(u.bytes), 0), COALESCE(SUM(u.instructions), 0),"
                          + " COALESCE(SUM(u.sampled_instructions), 0) FROM programs p LEFT JOIN uploads u ON"
                          + " u.program_sha256 = p.sha256 GROUP BY p.name, p.sha256 ORDER BY p.name, p.sha256");
              ResultSet rs = q.executeQuery()) {
            while (rs.next()) {
              programs.add(
                  new ProgramStatus(
                      rs.getString(1),
                      rs.getString(2),
                      rs.getLong(3),
                      rs.getLong(4),
                      rs.getLong(5),
                      phaseCounts.getOrDefault(rs.getString(2), 0L),
                      rs.getLong(6),
                      rs.getLong(7),
                      rs.getLong(8)));
            }
          }
          Map<String, DeviceStatus> devices = new TreeMap<>();
          try (PreparedStatement q = c.prepareStatement("SELECT device FROM devices");
              ResultSet rs = q.executeQuery()) {
            while (rs.next()) {
              devices.put(rs.getString(1), new DeviceStatus(rs.getString(1), true, 0, 0, 0));
            }
          }
          try (PreparedStatement q =
                  c.prepareStatement(
                      "SELECT device, COUNT(DISTINCT upload_id),"
                          + " SUM(bytes), MAX(received_ms) FROM uploads GROUP BY device");
              ResultSet rs = q.executeQuery()) {
            while (rs.next()) {
              devices.put(
                  rs.getString(1),
                  new DeviceStatus(
                      rs.getString(1),
                      devices.containsKey(rs.getString(1)),
                      rs.getLong(2),
                      rs.getLong(3),
                      rs.getLong(4)));
            }
          }
          long uploads = 0;
          long parts = 0;
          long bytes = 0;
          try (PreparedStatement q =
                  c.prepareStatement(
                      "SELECT COUNT(DISTINCT upload_id), COUNT(*), COALESCE(SUM(bytes), 0) FROM uploads");
              ResultSet rs = q.executeQuery()) {
            if (rs.next()) {
              uploads = rs.getLong(1);
              parts = rs.getLong(2);
              bytes = rs.getLong(3);
            }
          }
          long phases = phaseCounts.values().stream().mapToLong(Long::longValue).sum();
          return new Status(
              programs, new ArrayList<>(devices.values()), uploads, parts, bytes, phases);
        });
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
    return read(
        c -> {
          List<Phase> out = new ArrayList<>();
          try (PreparedStatement q =
              c.prepareStatement(
                  "SELECT phase, signature, intervals,"
                      + " instructions, sampled_intervals, sampled_instructions FROM phases WHERE"
                      + " program_sha256 = ? ORDER BY phase")) {
            q.setString(1, sha256);
            try (ResultSet rs = q.executeQuery()) {
              while (rs.next()) {
                out.add(
                    new Phase(
                        rs.getInt(1),
                        signature(rs.getString(2)),
                        rs.getLong(3),
                        rs.getLong(4),
                        rs.getLong(5),
                        rs.getLong(6)));
              }
            }
          }
          return out;
        });
  }

  /**
   * The whole-program estimate of {@code sink} over every device's runs of a program (the
   * phase-based paper's scaling, across users): per phase, the weights its sampled intervals added,
   * times the phase's instructions over its sampled instructions. Phases never sampled add nothing.
   */
  public Map<String, Double> estimate(String sha256, String sink) throws StoreException {
    Map<Integer, Double> scale = new TreeMap<>();
    for (Phase p : phases(sha256)) {
      if (p.sampledInstructions() > 0) {
        scale.put(p.phase(), (double) p.instructions() / p.sampledInstructions());
      }
    }
    return read(
        c -> {
          Map<String, Double> out = new LinkedHashMap<>();
          try (PreparedStatement q =
              c.prepareStatement(
                  "SELECT phase, entry_key, weight FROM"
                      + " phase_weights WHERE program_sha256 = ? AND sink = ? ORDER BY phase, entry_key")) {
            q.setString(1, sha256);
            q.setString(2, sink);
            try (ResultSet rs = q.executeQuery()) {
              while (rs.next()) {
                Double s = scale.get(rs.getInt(1));
                if (s != null) {
                  out.merge(rs.getString(2), rs.getLong(3) * s, Double::sum);
                }
              }
            }
          }
          return out;
        });
  }

  private static PreparedStatement prepare(Connection c, String sql, List<Object> args)
      throws SQLException {
    PreparedStatement q = c.prepareStatement(sql);
    for (int i = 0; i < args.size(); i++) {
      q.setObject(i + 1, args.get(i));
    }
    return q;
  }

  private static String json(Object o) {
    try {
      return UploadCodec.JSON.writeValueAsString(o);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static List<String> strings(String json) throws SQLException {
    try {
      return UploadCodec.JSON.readValue(json, new TypeReference<List<String>>() {});
    } catch (JsonProcessingException e) {
      throw new SQLException("corrupt stored profile: " + e.getOriginalMessage());
    }
  }

  private static List<List<String>> rows(String json) throws SQLException {
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
