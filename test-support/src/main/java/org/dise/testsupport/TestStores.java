package org.dise.testsupport;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;

/**
 * The stores the center's tests run on: a fresh SQLite file, and a fresh database on the PostgreSQL
 * server that .ci/run starts (its URL in ACF_TEST_POSTGRES); without one, the PostgreSQL cases are
 * skipped with the reason printed. The JDBC drivers come from the module under test (the center's).
 */
public final class TestStores {
  /** The environment variable holding {@code postgresql://USER:PASSWORD@HOST:PORT/DB}. */
  public static final String POSTGRES_ENV = "ACF_TEST_POSTGRES";

  private TestStores() {}

  public static List<String> kinds() {
    return List.of("sqlite", "postgresql");
  }

  /**
   * A store URL of {@code kind} with nothing in it; without a PostgreSQL server, the test is
   * skipped (the reason printed).
   */
  public static String freshOrSkip(String kind, Path dir) throws Exception {
    String url = fresh(kind, dir);
    Assumptions.assumeTrue(url != null, "no PostgreSQL server for this test");
    return url;
  }

  /** A store URL of {@code kind} with nothing in it, or null (and the reason printed). */
  public static String fresh(String kind, Path dir) throws Exception {
    if (kind.equals("sqlite")) {
      return "sqlite:" + dir.resolve("center.db");
    }
    String base = System.getenv(POSTGRES_ENV);
    if (base == null || base.isBlank()) {
      System.out.println(
          "skipped: PostgreSQL store tests need "
              + POSTGRES_ENV
              + " (a"
              + " postgresql://USER:PASSWORD@HOST:PORT/DB URL whose user may create databases;"
              + " .ci/run starts one with .ci/postgres)");
      return null;
    }
    String db = "acf_t_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    URI u = new URI(base);
    Properties login = new Properties();
    if (u.getRawUserInfo() != null) {
      String[] ui = u.getRawUserInfo().split(":", 2);
      login.setProperty("user", URLDecoder.decode(ui[0], StandardCharsets.UTF_8));
      if (ui.length > 1) {
        login.setProperty("password", URLDecoder.decode(ui[1], StandardCharsets.UTF_8));
      }
    }
    String jdbc =
        "jdbc:postgresql://"
            + u.getHost()
            + (u.getPort() > 0 ? ":" + u.getPort() : "")
            + u.getRawPath();
    try (Connection c = DriverManager.getConnection(jdbc, login);
        Statement st = c.createStatement()) {
      st.execute("CREATE DATABASE " + db);
    }
    return base.replaceFirst("/[^/?]+(\\?.*)?$", "/" + db);
  }
}
