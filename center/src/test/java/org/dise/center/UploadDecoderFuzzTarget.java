package org.dise.center;

import static com.google.common.truth.Truth.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.Arrays;

/**
 * Fuzz target: the center's upload decoder on fuzzed JSON in valid gzip framing (seeded with parts
 * a device writes). Decoding must end in a part or an {@link UploadException} with a client status
 * (400, 413, 415, 422), never another exception; a part it takes writes back to JSON that decodes
 * to the same part.
 */
public class UploadDecoderFuzzTarget {
  @FuzzTest(maxDuration = "10s")
  void partsAreDecodedOrRefusedCleanly(byte[] data) {
    fuzzerTestOneInput(data);
  }

  /** The entry point of the standalone Jazzer driver (longer runs: scripts/fuzz upload). */
  public static void fuzzerTestOneInput(byte[] data) {
    Upload u;
    try {
      u = UploadCodec.read(UploadCodec.gzip(data), 1 << 20);
    } catch (UploadException e) {
      assertThat(e.status()).isAnyOf(400, 413, 415, 422);
      return;
    }
    byte[] again = UploadCodec.json(u);
    Upload v;
    try {
      v = UploadCodec.read(UploadCodec.gzip(again), 4L << 20);
    } catch (UploadException e) {
      throw new AssertionError("a part the center took does not read back: " + e.getMessage(), e);
    }
    assertThat(Arrays.equals(UploadCodec.json(v), again)).isTrue();
  }
}
