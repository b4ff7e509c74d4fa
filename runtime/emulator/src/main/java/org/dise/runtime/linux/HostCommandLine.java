package org.dise.runtime.linux;

import java.io.IOException;
import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.List;

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
    List<String> all = procStrings("/proc/self/cmdline");
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

  /**
   * NUL-separated strings of a /proc file, their bytes kept exactly (see {@link SurrogateEscape}),
   * or null where there is none.
   */
  public static List<String> procStrings(String file) {
    try {
      byte[] b = java.nio.file.Files.readAllBytes(java.nio.file.Path.of(file));
      List<String> out = new ArrayList<>();
      int start = 0;
      for (int i = 0; i < b.length; i++) {
        if (b[i] == 0) {
          out.add(SurrogateEscape.decode(b, start, i - start));
          start = i + 1;
        }
      }
      return out;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  private static Charset jnu() {
    try {
      return Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"));
    } catch (RuntimeException e) {
      return Charset.defaultCharset();
    }
  }
}
