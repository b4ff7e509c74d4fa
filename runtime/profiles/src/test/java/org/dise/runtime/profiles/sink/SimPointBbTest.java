package org.dise.runtime.profiles.sink;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** SimPoint's .bb format: what SimPoint reads, and read back to the same vectors. */
class SimPointBbTest {
  @Test
  void vectorsAreWrittenOneIntervalALineWithIdsInOrder() {
    List<Map<Integer, Long>> v = List.of(Map.of(3, 7L, 1, 5L), Map.of(2, 1L));
    assertThat(SimPointBb.format(v)).isEqualTo("T:1:5 :3:7\nT:2:1\n");
    assertThat(SimPointBb.parse(SimPointBb.format(v))).isEqualTo(v);
  }

  @Test
  void malformedEntriesNameTheirLineAndColumn() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> SimPointBb.parse("T:1:5\nT:1:5 :x:3\n"));
    assertThat(e).hasMessageThat().startsWith("line 2:7: expected `:id:count`");
    e = assertThrows(IllegalArgumentException.class, () -> SimPointBb.parse(":1:5\n"));
    assertThat(e).hasMessageThat().isEqualTo("line 1:1: expected `T`");
    e = assertThrows(IllegalArgumentException.class, () -> SimPointBb.parse("T:1:5 :1:6\n"));
    assertThat(e).hasMessageThat().contains("got `:1:6`");
  }
}
