package org.dise.repl.common;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether acf's own output streams are terminals, and so whether to colour and show progress.
 * Colour follows the common conventions: {@code NO_COLOR} (any value) turns it off, {@code
 * ACF_COLOR=always|never|auto} overrides, and by default only a terminal gets it.
 */
public final class Tty {
  private Tty() {}

  /** True when file descriptor {@code fd} (1 stdout, 2 stderr) is a terminal. */
  public static boolean isTerminal(int fd) {
    // Java has no isatty; on Linux the descriptor's link names the device it writes to.
    try {
      String target = Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString();
      return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return System.console() != null;
    }
  }

  /** Whether to colour what goes to descriptor {@code fd}. */
  public static boolean colour(int fd) {
    String force = Settings.get("ACF_COLOR");
    if ("always".equals(force)) {
      return true;
    }
    if ("never".equals(force) || System.getenv("NO_COLOR") != null) {
      return false;
    }
    String term = System.getenv("TERM");
    return isTerminal(fd) && !"dumb".equals(term);
  }

  /** Whether diagnostics and reports on stderr are coloured. */
  public static boolean colourStderr() {
    return colour(2);
  }
}
