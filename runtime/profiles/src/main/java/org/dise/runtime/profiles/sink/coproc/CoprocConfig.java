package org.dise.runtime.profiles.sink.coproc;

import java.util.Map;

/**
 * The parameters of the profiling co-processor model (Zilles and Sohi, Sections 3 and 5); the paper
 * leaves the sizes and latencies open, so each has a documented default (spec/engine.md, "The
 * profiling co-processor"). Times are in main-processor cycles, one per application instruction.
 *
 * @param buffer sample buffer entries; a tagged instruction retiring into a full buffer is dropped
 * @param serviceCycles cycles the co-processor takes to process one sample (its rate)
 * @param interruptCycles main-processor cycles an interrupt costs (entry, handler set-up, exit)
 * @param copyCycles further main-processor cycles per slot an interrupt copies to memory
 * @param slots slots of the associative and data arrays
 * @param hashBits log2 of the PC filter's exclusion bit table
 * @param seed seed of the co-processor's pseudo-random number generator (an LFSR in hardware)
 */
public record CoprocConfig(
    int buffer,
    int serviceCycles,
    int interruptCycles,
    int copyCycles,
    int slots,
    int hashBits,
    long seed) {
  public static final CoprocConfig DEFAULT = new CoprocConfig(32, 20, 400, 20, 64, 14, 1);

  public CoprocConfig {
    check(buffer >= 1 && buffer <= 1 << 20, "buffer", buffer, "1..1048576 entries");
    check(serviceCycles >= 1, "service_cycles", serviceCycles, "at least 1");
    check(interruptCycles >= 0, "interrupt_cycles", interruptCycles, "at least 0");
    check(copyCycles >= 0, "copy_cycles", copyCycles, "at least 0");
    check(slots >= 1 && slots <= 1 << 16, "slots", slots, "1..65536");
    check(hashBits >= 1 && hashBits <= 24, "hash_bits", hashBits, "1..24");
  }

  static void check(boolean ok, String name, long value, String range) {
    if (!ok) {
      throw new IllegalArgumentException(name + " must be " + range + ", not " + value);
    }
  }

  /** The configuration a sink binding's parameters give; missing ones take the defaults. */
  public static CoprocConfig of(Map<String, String> p) {
    CoprocConfig d = DEFAULT;
    return new CoprocConfig(
        (int) num(p, "buffer", d.buffer()),
        (int) num(p, "service_cycles", d.serviceCycles()),
        (int) num(p, "interrupt_cycles", d.interruptCycles()),
        (int) num(p, "copy_cycles", d.copyCycles()),
        (int) num(p, "slots", d.slots()),
        (int) num(p, "hash_bits", d.hashBits()),
        num(p, "seed", d.seed()));
  }

  static long num(Map<String, String> params, String key, long dflt) {
    return org.dise.runtime.sink.SinkParams.number(params, key, dflt);
  }

  /**
   * The parameter {@code key} of parameters filled with the catalogue's defaults ({@code
   * ComponentSpec.withDefaults}), so that a default is written once, in the sink's spec.
   */
  static long num(Map<String, String> filled, String key) {
    return org.dise.runtime.sink.SinkParams.number(filled, key, missing(filled, key));
  }

  /** {@link #num(Map, String)} for a flag. */
  static boolean bool(Map<String, String> filled, String key) {
    missing(filled, key);
    return org.dise.runtime.sink.SinkParams.flag(filled, key, false);
  }

  private static long missing(Map<String, String> filled, String key) {
    if (!filled.containsKey(key)) {
      throw new IllegalStateException(key + " has no default in the sink's spec");
    }
    return 0;
  }

  static boolean bool(Map<String, String> params, String key, boolean dflt) {
    return org.dise.runtime.sink.SinkParams.flag(params, key, dflt);
  }
}
