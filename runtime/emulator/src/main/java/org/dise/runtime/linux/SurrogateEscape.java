package org.dise.runtime.linux;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Byte strings of the guest (arguments, environment, file names) held as Java Strings without loss:
 * UTF-8 where the bytes are UTF-8, and each byte that is not (0x80-0xff) as the lone surrogate
 * U+DC80-U+DCFF, the "surrogateescape" scheme of Python's PEP 383. Decoding then encoding gives
 * back the same bytes, so two distinct names never collide, and text that is UTF-8 stays readable
 * in messages and JSON.
 */
public final class SurrogateEscape {
  private static final char LOW = 0xDC00;

  private SurrogateEscape() {}

  /** The String that stands for these bytes. */
  public static String decode(byte[] b) {
    return decode(b, 0, b.length);
  }

  public static String decode(byte[] b, int off, int len) {
    CharsetDecoder d =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(b, off, len);
    CharBuffer out = CharBuffer.allocate(len);
    while (true) {
      CoderResult r = d.decode(in, out, true);
      if (r.isError()) {
        // Each byte of a malformed sequence is escaped alone, as PEP 383 does.
        for (int i = 0; i < r.length(); i++) {
          out.put((char) (LOW | (in.get() & 0xff)));
        }
        continue;
      }
      break; // UNDERFLOW: all input consumed (the output cannot overflow: len chars suffice)
    }
    d.flush(out);
    return out.flip().toString();
  }

  /** The bytes a String from {@link #decode} (or any well-formed String) stands for. */
  public static byte[] encode(String s) {
    if (isAscii(s)) {
      return s.getBytes(StandardCharsets.ISO_8859_1);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(s.length() + 8);
    int run = 0; // start of the current run of ordinary characters
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c >= 0xDC80 && c <= 0xDCFF && !(i > 0 && Character.isHighSurrogate(s.charAt(i - 1)))) {
        out.writeBytes(s.substring(run, i).getBytes(StandardCharsets.UTF_8));
        out.write(c & 0xff);
        run = i + 1;
      }
    }
    out.writeBytes(s.substring(run).getBytes(StandardCharsets.UTF_8));
    return out.toByteArray();
  }

  /** The number of bytes {@link #encode} gives. */
  public static int length(String s) {
    return isAscii(s) ? s.length() : encode(s).length;
  }

  private static boolean isAscii(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) >= 0x80) {
        return false;
      }
    }
    return true;
  }
}
