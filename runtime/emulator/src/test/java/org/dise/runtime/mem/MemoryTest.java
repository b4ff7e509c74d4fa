package org.dise.runtime.mem;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The guest address space: permissions, page crossing, lazy pages, unmapping. */
class MemoryTest {
  private static final long BASE = 0x40000;
  private static final int PAGE = Memory.PAGE_SIZE;
  private static final int RW = Memory.PROT_READ | Memory.PROT_WRITE;

  private final Memory mem = new Memory();

  @Test
  void readOfUnmappedMemoryFaults() {
    MemoryFault f = assertThrows(MemoryFault.class, () -> mem.ld(BASE));
    assertThat(f.address()).isEqualTo(BASE);
    assertThat(f.access()).isEqualTo(MemoryFault.Access.READ);
    assertThat(f.mapped()).isFalse();
    assertThat(f).hasMessageThat().isEqualTo("read from address 0x40000 (unmapped)");
    assertThrows(MemoryFault.class, () -> mem.lb(8));
    assertThrows(MemoryFault.class, () -> mem.lw(-4));
    assertThrows(MemoryFault.class, () -> mem.ld(Memory.LIMIT));
  }

  @Test
  void writeToReadOnlyPageFaultsAndChangesNothing() {
    mem.map(BASE, PAGE, Memory.PROT_READ);
    mem.poke(BASE, new byte[] {1, 2, 3, 4}, 0, 4);
    MemoryFault f = assertThrows(MemoryFault.class, () -> mem.sw(BASE, 0xdeadbeefL));
    assertThat(f.access()).isEqualTo(MemoryFault.Access.WRITE);
    assertThat(f.mapped()).isTrue();
    assertThat(f).hasMessageThat().contains("page lacks write permission");
    assertThat(mem.lw(BASE)).isEqualTo(0x04030201);
    assertThrows(MemoryFault.class, () -> mem.write(BASE, new byte[4], 0, 4));
  }

  @Test
  void executeNeedsExecPermission() {
    mem.map(BASE, PAGE, RW);
    MemoryFault f = assertThrows(MemoryFault.class, () -> mem.fetch16(BASE));
    assertThat(f.access()).isEqualTo(MemoryFault.Access.EXECUTE);
    assertThat(f.mapped()).isTrue();
    mem.protect(BASE, PAGE, Memory.PROT_READ | Memory.PROT_EXEC);
    assertThat(mem.fetch16(BASE)).isEqualTo(0);
  }

  @Test
  void accessesCrossingAPageBoundary() {
    mem.map(BASE, 2 * PAGE, RW);
    long edge = BASE + PAGE;
    for (int off = 1; off < 8; off++) {
      long a = edge - off;
      mem.sd(a, 0x0807060504030201L);
      assertThat(mem.ld(a)).isEqualTo(0x0807060504030201L);
      assertThat(mem.lw(a)).isEqualTo(0x04030201);
      assertThat(mem.lh(a)).isEqualTo(0x0201);
      assertThat(mem.lb(a + off)).isEqualTo(off + 1); // the first byte of the second page
    }
    mem.sh(edge - 1, 0x8081);
    assertThat(mem.lh(edge - 1)).isEqualTo((short) 0x8081); // sign-extended
  }

  @Test
  void pageCrossingStoreIntoAProtectedPageChangesNeitherPage() {
    mem.map(BASE, PAGE, RW);
    mem.map(BASE + PAGE, PAGE, Memory.PROT_READ);
    long a = BASE + PAGE - 4;
    assertThrows(MemoryFault.class, () -> mem.sd(a, -1L));
    assertThat(mem.lw(a)).isEqualTo(0);
    assertThrows(MemoryFault.class, () -> mem.ld(BASE + 2 * PAGE - 4)); // runs into unmapped
  }

  @Test
  void pagesAreMaterialisedOnFirstTouch() {
    mem.map(BASE, 256L * PAGE, RW);
    assertThat(mem.residentPages()).isEqualTo(0);
    assertThat(mem.ld(BASE + 100L * PAGE)).isEqualTo(0);
    assertThat(mem.residentPages()).isEqualTo(1);
    mem.sb(BASE + 7L * PAGE + 5, 9);
    assertThat(mem.residentPages()).isEqualTo(2);
    assertThat(mem.lb(BASE + 7L * PAGE + 5)).isEqualTo(9);
    mem.ld(BASE + 3L * PAGE - 4); // crossing: touches two pages
    assertThat(mem.residentPages()).isEqualTo(4);
  }

