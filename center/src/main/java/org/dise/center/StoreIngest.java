package org.dise.center;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dise.runtime.trigger.PhaseTracker;

/**
 * Ingest: one part in one transaction (upload row, profiles, phases matched against the program's
 * known phases), idempotent by (device, upload id, part), every stored sum checked before it is
 * written.
 */
final class StoreIngest {
  private final Store store;

  StoreIngest(Store store) {
    this.store = store;
  }

  /**
   * Stores one part in one transaction: the upload row, its profiles, and its phases matched
   * against the program's known phases at {@code threshold} percent (the tracker's measure).
   */
  Store.Ingested ingest(Upload u, long bytes, double threshold)
      throws StoreException, UploadException {
    try {
      return store.transaction(c -> ingestIn(c, u, bytes, threshold));
    } catch (StoreException e) {
      // Two copies of one retried part racing: the loser's insert fails on the primary key.
      if (held(u)) {
        return Store.Ingested.DUPLICATE;
      }
      throw e;
    }
  }

  private boolean held(Upload u) throws StoreException {
    return store.read(c -> held(c, u));
  }

  /** Whether the store already holds this part of this device's upload (idempotence key). */
  private static boolean held(Connection c, Upload u) throws SQLException {
    return !Store.query(
            c,
            "SELECT 1 FROM uploads WHERE device = ? AND upload_id = ? AND part = ?",
            partKey(u),
            rs -> true)
        .isEmpty();
  }

  /** The key of one part of one device's upload: device, upload id, part. */
  private static List<Object> partKey(Upload u) {
    return List.of(u.device(), u.uploadId(), u.part());
  }

  private Store.Ingested ingestIn(Connection c, Upload u, long bytes, double threshold)
      throws SQLException, UploadException {
    if (held(c, u)) {
      return Store.Ingested.DUPLICATE;
    }
    long now = store.now();
    Store.update(
        c,
        "INSERT INTO programs (sha256, name, first_seen_ms) VALUES (?, ?, ?)"
            + " ON CONFLICT (sha256) DO NOTHING",
        List.of(u.programSha256(), u.programName(), now));
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
        i.setString(5, Store.json(s.table().header()));
        i.setString(6, Store.json(s.table().key()));
        i.setString(7, s.table().weight());
        i.setInt(8, s.table().rows().size());
        i.setString(9, Store.json(s.table().rows()));
        i.addBatch();
      }
      i.executeBatch();
    }
    // Phases last: on PostgreSQL the program's lock is then held only for the matching.
    if (store.url().dialect() == StoreUrl.Dialect.POSTGRESQL && !u.phases().isEmpty()) {
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
    List<Object> args = new ArrayList<>(List.of(trace.toString()));
    args.addAll(partKey(u));
    Store.update(
        c,
        "UPDATE uploads SET phase_trace = ? WHERE device = ? AND upload_id = ? AND part = ?",
        args);
    return Store.Ingested.STORED;
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
          known.add(Store.signature(rs.getString(2)));
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
        Store.update(
            c,
            "INSERT INTO phases (program_sha256, phase, signature, intervals, instructions,"
                + " sampled_intervals, sampled_instructions) VALUES (?, ?, ?, 0, 0, 0, 0)",
            List.of(u.programSha256(), best, Store.signatureText(p.signature())));
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
      Store.update(
          c,
          "UPDATE phases SET intervals = intervals"
              + " + ?, instructions = instructions + ?, sampled_intervals = sampled_intervals + ?,"
              + " sampled_instructions = sampled_instructions + ? WHERE program_sha256 = ? AND"
              + " phase = ?",
          List.of(
              p.intervals(),
              p.instructions(),
              p.sampledIntervals(),
              p.sampledInstructions(),
              u.programSha256(),
              best));
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
    long[] add = {f.intervals(), f.sampledIntervals(), f.instructions(), f.sampledInstructions()};
    List<Object> args = new ArrayList<>();
    for (long a : add) {
      args.add(a);
    }
    args.add(u.programSha256());
    for (long a : add) {
      args.add(Long.MAX_VALUE - a);
    }
    int changed =
        Store.update(
            c,
            "UPDATE programs SET intervals = intervals + ?, sampled_intervals = sampled_intervals"
                + " + ?, instructions = instructions + ?, sampled_instructions ="
                + " sampled_instructions + ? WHERE sha256 = ? AND intervals <= ? AND"
                + " sampled_intervals <= ? AND instructions <= ? AND sampled_instructions <= ?",
            args);
    if (changed == 0) {
      throw new UploadException(
          422,
          "this part would take the program's interval or instruction totals past 2^63-1;"
              + " the center refuses it");
    }
  }
}
