package org.dise.runtime.elf;

import static com.google.common.truth.Truth.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SymbolTableTest {
  private final SymbolTable table =
      new SymbolTable(
          List.of(
              new Symbol("sized", 0x1000, 0x20),
              new Symbol("helper", 0x1040, 0), // assembly without .size: up to the next symbol
              new Symbol("next", 0x1080, 0x10),
              new Symbol("lonely", 0x2000, 0), // followed by a gap larger than MAX_UNSIZED
              new Symbol("far", 0x2000 + SymbolTable.MAX_UNSIZED + 0x100, 8)));

  @Test
  void sizedSymbolsCoverExactlyTheirRange() {
    assertThat(table.describe(0x1000)).isEqualTo("sized");
    assertThat(table.describe(0x101c)).isEqualTo("sized+0x1c");
    assertThat(table.lookup(0x1020)).isEmpty(); // padding after the function
  }

  @Test
  void anUnsizedSymbolCoversTheCodeUpToTheNextSymbol() {
    assertThat(table.describe(0x1040)).isEqualTo("helper");
    assertThat(table.describe(0x107e)).isEqualTo("helper+0x3e");
    assertThat(table.describe(0x1080)).isEqualTo("next");
  }

  @Test
  void anUnsizedSymbolBeforeAWideGapNamesOnlyItsOwnAddress() {
    assertThat(table.describe(0x2000)).isEqualTo("lonely");
    assertThat(table.lookup(0x2004)).isEmpty();
  }

  @Test
  void rebasingKeepsTheRanges() {
    SymbolTable moved = table.rebased(0x4000_0000L);
    assertThat(moved.describe(0x4000_1050L)).isEqualTo("helper+0x10");
  }

  @Test
  void deferredSymbolsAreReadOnceAndOnlyWhenAQueryNeedsThem() {
    int[] reads = new int[2];
    SymbolTable t =
        SymbolTable.deferred(
            () -> {
              reads[0]++;
              return List.of(new Symbol("main", 0x1000, 0x40));
            });
    t.addDeferred(
        () -> {
          reads[1]++;
          return List.of(new Symbol("puts", 0x9000, 0x20)); // a library mapped later
        });
    assertThat(reads).asList().containsExactly(0, 0); // a report naming no pc reads nothing

    assertThat(t.describe(0x1008)).isEqualTo("main+0x8");
    assertThat(t.describe(0x9010)).isEqualTo("puts+0x10");
    t.lookup(0x1000);
    assertThat(reads).asList().containsExactly(1, 1);
  }

  @Test
  void anObjectAddedAfterTheFirstQueryJoinsAtOnce() {
    SymbolTable t = SymbolTable.deferred(() -> List.of(new Symbol("main", 0x1000, 0x40)));
    assertThat(t.describe(0x1000)).isEqualTo("main");
    t.addDeferred(() -> List.of(new Symbol("dlopened", 0x7000, 0x10)));
    assertThat(t.describe(0x7004)).isEqualTo("dlopened+0x4");
    assertThat(t.size()).isEqualTo(2);
  }
}
