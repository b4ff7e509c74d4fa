package org.dise.center;

import java.util.Locale;

/**
 * The cost of sending a profile from the device, after the first paper's StrongARM methodology
 * (Fig. 14(b)): a wireless card transmitting at {@code bitsPerSecond} while drawing {@code watts};
 * 11 Mb/s and 5 V * 0.285 A = 1.425 W by default.
 */
public record TransmissionModel(double bitsPerSecond, double watts) {
  public static final TransmissionModel STRONGARM_WIRELESS = new TransmissionModel(11e6, 1.425);

  public double seconds(long bytes) {
    return bytes * 8.0 / bitsPerSecond;
  }

  public double joules(long bytes) {
    return seconds(bytes) * watts;
  }

  public String describe() {
    return String.format(Locale.ROOT, "%.0f Mb/s at %.3f W", bitsPerSecond / 1e6, watts);
  }
}
