package org.dise.experiments.model;

/** A run's application instructions by the classes the energy model prices. */
public record InstructionMix(long total, long loads, long stores, long fp, long branches) {
  public long integer() {
    return Math.max(0, total - loads - stores - fp);
  }

  /** The ACF that counts the classes in HPS counters 4..7 (null replacements: free). */
  public static final String ACF =
      """
      counter loads(index = 4, width = 32, init = 0);
      counter stores(index = 5, width = 32, init = 0);
      counter fps(index = 6, width = 32, init = 0);
      counter branches(index = 7, width = 32, init = 0);
      L: T.OPCLASS == load => null, inc(loads)
      S: T.OPCLASS == store => null, inc(stores)
      F: T.OPCLASS == fp => null, inc(fps)
      B: T.OPCLASS == branch => null, inc(branches)
      """;
}
