package org.dise.center;

import java.security.SecureRandom;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Base64;

/** Device and read tokens: created at random, kept as their SHA-256 only, looked up by hash. */
final class StoreTokens {
  private final Store store;

  StoreTokens(Store store) {
    this.store = store;
  }

  /** Creates (or replaces) the token of {@code device} and returns it; only its hash is kept. */
  public String addToken(String device) throws StoreException {
    return newToken("device", "devices", "device", "acf_", device);
  }

  /**
   * Creates (or replaces) the read token called {@code name} and returns it: it may read profiles,
   * status and estimates but not upload. Only its hash is kept.
   */
  public String addReadToken(String name) throws StoreException {
    return newToken("reader", "readers", "name", "acfr_", name);
  }

  /**
   * Creates (or replaces) the token of the {@code kind} called {@code name}, a row of {@code table}
   * keyed by {@code column}: {@code prefix} and 24 random bytes, of which only the hash is kept.
   */
  private String newToken(String kind, String table, String column, String prefix, String name)
      throws StoreException {
    if (!name.matches("[A-Za-z0-9._-]{1,64}")) {
      throw new StoreException(
          kind + " name " + name + ": use 1 to 64 letters, digits, '.', '_' or '-'", null);
    }
    byte[] raw = new byte[24];
    new SecureRandom().nextBytes(raw);
    String token = prefix + Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
    store.read(
        c -> {
          try (PreparedStatement d =
              c.prepareStatement("DELETE FROM " + table + " WHERE " + column + " = ?")) {
            d.setString(1, name);
            d.executeUpdate();
          }
          try (PreparedStatement i =
              c.prepareStatement(
                  "INSERT INTO "
                      + table
                      + " ("
                      + column
                      + ", token_sha256, created_ms) VALUES (?, ?, ?)")) {
            i.setString(1, name);
            i.setString(2, Store.sha256(token));
            i.setLong(3, System.currentTimeMillis());
            i.executeUpdate();
          }
          return null;
        });
    return token;
  }

  /** The reader a read token belongs to, or null. */
  public String readerOf(String token) throws StoreException {
    return ownerOf("SELECT name FROM readers WHERE token_sha256 = ?", token);
  }

  /** The device a token belongs to, or null for an unknown token. */
  public String deviceOf(String token) throws StoreException {
    return ownerOf("SELECT device FROM devices WHERE token_sha256 = ?", token);
  }

  /** The name {@code query} finds for {@code token}'s hash, or null. */
  private String ownerOf(String query, String token) throws StoreException {
    String hash = Store.sha256(token);
    return store.read(
        c -> {
          try (PreparedStatement q = c.prepareStatement(query)) {
            q.setString(1, hash);
            try (ResultSet rs = q.executeQuery()) {
              return rs.next() ? rs.getString(1) : null;
            }
          }
        });
  }
}
