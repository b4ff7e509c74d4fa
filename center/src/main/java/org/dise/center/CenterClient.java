package org.dise.center;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;

/** The device's and the command line's side of the center's HTTP protocol (spec/remote.md). */
public final class CenterClient {
  /** What became of one upload part. */
  public enum Outcome {
    /** Stored now (201). */
    STORED,
    /** The center already held it (200): a retry. */
    HELD,
    /** Refused for what it is (4xx): sending it again would be refused again. */
    REFUSED,
    /** Refused for who sent it (401, 403): another token may do. */
    UNAUTHORIZED,
    /** Not delivered: the center is down, slow or failing (5xx); keep it and try later. */
    UNREACHABLE
  }

  /** An upload's outcome with the HTTP status (0 when none came) and the center's message. */
  public record Sent(Outcome outcome, int status, String message) {}

  private final URI base;
  private final HttpClient http;
  private final Duration timeout;

  /**
   * A client of the center at {@code url} ({@code http://HOST:PORT}); a request that takes longer
   * than {@code timeout} counts as the center being unreachable.
   */
  public CenterClient(String url, Duration timeout) {
    String u = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    if (!u.matches("https?://[^/\\s]+")) {
      throw new IllegalArgumentException("center URL " + url + ": expected http://HOST:PORT");
    }
    this.base = URI.create(u);
    this.timeout = timeout;
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(timeout)
            .build();
  }

  public String url() {
    return base.toString();
  }

  /** Sends one gzip-compressed part with the device's token (null under --no-auth). */
  public Sent upload(byte[] gzipped, String token) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(base.resolve("/v1/uploads"))
            .timeout(timeout)
            .header("Content-Type", "application/json")
            .header("Content-Encoding", "gzip")
            .POST(HttpRequest.BodyPublishers.ofByteArray(gzipped));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    HttpResponse<String> r;
    try {
      r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      return new Sent(Outcome.UNREACHABLE, 0, why(e));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Sent(Outcome.UNREACHABLE, 0, "interrupted");
    }
    String message = message(r.body());
    int s = r.statusCode();
    Outcome o =
        s == 201
            ? Outcome.STORED
            : s == 200
                ? Outcome.HELD
                : s == 401 || s == 403
                    ? Outcome.UNAUTHORIZED
                    : s >= 400 && s < 500 && s != 408 && s != 429
                        ? Outcome.REFUSED
                        : Outcome.UNREACHABLE;
    return new Sent(o, s, message);
  }

  /**
   * GETs {@code pathAndQuery} and returns the JSON body.
   *
   * @throws CenterException with the center's message, or saying that it cannot be reached
   */
  public JsonNode get(String pathAndQuery) throws CenterException {
    return get(pathAndQuery, null);
  }

  /**
   * GETs {@code pathAndQuery} with {@code token} (a read token, or a device's for phase feedback;
   * null for none) and returns the JSON body.
   *
   * @throws CenterException with the center's message, or saying that it cannot be reached
   */
  public JsonNode get(String pathAndQuery, String token) throws CenterException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(base.resolve(pathAndQuery)).timeout(timeout).GET();
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    HttpRequest req = b.build();
    HttpResponse<String> r;
    try {
      r = http.send(req, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new CenterException(base + ": cannot reach the center: " + why(e), 0);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CenterException("interrupted", 0);
    }
    if (r.statusCode() != 200) {
      throw new CenterException(
          base + ": " + r.statusCode() + ": " + message(r.body()), r.statusCode());
    }
    try {
      return UploadCodec.JSON.readTree(r.body());
    } catch (IOException e) {
      throw new CenterException(base + ": the answer is not JSON: " + e.getMessage(), 0);
    }
  }

  private static String message(String body) {
    try {
      JsonNode n = UploadCodec.JSON.readTree(body);
      if (n != null && n.has("error")) {
        return n.get("error").asText();
      }
    } catch (IOException e) {
      // not JSON: the body itself says what happened
    }
    return body == null ? "" : body.strip();
  }

  static String why(IOException e) {
    if (e instanceof HttpTimeoutException) {
      return "no answer in time";
    }
    if (e instanceof ConnectException) {
      return "connection refused";
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }

  /** A request the center refused or could not answer. */
  public static final class CenterException extends Exception {
    private final int status;

    public CenterException(String message, int status) {
      super(message);
      this.status = status;
    }

    /** The HTTP status, or 0 when the center did not answer. */
    public int status() {
      return status;
    }
  }
}