  @Test
  void munmapDropsPagesAndRemapReadsZero() {
    mem.map(BASE, 2 * PAGE, RW);
    mem.sd(BASE, 42);
    mem.sd(BASE + PAGE, 43);
    mem.unmap(BASE, PAGE);
    assertThat(mem.isMapped(BASE)).isFalse();
    assertThat(mem.isMapped(BASE + PAGE)).isTrue();
    assertThat(mem.isFree(BASE, PAGE)).isTrue();
    assertThat(mem.isFree(BASE, 2 * PAGE)).isFalse();
    assertThrows(MemoryFault.class, () -> mem.ld(BASE));
    assertThrows(MemoryFault.class, () -> mem.sd(BASE, 1));
    assertThat(mem.ld(BASE + PAGE)).isEqualTo(43);
    assertThat(mem.residentPages()).isEqualTo(1);
    mem.map(BASE, PAGE, RW);
    assertThat(mem.ld(BASE)).isEqualTo(0);
    mem.map(BASE + PAGE, PAGE, RW); // mapping over a live page zeroes it too (MAP_FIXED)
    assertThat(mem.ld(BASE + PAGE)).isEqualTo(0);
  }

  @Test
  void protectFailsOnUnmappedPagesAndChangesNone() {
    mem.map(BASE, PAGE, RW);
    assertThat(mem.protect(BASE, 2 * PAGE, Memory.PROT_READ)).isFalse();
    mem.sd(BASE, 1); // still writable
    assertThat(mem.protect(BASE, PAGE, Memory.PROT_READ)).isTrue();
    assertThrows(MemoryFault.class, () -> mem.sd(BASE, 1));
    assertThat(mem.protection(BASE)).isEqualTo(Memory.PROT_READ);
  }

  @Test
  void unalignedRangesAreRejected() {
    assertThrows(IllegalArgumentException.class, () -> mem.map(BASE + 1, PAGE, RW));
    assertThrows(IllegalArgumentException.class, () -> mem.map(BASE, 100, RW));
    assertThrows(IllegalArgumentException.class, () -> mem.unmap(Memory.LIMIT, PAGE));
  }

  @Test
  void bulkAccessAndStrings() {
    mem.map(BASE, 2 * PAGE, RW);
    byte[] text = "hello, page boundary\0".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    mem.write(BASE + PAGE - 5, text, 0, text.length);
    assertThat(mem.readCString(BASE + PAGE - 5, 100)).isEqualTo("hello, page boundary");
    assertThat(mem.readCString(BASE + PAGE - 5, 5)).isEqualTo("hello");
    assertThat(mem.read(BASE + PAGE - 5, text.length)).isEqualTo(text);
  }

  /**
   * The page accessors translated code uses (raw machine accesses where the host allows them):
   * little-endian at every alignment up to the page end, sign-extended, and writing only their own
   * bytes, as the guest's byte view shows.
   */
  @Test
  void pageAccessorsAreLittleEndianAtEveryOffset() {
    byte[] page = new byte[PAGE];
    for (int off : new int[] {0, 1, 2, 3, 5, 7, 100, PAGE - 8, PAGE - 7, PAGE - 4, PAGE - 2}) {
      java.util.Arrays.fill(page, (byte) 0x5a);
      if (off <= PAGE - 8) {
        Memory.put64(page, off, 0x8877665544332211L);
        for (int j = 0; j < 8; j++) {
          assertThat(page[off + j]).isEqualTo((byte) (0x11 * (j + 1)));
        }
        assertThat(Memory.get64(page, off)).isEqualTo(0x8877665544332211L);
        assertThat(Memory.get32(page, off + 4)).isEqualTo(0x88776655);
      }
      if (off <= PAGE - 4) {
        Memory.put32(page, off, 0xfffffffe80000001L);
        assertThat(Memory.get32(page, off)).isEqualTo(0x80000001);
        assertThat(page[off + 3]).isEqualTo((byte) 0x80);
      }
      Memory.put16(page, off, 0xabcdL);
      assertThat(Memory.get16(page, off)).isEqualTo((int) (short) 0xabcd);
      assertThat(page[off]).isEqualTo((byte) 0xcd);
      assertThat(page[off + 1]).isEqualTo((byte) 0xab);
      if (off > 0) {
        assertThat(page[off - 1]).isEqualTo((byte) 0x5a);
      }
    }
  }
}
