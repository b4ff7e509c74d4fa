package org.dise.center;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;

/**
 * The stores the center's tests run on: a fresh SQLite file, and a fresh database on the
 * PostgreSQL server that .ci/run starts (its URL in ACF_TEST_POSTGRES); without one, the
 * PostgreSQL cases are skipped with the reason printed.
 */
final class TestStores {
  private TestStores() {}

  static List<String> kinds() {
    return List.of("sqlite", "postgresql");
  }

  /** A store URL of {@code kind} with nothing in it, or null (and the reason printed). */
  static String fresh(String kind, Path dir) throws Exception {
    if (kind.equals("sqlite")) {
      return "sqlite:" + dir.resolve("center.db");
    }
    String base = System.getenv("ACF_TEST_POSTGRES");
    if (base == null || base.isBlank()) {
      System.out.println("skipped: PostgreSQL store tests need ACF_TEST_POSTGRES (a"
          + " postgresql://USER:PASSWORD@HOST:PORT/DB URL whose user may create databases;"
          + " .ci/run starts one with .ci/postgres)");
      return null;
    }
    StoreUrl u = StoreUrl.parse(base);
    String db = "acf_t_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    try (Connection c = DriverManager.getConnection(u.jdbcUrl(), u.properties());
        Statement st = c.createStatement()) {
      st.execute("CREATE DATABASE " + db);
    }
    return base.replaceFirst("/[^/?]+(\\?.*)?$", "/" + db);
  }
}
