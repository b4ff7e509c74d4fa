package org.dise.runtime.linux;

import static com.google.common.truth.Truth.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Guest byte strings held as Java Strings: every byte string comes back whole and distinct. */
class SurrogateEscapeTest {
  @Test
  void everyByteStringOfOneAndTwoBytesRoundTripsAndNoTwoCollide() {
    Map<String, byte[]> seen = new HashMap<>();
    for (int a = 0; a < 256; a++) {
      check(seen, new byte[] {(byte) a});
      for (int b = 0; b < 256; b++) {
        check(seen, new byte[] {(byte) a, (byte) b});
      }
    }
    assertThat(seen).hasSize(256 + 256 * 256);
  }

  @Test
  void randomByteStringsRoundTrip() {
    Random r = new Random(19);
    Map<String, byte[]> seen = new HashMap<>();
    for (int i = 0; i < 20_000; i++) {
      byte[] b = new byte[1 + r.nextInt(12)];
      r.nextBytes(b);
      check(seen, b);
    }
  }

  @Test
  void utf8StaysReadableAndOtherBytesBecomeLoneSurrogates() {
    assertThat(SurrogateEscape.decode("été".getBytes(StandardCharsets.UTF_8))).isEqualTo("été");
    assertThat(SurrogateEscape.decode(new byte[] {'a', (byte) 0x80, (byte) 0xff}))
        .isEqualTo("a\udc80\udcff");
    // The UTF-8 form of a surrogate is not UTF-8 either: escaped byte by byte, so it cannot be
    // taken for the escape of 0x80.
    assertThat(SurrogateEscape.decode(new byte[] {(byte) 0xed, (byte) 0xb2, (byte) 0x80}))
        .isEqualTo("\udced\udcb2\udc80");
    assertThat(SurrogateEscape.length("a\udc80é")).isEqualTo(4);
  }

  private static void check(Map<String, byte[]> seen, byte[] b) {
    String s = SurrogateEscape.decode(b);
    assertThat(SurrogateEscape.encode(s)).isEqualTo(b);
    byte[] earlier = seen.put(s, b);
    if (earlier != null) {
      assertThat(Arrays.equals(earlier, b)).isTrue();
    }
  }
}
