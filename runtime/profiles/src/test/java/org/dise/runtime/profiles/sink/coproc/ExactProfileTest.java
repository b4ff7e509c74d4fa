package org.dise.runtime.profiles.sink.coproc;

import static com.google.common.truth.Truth.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.dise.runtime.metrics.WeightedRms;
import org.junit.jupiter.api.Test;

/**
 * The primitive exact profile against the nested maps it replaced: the same counts, and the same
 * iteration order (the weighted RMS error sums over it in floating point, so a different order
 * could change the coproc experiment's figures in their last digits).
 */
class ExactProfileTest {
  @Test
  void countsAndIterationOrderMatchNestedHashMaps() {
    SplittableRandom r = new SplittableRandom(7);
    ExactProfile p = new ExactProfile();
    Map<Long, Map<Long, Long>> reference = new HashMap<>();
    // Many growths of the table; pcs few apart (as loads are), values from a few to many per pc,
    // negative and huge values included.
    for (int i = 0; i < 300_000; i++) {
      long pc = 0x10000 + 4L * r.nextInt(700);
      long value =
          switch (r.nextInt(4)) {
            case 0 -> 42;
            case 1 -> r.nextInt(8);
            case 2 -> -r.nextLong(1L << 40);
            default -> r.nextLong();
          };
      p.add(pc, value);
      reference.computeIfAbsent(pc, k -> new HashMap<>()).merge(value, 1L, Long::sum);
    }
    assertThat(p.asMap()).isEqualTo(reference);
    int pairs = reference.values().stream().mapToInt(Map::size).sum();
    assertThat(p.size()).isEqualTo(pairs);
    reference.forEach(
        (pc, m) -> {
          m.forEach((v, c) -> assertThat(p.count(pc, v)).isEqualTo(c));
          assertThat(p.total(pc)).isEqualTo(m.values().stream().mapToLong(x -> x).sum());
        });
    assertThat(p.count(0x10000, 123_456_789L)).isEqualTo(0);
    // The error read load by load from the primitive table equals the one over the nested maps
    // (the sums may run in another order: equal to rounding). The estimate names frequent
    // values, values the program never loaded, and loads that never ran.
    Map<Long, Map<Long, Double>> est = new HashMap<>();
    for (long pc = 0x10000; pc < 0x10000 + 4 * 700; pc += 4) {
      est.put(pc, Map.of(42L, 0.3, 1L, 0.1, 123_456_789L, 0.2));
    }
    est.put(0x9L, Map.of(7L, 1.0));
    double viaMaps = WeightedRms.error(est, reference, 0.10);
    assertThat(viaMaps).isGreaterThan(1.0);
    assertThat(WeightedRms.error(est, p, 0.10)).isWithin(1e-9).of(viaMaps);
    assertThat(p.count(0x9, 42)).isEqualTo(0);
  }

  @Test
  void viewsFollowLaterEvents() {
    ExactProfile p = new ExactProfile();
    p.add(0x100, 7);
    assertThat(p.asMap()).isEqualTo(Map.of(0x100L, Map.of(7L, 1L)));
    assertThat(p.total(0x100)).isEqualTo(1);
    p.add(0x100, 7);
    p.add(0x100, 0); // a zero value is a key like any other (a count of 0 marks empty slots)
    assertThat(p.asMap()).isEqualTo(Map.of(0x100L, Map.of(7L, 2L, 0L, 1L)));
    assertThat(p.total(0x100)).isEqualTo(3);
    assertThat(p.total(0x104)).isEqualTo(0);
  }
}
