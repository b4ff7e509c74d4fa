package org.dise.runtime.cpu;

import java.util.List;

/**
 * Estimates the bytes of a region's dispatch method before it is generated, from the bytes per
 * guest instruction of the units generated so far, so that a region over the unit limit is cut
 * first instead of being generated whole, thrown away and generated again in pieces (SQLite threw
 * away 37 of 746 generations, 5-10% of its translation time, docs/benchmarks.md).
 */
final class UnitSize {
  /**
   * Guest instructions generated before the estimate is trusted: the first units, which set it, are
   * generated as formed (a too-large one is still cut by its measured size).
   */
  static final int LEARN_INSNS = 256;

  private long bytes;
  private long insns;

  /**
   * Learns from a generated dispatch method with {@code applicationBytes} of application code (an
   * ACF's out-of-line code not counted, as the unit limits do not count it) for {@code blocks}.
   */
  void learn(List<Block> blocks, int applicationBytes) {
    bytes += applicationBytes;
    insns += instructions(blocks);
  }

  /** Bytes per guest instruction so far (0 until {@link #LEARN_INSNS} are learned). */
  double bytesPerInstruction() {
    return insns < LEARN_INSNS ? 0 : (double) bytes / insns;
  }

  /**
   * {@code region} as the pieces to generate under a dispatch method limit of {@code limit} bytes:
   * itself while its estimate is below the limit (or nothing is learned yet), else cut in order
   * into pieces of at most {@code pieceBytes} estimated bytes.
   */
  List<List<Block>> cut(List<Block> region, int limit, int pieceBytes) {
    double rate = bytesPerInstruction();
    int[] estimate = new int[region.size()];
    long total = 0;
    for (int i = 0; i < estimate.length; i++) {
      estimate[i] = (int) Math.ceil(region.get(i).insns.length * rate);
      total += estimate[i];
    }
    if (rate == 0 || total < limit || region.size() < 2) {
      return List.of(region);
    }
    return BlockCompiler.pieces(region, estimate, pieceBytes);
  }

  private static long instructions(List<Block> blocks) {
    long n = 0;
    for (Block b : blocks) {
      n += b.insns.length;
    }
    return n;
  }
}
