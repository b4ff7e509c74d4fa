package org.dise.runtime.dise.config;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;
import java.util.zip.CRC32;

/**
 * Fuzz target: the configuration reader on payloads wrapped with a valid header and checksum
 * (seeded with the payloads of the example ACFs), so that mutations reach the payload parser and
 * the range checks rather than stopping at the checksum. A configuration it accepts must print;
 * anything but a {@link ConfigException} is a finding.
 */
public class ConfigReaderFuzzTarget {
  @FuzzTest(maxDuration = "10s")
  void payloadsWithValidChecksumsAreReadOrRefusedCleanly(byte[] payload) {
    fuzzerTestOneInput(payload);
  }

  /** The entry point of the standalone Jazzer driver (longer runs: scripts/fuzz). */
  public static void fuzzerTestOneInput(byte[] payload) {
    DeployableConfig c;
    try {
      c = ConfigFormat.fromBytes(wrap(payload), "fuzz.dcfg");
    } catch (ConfigException e) {
      return;
    }
    ConfigPrinter.describe(c, 0);
    c.productions().budget().violations(c.productions());
  }

  /** A whole configuration file around {@code payload}, its checksum recomputed. */
  static byte[] wrap(byte[] payload) {
    CRC32 crc = new CRC32();
    crc.update(payload);
    ByteBuffer b = ByteBuffer.allocate(ConfigFormat.HEADER + payload.length + ConfigFormat.TRAILER);
    b.put(ConfigFormat.MAGIC)
        .putShort((short) ConfigFormat.VERSION)
        .putInt(payload.length)
        .put(payload)
        .putInt((int) crc.getValue());
    return b.array();
  }
}
