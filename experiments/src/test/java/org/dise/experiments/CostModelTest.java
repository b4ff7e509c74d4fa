package org.dise.experiments;

import static com.google.common.truth.Truth.assertThat;

import org.dise.experiments.model.CycleModel;
import org.dise.experiments.model.EnergyModel;
import org.dise.experiments.model.InstructionMix;
import org.dise.runtime.dise.CostReport;
import org.junit.jupiter.api.Test;

/** The cycle and energy models charge each event its documented cost. */
class CostModelTest {
  @Test
  void cyclesByCause() {
    CycleModel m = CycleModel.paper();
    // 1000 app insns, 30 inserted, 10 replacements (10 stall cycles), 2 handler calls of 40.
    CostReport c = new CostReport(1000, 30, 10, 10, 2, 80);
    CycleModel.Cycles y = m.cycles(c, 2, 10);
    assertThat(y.stalls()).isEqualTo(10.0);
    assertThat(y.inserted()).isEqualTo(30.0);
    assertThat(y.flushes()).isEqualTo(20.0);
    assertThat(y.handlers()).isEqualTo(80.0);
    assertThat(y.handlerMisses()).isEqualTo(0.0); // 10 entries fit the L1
    assertThat(y.overhead()).isWithin(1e-9).of(0.14);
    assertThat(m.withBaseCpi(0.5).cycles(c, 2, 10).overhead()).isWithin(1e-9).of(0.28);
  }

  @Test
  void aTableLargerThanTheL1MissesInProportion() {
    CycleModel m = CycleModel.paper();
    long entries = 4 * (32 << 10) / 32; // four times the L1
    assertThat(m.handlerMissRate(entries)).isWithin(1e-9).of(0.75);
    assertThat(m.missLatency(entries)).isEqualTo(12.0);
    assertThat(m.missLatency(1 << 20)).isEqualTo(100.0); // 32 MB: beyond the L2
  }

  @Test
  void strongArmEnergyPerEvent() {
    EnergyModel e = EnergyModel.strongArm();
    assertThat(e.iregJ() * 1e9).isWithin(0.01).of(4.224);
    assertThat(e.byteJ() * 1e9).isWithin(0.1).of(1036.4);
    InstructionMix mix = new InstructionMix(1000, 0, 0, 0, 100);
    assertThat(e.application(mix)).isWithin(1e-15).of(1000 * e.iregJ());
    InstructionMix fp = new InstructionMix(1000, 0, 0, 10, 100);
    assertThat(e.application(fp)).isWithin(1e-15).of(990 * e.iregJ() + 10 * e.fpJ());
  }
}
