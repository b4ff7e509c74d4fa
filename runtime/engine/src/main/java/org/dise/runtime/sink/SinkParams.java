package org.dise.runtime.sink;

import java.util.Map;
import java.util.function.Function;

/**
 * Reads a sink binding's parameters (text, as the configuration carries them) as numbers and flags.
 */
public final class SinkParams {
  private SinkParams() {}

  /**
   * The parameter {@code key} as a whole number, or {@code dflt} when the binding omits it.
   *
   * @throws IllegalArgumentException naming the parameter when it is not a number
   */
  public static long number(Map<String, String> params, String key, long dflt) {
    String v = params.get(key);
    if (v == null) {
      return dflt;
    }
    Long n = parsed(v, Long::valueOf);
    if (n == null) {
      throw new IllegalArgumentException(key + " must be a number, not `" + v + "`");
    }
    return n;
  }

  /** {@code value} read by {@code parse}, or null when it is not such a number. */
  public static <T> T parsed(String value, Function<String, T> parse) {
    try {
      return parse.apply(value);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** The parameter {@code key} as a flag: anything but {@code 0} or {@code false} is true. */
  public static boolean flag(Map<String, String> params, String key, boolean dflt) {
    String v = params.get(key);
    return v == null ? dflt : !(v.equals("0") || v.equalsIgnoreCase("false"));
  }
}
