package org.dise.center;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;

/**
 * Retention: drops the parts received before a cutoff (their {@code uploads} row and their {@code
 * profiles} rows), a batch per transaction so that ingest is never held for long. What the parts
 * added to the program's phases (figures and sampled weights: the phase feedback and the
 * whole-program estimates) and to its running totals is kept: those are sums over every part ever
 * taken, not copies of them (spec/remote.md, "Retention").
 */
final class StoreRetention {
  /** Parts dropped per transaction: a few milliseconds of the store each. */
  static final int BATCH = 500;

  private final Store store;

  StoreRetention(Store store) {
    this.store = store;
  }

  /** Drops every part received before {@code beforeMs}, {@link #BATCH} parts a transaction. */
  Store.Collected gc(long beforeMs) throws StoreException {
    long parts = 0;
    long profiles = 0;
    while (true) {
      long[] done =
          store.read(
              c -> {
                List<Object[]> keys = new ArrayList<>();
                try (PreparedStatement q =
                    c.prepareStatement(
                        "SELECT device, upload_id, part FROM uploads WHERE received_ms < ? LIMIT "
                            + BATCH)) {
                  q.setLong(1, beforeMs);
                  try (ResultSet rs = q.executeQuery()) {
                    while (rs.next()) {
                      keys.add(new Object[] {rs.getString(1), rs.getString(2), rs.getInt(3)});
                    }
                  }
                }
                long rows = 0;
                // Profiles first: they refer to their upload row.
                for (String table : List.of("profiles", "uploads")) {
                  try (PreparedStatement d =
                      c.prepareStatement(
                          "DELETE FROM "
                              + table
                              + " WHERE device = ? AND upload_id = ? AND part = ?")) {
                    for (Object[] k : keys) {
                      d.setString(1, (String) k[0]);
                      d.setString(2, (String) k[1]);
                      d.setInt(3, (Integer) k[2]);
                      d.addBatch();
                    }
                    if (!keys.isEmpty()) {
                      for (int n : d.executeBatch()) {
                        rows += table.equals("profiles") ? Math.max(n, 0) : 0;
                      }
                    }
                  }
                }
                return new long[] {keys.size(), rows};
              });
      parts += done[0];
      profiles += done[1];
      if (done[0] < BATCH) {
        break;
      }
    }
    long kept =
        store.read(
            c -> {
              try (PreparedStatement q = c.prepareStatement("SELECT COUNT(*) FROM uploads");
                  ResultSet rs = q.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0L;
              }
            });
    return new Store.Collected(parts, profiles, kept);
  }
}
