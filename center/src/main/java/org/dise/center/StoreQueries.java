package org.dise.center;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.dise.runtime.sink.ProfileTable;

/**
 * What the center answers from the store: merged profiles, the sinks held, status, phases and
 * whole-program estimates.
 */
final class StoreQueries {
  private final Store store;

  StoreQueries(Store store) {
    this.store = store;
  }

  /**
   * The profile of {@code sink} merged over the selected uploads, or null when none holds it.
   *
   * @throws StoreException also when the selected uploads hold the sink in two shapes
   */
  ProfileTable merged(String sink, Store.Filter f) throws StoreException {
    return merged(sink, f, new boolean[1]);
  }

  /**
   * As {@link #merged(String, Store.Filter)}; {@code saturated[0]} is set when a merged count
   * reached 2^63-1 and stopped there.
   */
  ProfileTable merged(String sink, Store.Filter f, boolean[] saturated) throws StoreException {
    List<ProfileTable> tables =
        store.read(
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
              return Store.query(
                  c,
                  sql.toString(),
                  args,
                  rs ->
                      new ProfileTable(
                          Store.strings(rs.getString(1)),
                          Store.rows(rs.getString(4)),
                          Store.strings(rs.getString(2)),
                          rs.getString(3)));
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

  private static void where(StringBuilder sql, List<Object> args, Store.Filter f) {
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
  List<String> sinks(Store.Filter f) throws StoreException {
    return store.read(
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
          return Store.query(c, sql.toString(), args, rs -> rs.getString(1));
        });
  }

  Store.Status status() throws StoreException {
    return store.read(
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
          List<Store.ProgramStatus> programs = new ArrayList<>();
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
                  new Store.ProgramStatus(
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
          Map<String, Store.DeviceStatus> devices = new TreeMap<>();
          try (PreparedStatement q = c.prepareStatement("SELECT device FROM devices");
              ResultSet rs = q.executeQuery()) {
            while (rs.next()) {
              devices.put(rs.getString(1), new Store.DeviceStatus(rs.getString(1), true, 0, 0, 0));
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
                  new Store.DeviceStatus(
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
          return new Store.Status(
              programs, new ArrayList<>(devices.values()), uploads, parts, bytes, phases);
        });
  }

  /** The phases known of the program with this SHA-256, by phase ID. */
  List<Store.Phase> phases(String sha256) throws StoreException {
    return store.read(
        c -> {
          List<Store.Phase> out = new ArrayList<>();
          try (PreparedStatement q =
              c.prepareStatement(
                  "SELECT phase, signature, intervals,"
                      + " instructions, sampled_intervals, sampled_instructions FROM phases WHERE"
                      + " program_sha256 = ? ORDER BY phase")) {
            q.setString(1, sha256);
            try (ResultSet rs = q.executeQuery()) {
              while (rs.next()) {
                out.add(
                    new Store.Phase(
                        rs.getInt(1),
                        Store.signature(rs.getString(2)),
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
  Map<String, Double> estimate(String sha256, String sink) throws StoreException {
    Map<Integer, Double> scale = new TreeMap<>();
    for (Store.Phase p : phases(sha256)) {
      if (p.sampledInstructions() > 0) {
        scale.put(p.phase(), (double) p.instructions() / p.sampledInstructions());
      }
    }
    return store.read(
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
}
