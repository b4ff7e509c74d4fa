package org.dise.runtime.linux;

import java.nio.charset.Charset;
import java.util.List;
import org.dise.runtime.Machine;

/**
 * The JVM's {@code main} arguments as the bytes the user typed. The JVM decodes them with the
 * locale's charset (under {@code LC_ALL=C} every byte above 0x7f becomes U+FFFD); the bytes are
 * still the last entries of {@code /proc/self/cmdline}. Held as {@link SurrogateEscape} Strings.
 */
public final class HostCommandLine {
  private HostCommandLine() {}

  /**
   * {@code decoded} with each argument replaced by the bytes typed, or {@code decoded} itself when
   * the tail of /proc/self/cmdline is not these arguments (a call from a test, no /proc).
   */
  public static String[] exact(String[] decoded) {
    List<String> all = Machine.procStrings("/proc/self/cmdline");
    if (all == null || all.size() < decoded.length) {
      return decoded;
    }
    Charset jnu = jnu();
    List<String> tail = all.subList(all.size() - decoded.length, all.size());
    for (int i = 0; i < decoded.length; i++) {
      if (!new String(SurrogateEscape.encode(tail.get(i)), jnu).equals(decoded[i])) {
        return decoded;
      }
    }
    return tail.toArray(new String[0]);
  }

  private static Charset jnu() {
    try {
      return Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"));
    } catch (RuntimeException e) {
      return Charset.defaultCharset();
    }
  }
}
