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
    if (!device.matches("[A-Za-z0-9._-]{1,64}")) {
      throw new StoreException(
          "device name " + device + ": use 1 to 64 letters, digits, '.'," + " '_' or '-'", null);
    }
    byte[] raw = new byte[24];
    new SecureRandom().nextBytes(raw);
    String token = "acf_" + Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
    store.read(
        c -> {
          try (PreparedStatement d = c.prepareStatement("DELETE FROM devices WHERE device = ?")) {
            d.setString(1, device);
            d.executeUpdate();
          }
          try (PreparedStatement i =
              c.prepareStatement(
                  "INSERT INTO devices (device, token_sha256, created_ms) VALUES (?, ?, ?)")) {
            i.setString(1, device);
            i.setString(2, Store.sha256(token));
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
    store.read(
        c -> {
          try (PreparedStatement d = c.prepareStatement("DELETE FROM readers WHERE name = ?")) {
            d.setString(1, name);
            d.executeUpdate();
          }
          try (PreparedStatement i =
              c.prepareStatement(
                  "INSERT INTO readers (name, token_sha256, created_ms) VALUES (?, ?, ?)")) {
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
    String hash = Store.sha256(token);
    return store.read(
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
    String hash = Store.sha256(token);
    return store.read(
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
}
