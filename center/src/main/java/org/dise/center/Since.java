package org.dise.center;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;

/** The {@code --since} of a query: an ISO-8601 instant or date (UTC), or an age (30m, 2h, 7d). */
public final class Since {
  private Since() {}

  /**
   * An age ({@code 90s}, {@code 30m}, {@code 2h}, {@code 7d}) as a duration, for retention.
   *
   * @throws IllegalArgumentException naming the accepted form
   */
  public static Duration age(String text) {
    String t = text.trim();
    try {
      if (t.matches("[0-9]{1,12}[smhd]")) {
        Duration d = duration(t);
        // At most a thousand years: the cutoff (now minus the age) stays a representable time.
        if (!d.isZero() && d.compareTo(Duration.ofDays(365_000)) <= 0) {
          return d;
        }
      }
    } catch (ArithmeticException e) {
      // past what a duration holds: refused below
    }
    throw new IllegalArgumentException(
        "age "
            + text
            + ": expected a positive number and a unit, up to a thousand years: 90s, 30m, 2h or"
            + " 30d");
  }

  /**
   * @throws IllegalArgumentException naming the accepted forms
   */
  public static Instant parse(String text, Instant now) {
    String t = text.trim();
    if (t.matches("[0-9]+[smhd]")) {
      return now.minus(duration(t));
    }
    try {
      if (t.matches("[0-9]{4}-[0-9]{2}-[0-9]{2}")) {
        return LocalDate.parse(t).atStartOfDay().toInstant(ZoneOffset.UTC);
      }
      return Instant.parse(t);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          "since "
              + text
              + ": expected an ISO-8601 time"
              + " (2026-11-24T08:00:00Z), a date (2026-11-24) or an age (30m, 2h, 7d)");
    }
  }

  /** {@code t}, digits and a unit (s, m, h or d; checked by the caller), as a duration. */
  private static Duration duration(String t) {
    long n = Long.parseLong(t.substring(0, t.length() - 1));
    return switch (t.charAt(t.length() - 1)) {
      case 's' -> Duration.ofSeconds(n);
      case 'm' -> Duration.ofMinutes(n);
      case 'h' -> Duration.ofHours(n);
      default -> Duration.ofDays(n);
    };
  }
}
