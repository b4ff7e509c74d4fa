package org.dise.runtime.cpu;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Why direct-edge unit exits (a branch, fall-through or plain jump to a block outside the unit)
 * leave their unit, with {@code -Dacf.exitStats=true}: {@link Region#form} records for each block
 * it takes in why each static successor was left out of the region, and the dispatcher asks at
 * every such exit which of those causes applies to the edge taken. A profiling aid that tells the
 * region former's choices apart (issue 29): the target translated earlier in another unit, too cold
 * when the region was formed, the region cut by the block or byte limit, or not translatable.
 */
final class ExitCauses {
  /** Causes recorded at formation, one byte per successor ({@link Block#leftOut}). */
  static final byte TAKEN = 0;

  static final byte TRANSLATED_EARLIER = 1;
  static final byte COLD = 2;
  static final byte UNTRANSLATABLE = 3;
  static final byte OUT_OF_DATE = 4;

  /** Counted causes at exits, by index of {@link #NAMES}. */
  private static final int CUT_BLOCKS = 5;

  private static final int CUT_BYTES = 6;
  private static final int UNKNOWN = 7;
  private static final int NOT_CHAINED_UNDECODED = 8;
  private static final int NOT_CHAINED_UNTRANSLATED = 9;

  private static final String[] NAMES = {
    "",
    "target translated earlier in another unit",
    "target below the warm count when the region formed",
    "target not translatable",
    "target out of date when the region formed",
    "region cut at the block limit",
    "region cut at the byte limit",
    "other (a join, or the target re-translated since)",
    "not chained: target never decoded",
    "not chained: target not translated (yet)"
  };

  private final long[] counts = new long[NAMES.length];

  /**
   * Parts and pieces formed so far: ids for {@link Block#formedPart} and {@link Block#formedPiece}.
   */
  private static int parts;

  private static int pieces;

  static int nextPart() {
    return ++parts;
  }

  static int nextPiece() {
    return ++pieces;
  }

  /** Why a successor of a region's block was not taken into the region. */
  static byte causeOf(Cpu cpu, Block next) {
    if (next == null) {
      return COLD;
    }
    if (next.code != null) {
      return TRANSLATED_EARLIER;
    }
    if (!cpu.isCurrent(next)) {
      return OUT_OF_DATE;
    }
    if (!BlockCompiler.translatable(next)) {
      return UNTRANSLATABLE;
    }
    return COLD;
  }

  /**
   * A direct-edge exit from the unit entered at {@code entry} to {@code pc}, where the dispatcher
   * found {@code next} (null: no block decoded there).
   */
  void directExit(Block entry, long pc, Block next) {
    if (next == null) {
      counts[NOT_CHAINED_UNDECODED]++;
      return;
    }
    if (next.code == null) {
      counts[BlockCompiler.translatable(next) ? NOT_CHAINED_UNTRANSLATED : UNTRANSLATABLE]++;
      return;
    }
    counts[cause(entry, pc, next)]++;
  }

  private static int cause(Block entry, long pc, Block next) {
    Block[] unit = entry.unit;
    if (unit == null) {
      return UNKNOWN;
    }
    for (Block b : unit) {
      if (b.code != entry.code || b.leftOut == null) {
        continue;
      }
      long[] succ = Region.successors(b);
      for (int k = 0; k < succ.length; k++) {
        if (succ[k] != pc) {
          continue;
        }
        byte why = b.leftOut[k];
        if (why != TAKEN) {
          return why;
        }
        if (next.formedPart != b.formedPart) {
          return UNKNOWN;
        }
        return next.formedPiece == b.formedPiece ? CUT_BYTES : CUT_BLOCKS;
      }
    }
    return UNKNOWN;
  }

  /** The counts by cause's name, for {@link Cpu.Counters#exitKinds}. */
  Map<String, Long> byName() {
    Map<String, Long> m = new LinkedHashMap<>();
    for (int k = 1; k < NAMES.length; k++) {
      m.put("direct edge, " + NAMES[k], counts[k]);
    }
    return m;
  }
}
