package org.dise.repl;

import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.dise.runtime.linux.HostNames;

/**
 * File names on acf's own command line, byte for byte. The JVM decodes its arguments with the
 * locale's charset, so under {@code LC_ALL=C} a directory named with a byte above 0x7f arrives as
 * U+FFFD and cannot be named again; the bytes the user typed are still in {@code
 * /proc/self/cmdline}, and a path option or parameter is taken from there (spec/emulator.md, "File
 * names, arguments and environment").
 */
final class HostArgs {
  private static List<byte[]> cmdline;

  private HostArgs() {}

  /** picocli's converter for every {@link Path} option and parameter. */
  static Path path(String value) {
    byte[] raw = raw(value);
    if (raw != null) {
      try {
        return HostNames.absolute(HostNames.path(raw));
      } catch (CharacterCodingException e) {
        // fall through to the decoded text, which picocli reports if it is no path
      }
    }
    return Path.of(value);
  }

  /** A text argument for the guest (an --env value) with the bytes typed, as SurrogateEscape. */
  static String guestText(String value) {
    byte[] raw = raw(value);
    return raw == null ? value : org.dise.runtime.linux.SurrogateEscape.decode(raw);
  }

  /**
   * Whether {@code s} is plain ASCII. A loop rather than {@code chars().allMatch}: every plain run
   * passes here, and a stream pipeline loaded about 40 classes at start-up (docs/benchmarks.md,
   * "Start-up, fifth pass").
   */
  static boolean isAscii(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) >= 0x80) {
        return false;
      }
    }
    return true;
  }

  /**
   * The bytes on the command line that the JVM decoded as {@code value}: a whole argument, or the
   * part after {@code =} of {@code --option=value}. Null when the value is plain ASCII (nothing was
   * lost) or cannot be found.
   */
  static byte[] raw(String value) {
    if (isAscii(value)) {
      return null;
    }
    Charset jnu = jnu();
    for (byte[] arg : cmdline()) {
      if (new String(arg, jnu).equals(value)) {
        return arg;
      }
      int eq = indexOf(arg, (byte) '=');
      if (eq > 0
          && arg[0] == '-'
          && new String(arg, eq + 1, arg.length - eq - 1, jnu).equals(value)) {
        return Arrays.copyOfRange(arg, eq + 1, arg.length);
      }
    }
    return null;
  }

  private static synchronized List<byte[]> cmdline() {
    if (cmdline == null) {
      List<byte[]> args = new ArrayList<>();
      try {
        byte[] b = Files.readAllBytes(Path.of("/proc/self/cmdline"));
        int start = 0;
        for (int i = 0; i < b.length; i++) {
          if (b[i] == 0) {
            args.add(Arrays.copyOfRange(b, start, i));
            start = i + 1;
          }
        }
      } catch (java.io.IOException | RuntimeException e) {
        // no /proc: the decoded arguments are all there is
      }
      cmdline = args;
    }
    return cmdline;
  }

  private static int indexOf(byte[] b, byte x) {
    for (int i = 0; i < b.length; i++) {
      if (b[i] == x) {
        return i;
      }
    }
    return -1;
  }

  private static Charset jnu() {
    try {
      return Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"));
    } catch (RuntimeException e) {
      return Charset.defaultCharset();
    }
  }
}
