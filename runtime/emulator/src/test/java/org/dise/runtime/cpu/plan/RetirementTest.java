package org.dise.runtime.cpu.plan;

import static com.google.common.truth.Truth.assertThat;

import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.Decoder;
import org.dise.runtime.mem.Memory;
import org.junit.jupiter.api.Test;

/** The retired record of a tagged instruction: what tag(sink) hands a co-processor sink. */
class RetirementTest {
  private static Cpu cpu() {
    Memory mem = new Memory();
    mem.map(0x20000, Memory.PAGE_SIZE, Memory.PROT_READ | Memory.PROT_WRITE);
    return new Cpu(mem, c -> {});
  }

  /** S-type store: funct3, rs2, rs1, imm. */
  private static int store(int funct3, int opcode, int rs2, int rs1, int imm) {
    return ((imm >> 5) & 0x7f) << 25
        | rs2 << 20
        | rs1 << 15
        | funct3 << 12
        | (imm & 0x1f) << 7
        | opcode;
  }

  @Test
  void aNarrowStoreRecordsTheBytesItWrote() {
    Cpu cpu = cpu();
    cpu.x[10] = 0x20000;
    cpu.x[11] = 0x1234_5678_9abc_def1L;
    // sb a1, 8(a0); sh a1, 8(a0); sw a1, 8(a0); sd a1, 8(a0)
    long[] expected = {0xf1L, 0xdef1L, 0x9abc_def1L, 0x1234_5678_9abc_def1L};
    for (int funct3 = 0; funct3 < 4; funct3++) {
      DecodedInsn d = Decoder.decode(0x10000, store(funct3, 0x23, 11, 10, 8));
      assertThat(Retirement.address(d, cpu)).isEqualTo(0x20008L);
      long stored = Retirement.stored(d, cpu);
      assertThat(Retirement.value(d, cpu, d.npc, stored)).isEqualTo(expected[funct3]);
    }
  }

  @Test
  void aSinglePrecisionStoreRecordsItsFourBytesNotTheNanBox() {
    Cpu cpu = cpu();
    cpu.x[10] = 0x20000;
    cpu.f[11] = 0xffff_ffff_3f80_0000L; // 1.0f, NaN-boxed in the 64-bit register
    DecodedInsn d = Decoder.decode(0x10000, store(2, 0x27, 11, 10, 0)); // fsw fa1, 0(a0)
    assertThat(Retirement.value(d, cpu, d.npc, Retirement.stored(d, cpu))).isEqualTo(0x3f80_0000L);
  }

  @Test
  void aCompressedStackStoreRecordsItsAddressAndWord() {
    Cpu cpu = cpu();
    cpu.x[2] = 0x20100;
    cpu.x[9] = -1L;
    // c.swsp s1, 12(sp): 110 uimm[5:2]=0011 uimm[7:6]=00 rs2=01001 10
    int raw = 0b110 << 13 | 0b0011 << 9 | 0b00 << 7 | 9 << 2 | 0b10;
    DecodedInsn d = Decoder.decode(0x10000, raw);
    assertThat(d.size).isEqualTo(2);
    assertThat(Retirement.address(d, cpu)).isEqualTo(0x2010cL);
    assertThat(Retirement.value(d, cpu, d.npc, Retirement.stored(d, cpu))).isEqualTo(0xffff_ffffL);
  }
}
