package org.dise.runtime.sink;

import java.util.Map;

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
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " must be a number, not `" + v + "`");
    }
  }

  /** The parameter {@code key} as a flag: anything but {@code 0} or {@code false} is true. */
  public static boolean flag(Map<String, String> params, String key, boolean dflt) {
    String v = params.get(key);
    return v == null ? dflt : !(v.equals("0") || v.equalsIgnoreCase("false"));
  }
}
