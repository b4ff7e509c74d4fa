package org.dise.center;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The store's schema: its version, the migrations from each earlier version, and migrating an
 * opened store (spec/remote.md, "Schema").
 */
final class StoreSchema {
  private StoreSchema() {}

  /** The schema this code reads and writes; a newer store is refused, an older one migrated. */
  static final int VERSION = 2;

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

  /** Creates or migrates the schema on {@code c} to {@link #VERSION} in one transaction. */
  static void migrate(Connection c) throws SQLException {
    c.setAutoCommit(false);
    try (Statement st = c.createStatement()) {
      if ("PostgreSQL".equals(c.getMetaData().getDatabaseProductName())) {
        // Centers starting together on one database: one creates or migrates, the others wait
        // and then find the schema current (the lock ends with the transaction).
        st.execute("SELECT pg_advisory_xact_lock(6382446)");
      }
      st.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
      int version = 0;
      try (ResultSet rs = st.executeQuery("SELECT MAX(version) FROM schema_version")) {
        if (rs.next()) {
          version = rs.getInt(1);
        }
      }
      if (version > VERSION) {
        throw new SQLException(
            "its schema is version "
                + version
                + ", newer than this acf's ("
                + VERSION
                + "); use a newer acf");
      }
      for (int v = version; v < VERSION; v++) {
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
}
