package org.dise.runtime.profiles.sink.coproc;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CoprocessorPartsTest {
  @Test
  void sampleBufferDropsWhenTheCoprocessorFallsBehind() {
    SampleBuffer b = new SampleBuffer(4, 10);
    List<Long> seen = new ArrayList<>();
    // One sample per cycle, ten cycles each to process: the buffer fills and drops.
    for (long t = 0; t < 100; t++) {
      b.offer(t, t, t, 0, (pc, v, a) -> seen.add(pc));
    }
    assertThat(b.maxOccupancy()).isEqualTo(4);
    assertThat(b.dropped()).isGreaterThan(80L);
    b.flush((pc, v, a) -> seen.add(pc));
    assertThat(b.processed() + b.dropped()).isEqualTo(100);
    assertThat(seen).isInOrder();
    assertThat((long) seen.size()).isEqualTo(b.processed());
  }

  @Test
  void sampleBufferKeepsUpAtItsRate() {
    SampleBuffer b = new SampleBuffer(2, 10);
    for (long t = 0; t < 1000; t += 10) {
      b.offer(t, t, 0, 0, (pc, v, a) -> {});
    }
    assertThat(b.dropped()).isEqualTo(0);
    assertThat(b.maxOccupancy()).isAtMost(2);
  }

  @Test
  void pcFilterRegionsPartitionAndExclusionMasks() {
    PcFilter f = new PcFilter(12);
    int accepted = 0;
    f.region(1, 0);
    for (long pc = 0x10000; pc < 0x12000; pc += 4) {
      if (f.accepts(pc)) {
        accepted++;
      }
    }
    // Two regions: about half the pcs each.
    assertThat(accepted).isIn(com.google.common.collect.Range.closed(800, 1250));
    f.region(0, 0);
    assertThat(f.accepts(0x10040)).isTrue();
    f.exclude(0x10040);
    assertThat(f.accepts(0x10040)).isFalse();
    assertThat(f.isExcluded(0x10040)).isTrue();
  }

  @Test
  void refusesBadParameters() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> new ValueProfiler("v", Map.of("buffer", "0")));
    assertThat(e).hasMessageThat().isEqualTo("buffer must be 1..1048576 entries, not 0");
    e =
        assertThrows(
            IllegalArgumentException.class, () -> new ValueProfiler("v", Map.of("slots", "many")));
    assertThat(e).hasMessageThat().isEqualTo("slots must be a number, not `many`");
  }
}
