package org.dise.runtime.cpu;

import static com.google.common.truth.Truth.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.dise.runtime.isa.Decoder;
import org.junit.jupiter.api.Test;

/**
 * A unit holds the registers its instructions name most often ({@link UnitRegisters#choose}); only
 * the fields an instruction reads or writes may count. An I-type's rs2 field is bits of its
 * immediate, and a load's too: counted, they named registers no instruction touches, which then
 * took held places from real ones.
 */
class UnitRegistersScanTest {
  private static List<Integer> used(int raw) {
    UnitRegisters regs = new UnitRegisters(null, 3, 4, 20, 30, true);
    regs.scan(Decoder.decode(0x10000, raw));
    List<Integer> used = new ArrayList<>();
    for (int r = 0; r < regs.used.length; r++) {
      if (regs.used[r]) {
        used.add(r);
      }
    }
    return used;
  }

  @Test
  void onlyTheRegistersAnInstructionReadsOrWritesCount() {
    assertThat(used(0xfff58593)).containsExactly(11); // addi a1,a1,-1 (rs2 field: 31)
    assertThat(used(0x00813403)).containsExactly(2, 8); // ld s0,8(sp) (rs2 field: 8)
    assertThat(used(0x00113423)).containsExactly(1, 2); // sd ra,8(sp)
    assertThat(used(0x00c58533)).containsExactly(10, 11, 12); // add a0,a1,a2
    assertThat(used(0x0105b02f)).containsExactly(11, 16); // amoadd.d x0,a6,(a1)
  }
}
