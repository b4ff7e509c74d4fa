package org.dise.runtime.linux;

import java.util.Locale;

/**
 * What a run does when the guest makes a system call acf does not implement (spec/emulator.md,
 * "System calls"): a profile must never describe a different execution than the program's own
 * without the run saying so.
 */
public enum OnUnsupported {
  /** Stop the run with a report naming the call and its arguments (SIGSYS, status 159). */
  FAIL,
  /** Return ENOSYS to the guest, reported once per call, for programs known to cope. */
  ENOSYS,
  /** Return ENOSYS to the guest, reporting every such call with its arguments. */
  WARN;

  /** The option's spelling: {@code fail}, {@code enosys}, {@code warn}. */
  public String spelling() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * Reads a spelling.
   *
   * @throws IllegalArgumentException naming the accepted values
   */
  public static OnUnsupported parse(String s) {
    for (OnUnsupported o : values()) {
      if (o.spelling().equals(s)) {
        return o;
      }
    }
    throw new IllegalArgumentException("--on-unsupported " + s + ": expected fail, enosys or warn");
  }
}
