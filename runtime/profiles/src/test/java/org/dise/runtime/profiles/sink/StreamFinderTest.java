package org.dise.runtime.profiles.sink;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Hot data streams of hand-made traces, whose streams, frequencies and heats are known. */
class StreamFinderTest {
  /** A trace built from runs of references; a reference is (pc, address). */
  static final class Trace {
    final List<long[]> refs = new ArrayList<>();

    /** {@code times} repetitions of {@code length} references pc = base + 4i, addr = base*16+8i. */
    Trace repeat(long base, int length, int times) {
      for (int t = 0; t < times; t++) {
        for (int i = 0; i < length; i++) {
          refs.add(new long[] {base + 4 * i, base * 16 + 8 * i});
        }
      }
      return this;
    }

    /** {@code count} references that never repeat. */
    Trace noise(long base, int count) {
      for (int i = 0; i < count; i++) {
        refs.add(new long[] {base + 4 * i, base * 16 + 8 * i + 1_000_000});
      }
      return this;
    }

    List<StreamFinder.Stream> find(StreamFinder f) {
      long[] pcs = new long[refs.size()];
      long[] addrs = new long[refs.size()];
      for (int i = 0; i < refs.size(); i++) {
        pcs[i] = refs.get(i)[0];
        addrs[i] = refs.get(i)[1];
      }
      return f.find(pcs, addrs, refs.size());
    }
  }

  static final StreamFinder PAPER = new StreamFinder(10, 40, 90);

  static List<String> summary(List<StreamFinder.Stream> streams) {
    return streams.stream()
        .map(
            s ->
                Long.toHexString(s.pcs()[0])
                    + " x"
                    + s.length()
                    + " f"
                    + s.frequency()
                    + " h"
                    + s.heat())
        .toList();
  }

  @Test
  void oneRepeatedSequenceIsOneStreamOfItsLengthAndFrequency() {
    List<StreamFinder.Stream> s = new Trace().repeat(0x1000, 12, 5).find(PAPER);
    assertThat(summary(s)).containsExactly("1000 x12 f5 h60");
    assertThat(s.get(0).addresses()[0]).isEqualTo(0x10000L);
  }

  @Test
  void twoStreamsAreFoundHottestFirst() {
    List<StreamFinder.Stream> s =
        new Trace().repeat(0x1000, 12, 4).repeat(0x2000, 10, 7).find(PAPER);
    // Heats 12 x 4 = 48 and 10 x 7 = 70: together the whole trace.
    assertThat(summary(s)).containsExactly("2000 x10 f7 h70", "1000 x12 f4 h48").inOrder();
  }

  @Test
  void aTieInHeatGoesToTheShorterStream() {
    // 10 references x 6: as 10-reference streams 6 times (heat 60) or 20-reference ones 3 times
    // (heat 60); the shorter, more frequent one wins.
    assertThat(summary(new Trace().repeat(0x1000, 10, 6).find(PAPER)))
        .containsExactly("1000 x10 f6 h60");
  }

  @Test
  void aPeriodShorterThanTheMinimumIsTakenInMultiples() {
    // 5 references x 20: the shortest allowed length is 10, two periods, 10 times.
    assertThat(summary(new Trace().repeat(0x1000, 5, 20).find(PAPER)))
        .containsExactly("1000 x10 f10 h100");
  }

  @Test
  void streamsStopOnceTheyCoverNinetyPercentOfTheTrace() {
    // A covers 180 of 200 references (90%): C, although repeated, is not hot.
    Trace t = new Trace().repeat(0x1000, 10, 18).repeat(0x3000, 10, 2);
    assertThat(summary(t.find(PAPER))).containsExactly("1000 x10 f18 h180");
    // With 100% coverage asked for, C joins.
    assertThat(summary(t.find(new StreamFinder(10, 40, 100))))
        .containsExactly("1000 x10 f18 h180", "3000 x10 f2 h20")
        .inOrder();
  }

  @Test
  void occurrencesDoNotOverlapAndNoiseIsNoStream() {
    assertThat(new Trace().noise(0x5000, 500).find(PAPER)).isEmpty();
    // Noise between the repetitions does not break them up.
    Trace t = new Trace();
    for (int i = 0; i < 4; i++) {
      t.repeat(0x1000, 15, 1).noise(0x9000 + 0x1000 * i, 3);
    }
    assertThat(summary(t.find(PAPER))).containsExactly("1000 x15 f4 h60");
  }

  @Test
  void aStreamLongerThanTheMaximumIsCutToTheMaximum() {
    // 50 references x 4 with max 40: a 40-reference window 4 times is the hottest.
    assertThat(summary(new Trace().repeat(0x1000, 50, 4).find(PAPER)).get(0))
        .isEqualTo("1000 x40 f4 h160");
  }

  @Test
  void noStreamSpansTwoBursts() {
    // Halves of one 10-reference sequence, alternating: as one trace it is a stream 6 times,
    // but every half is a burst of its own, too short for a stream.
    Trace t = new Trace();
    for (int i = 0; i < 6; i++) {
      t.repeat(0x1000, 5, 1).repeat(0x2000, 5, 1);
    }
    assertThat(summary(t.find(PAPER))).containsExactly("1000 x10 f6 h60");
    int[] bursts = new int[60];
    for (int i = 0; i < 60; i++) {
      bursts[i] = i / 5;
    }
    long[] pcs = t.refs.stream().mapToLong(r -> r[0]).toArray();
    long[] addrs = t.refs.stream().mapToLong(r -> r[1]).toArray();
    assertThat(PAPER.find(pcs, addrs, bursts, 60)).isEmpty();
    // Bursts of two halves each: the stream is back, once per burst.
    for (int i = 0; i < 60; i++) {
      bursts[i] = i / 10;
    }
    assertThat(summary(PAPER.find(pcs, addrs, bursts, 60))).containsExactly("1000 x10 f6 h60");
  }

  @Test
  void badParametersAreRefusedWithTheirValues() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new StreamFinder(20, 10, 90));
    assertThat(e).hasMessageThat().contains("min_length 20, max_length 10");
    assertThrows(IllegalArgumentException.class, () -> new StreamFinder(10, 5000, 90));
  }
}
