package org.dise.repl.common;

import java.io.PrintStream;

/**
 * How much the tool says on stderr beyond its results and errors: {@code --quiet} drops progress
 * lines and notices ("acf: wrote FILE"), {@code --verbose} adds debug detail and the stack trace of
 * an internal error (what {@code ACF_DEBUG} gave before, which still turns it on). Errors print
 * whatever the level, and the exit status never depends on it. One level per process (a command
 * line runs one command), set before the command runs.
 */
public final class Verbosity {
  private Verbosity() {}

  /** The levels, quietest first. */
  public enum Level {
    QUIET,
    NORMAL,
    VERBOSE
  }

  private static volatile Level level = Level.NORMAL;

  public static void set(Level l) {
    level = l;
  }

  /** --verbose, or ACF_DEBUG set (docs/configuration.md). */
  public static boolean verbose() {
    return level == Level.VERBOSE || (level == Level.NORMAL && Settings.get("ACF_DEBUG") != null);
  }

  public static boolean quiet() {
    return level == Level.QUIET;
  }

  /** A notice the user may silence with --quiet: a file written, a count, a hint. */
  public static void notice(PrintStream err, String line) {
    if (!quiet()) {
      err.println(line);
    }
  }

  /** A detail line shown under --verbose only, prefixed {@code acf: debug: }. */
  public static void debug(PrintStream err, String line) {
    if (verbose()) {
      err.println("acf: debug: " + line);
    }
  }

  /**
   * As {@link #debug(PrintStream, String)}, formatted ({@link java.util.Locale#ROOT}) only when
   * shown: {@code String.format} loads the formatter, regular expressions and locale data, about
   * 10-20 ms at the end of every fresh plain run (docs/benchmarks.md, start-up, third pass).
   */
  public static void debug(PrintStream err, String format, Object... args) {
    if (verbose()) {
      debug(err, String.format(java.util.Locale.ROOT, format, args));
    }
  }
}
