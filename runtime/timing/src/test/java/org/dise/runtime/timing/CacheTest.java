package org.dise.runtime.timing;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CacheTest {
  @Test
  void lruEvictsTheLeastRecentlyUsedWayOfASet() {
    // 2 ways, 2 sets of 32-byte lines: addresses 0, 64, 128 share set 0.
    Cache c = new Cache("t", 128, 2, 32, true);
    assertThat(c.access(0, false)).isFalse();
    assertThat(c.access(64, false)).isFalse();
    assertThat(c.access(0, false)).isTrue(); // 0 is now most recent
    assertThat(c.access(128, false)).isFalse(); // evicts 64
    assertThat(c.holds(0)).isTrue();
    assertThat(c.holds(64)).isFalse();
    assertThat(c.access(32, false)).isFalse(); // set 1, independent
    assertThat(c.misses()).isEqualTo(4);
  }

  @Test
  void aDirtyVictimIsWrittenBackAndAStoreWithoutWriteAllocateLeavesTheCache() {
    Cache c = new Cache("t", 64, 1, 32, true);
    c.access(0, true);
    c.access(64, false); // same set: evicts the dirty line 0
    assertThat(c.writebacks()).isEqualTo(1);
    assertThat(c.evictedDirty).isEqualTo(0); // the address of the line written back
    c.access(128, false); // evicts the clean line 64
    assertThat(c.evictedDirty).isEqualTo(-1);
    Cache n = new Cache("t", 64, 1, 32, false);
    assertThat(n.access(0, true)).isFalse();
    assertThat(n.holds(0)).isFalse();
  }

  @Test
  void aGeometryThatIsNotAPowerOfTwoIsRefusedWithItsName() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new Cache("l1d", 3000, 2, 32, true));
    assertThat(e).hasMessageThat().contains("l1d");
  }

  @Test
  void aConfigurationFileSetsParametersAndNamesTheLineOfAMistake(@TempDir Path dir)
      throws Exception {
    Path f = dir.resolve("t.cfg");
    Files.writeString(f, "# smaller caches\nl1d.size = 16384\n\nbp.kind = bimodal\n");
    TimingConfig c = TimingConfig.defaults("ooo").read(f);
    assertThat(c.integer("l1d.size")).isEqualTo(16384);
    assertThat(c.string("bp.kind")).isEqualTo("bimodal");
    Files.writeString(f, "l1d.size = 16384\nl1d.sise = 2\n");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> TimingConfig.defaults("ooo").read(f));
    assertThat(e).hasMessageThat().contains("t.cfg:2:1: unknown timing parameter `l1d.sise`");
    Files.writeString(f, "width = four\n");
    e = assertThrows(IllegalArgumentException.class, () -> TimingConfig.defaults("ooo").read(f));
    assertThat(e).hasMessageThat().contains("t.cfg:1:1: timing parameter `width` takes a whole");
    e = assertThrows(IllegalArgumentException.class, () -> TimingConfig.defaults("o3"));
    assertThat(e).hasMessageThat().contains("unknown timing model `o3`");
  }

  @Test
  void gshareLearnsAPatternThatBimodalCannot() {
    // Alternating taken / not taken at one pc: a 2-bit counter keeps mispredicting, gshare with
    // history learns it.
    BranchPredictor bimodal = new BranchPredictor(BranchPredictor.Kind.BIMODAL, 1024, 0);
    BranchPredictor gshare = new BranchPredictor(BranchPredictor.Kind.GSHARE, 1024, 8);
    int wrongB = 0;
    int wrongG = 0;
    for (int i = 0; i < 1000; i++) {
      boolean taken = (i & 1) == 0;
      wrongB += bimodal.predict(0x1000, taken) ? 0 : 1;
      wrongG += gshare.predict(0x1000, taken) ? 0 : 1;
    }
    assertThat(wrongB).isAtLeast(490);
    assertThat(wrongG).isLessThan(20);
  }

  @Test
  void theReturnStackPredictsNestedReturns() {
    ReturnAddressStack ras = new ReturnAddressStack(4);
    ras.push(10);
    ras.push(20);
    assertThat(ras.pop(20)).isTrue();
    assertThat(ras.pop(10)).isTrue();
    assertThat(ras.pop(10)).isFalse(); // empty
  }
}
