package org.dise.center;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Properties;

/**
 * Where the center keeps its data, as a user writes it: {@code sqlite:PATH} (an embedded file, the
 * default {@code center/center.db}) or {@code postgresql://USER:PASSWORD@HOST:PORT/DB} (a shared
 * server); the matching JDBC URL and connection properties.
 */
public record StoreUrl(
    String text, Dialect dialect, String jdbcUrl, Properties properties, Path file) {

  /** The two databases the center runs on; their SQL differs only in a few places. */
  public enum Dialect {
    SQLITE,
    POSTGRESQL
  }

  public static final String DEFAULT = "sqlite:center/center.db";

  /**
   * Parses a store URL.
   *
   * @throws IllegalArgumentException saying what forms are accepted
   */
  public static StoreUrl parse(String text) {
    if (text.startsWith("sqlite:")) {
      String path = text.substring("sqlite:".length());
      if (path.isEmpty()) {
        throw new IllegalArgumentException("store " + text + ": sqlite: needs a file path");
      }
      Path file = Path.of(path).toAbsolutePath().normalize();
      Properties p = new Properties();
      // Readers go on while one upload is written; a writer waits rather than fails.
      p.setProperty("journal_mode", "WAL");
      p.setProperty("busy_timeout", "10000");
      // WAL with synchronous=NORMAL: a crash loses at most the last commits, never consistency.
      p.setProperty("synchronous", "NORMAL");
      p.setProperty("foreign_keys", "true");
      return new StoreUrl(text, Dialect.SQLITE, "jdbc:sqlite:" + file, p, file);
    }
    if (text.startsWith("postgresql://") || text.startsWith("postgres://")) {
      URI u;
      try {
        u = new URI(text);
      } catch (URISyntaxException e) {
        throw new IllegalArgumentException("store " + text + ": " + e.getMessage());
      }
      if (u.getHost() == null || u.getPath() == null || u.getPath().length() < 2) {
        throw new IllegalArgumentException(
            "store " + text + ": expected postgresql://USER:PASSWORD@HOST:PORT/DATABASE");
      }
      Properties p = new Properties();
      if (u.getRawUserInfo() != null) {
        String[] ui = u.getRawUserInfo().split(":", 2);
        p.setProperty("user", decode(ui[0]));
        if (ui.length > 1) {
          p.setProperty("password", decode(ui[1]));
        }
      }
      String jdbc =
          "jdbc:postgresql://"
              + u.getHost()
              + (u.getPort() > 0 ? ":" + u.getPort() : "")
              + u.getRawPath()
              + (u.getRawQuery() != null ? "?" + u.getRawQuery() : "");
      return new StoreUrl(text, Dialect.POSTGRESQL, jdbc, p, null);
    }
    throw new IllegalArgumentException(
        "store "
            + text
            + ": expected sqlite:PATH or"
            + " postgresql://USER:PASSWORD@HOST:PORT/DATABASE");
  }

  private static String decode(String s) {
    return URLDecoder.decode(s, StandardCharsets.UTF_8);
  }

  /** The URL without its password, for messages and logs. */
  public String redacted() {
    return text.replaceFirst("(://[^:/@]*):[^@/]*@", "$1:***@");
  }
}
