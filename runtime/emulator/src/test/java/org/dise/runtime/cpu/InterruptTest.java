package org.dise.runtime.cpu;

import static com.google.common.truth.Truth.assertThat;

import org.dise.runtime.mem.Memory;
import org.junit.jupiter.api.Test;

/** Ctrl-C in the REPL: a request made before or during a run stops it, and is used up. */
class InterruptTest {
  private static Cpu spinning() {
    Memory mem = new Memory();
    mem.map(0x10000, Memory.PAGE_SIZE, Memory.PROT_READ | Memory.PROT_EXEC);
    byte[] jSelf = {0x6f, 0x00, 0x00, 0x00}; // jal x0, 0: a loop of one instruction
    mem.poke(0x10000, jSelf, 0, jSelf.length);
    Cpu cpu = new Cpu(mem, c -> {});
    cpu.pc = 0x10000;
    return cpu;
  }

  @Test
  void requestMadeJustBeforeRunIsNotLost() {
    Cpu cpu = spinning();
    cpu.requestInterrupt();
    assertThat(cpu.run(1_000_000)).isEqualTo(StopReason.INTERRUPTED);
    assertThat(cpu.instret()).isEqualTo(0L);
    // Used up: the next run goes on.
    assertThat(cpu.run(10)).isEqualTo(StopReason.STEP_LIMIT);
    assertThat(cpu.instret()).isEqualTo(10L);
  }

  @Test
  void requestFromAnotherThreadStopsARunningGuest() throws Exception {
    Cpu cpu = spinning();
    Thread stopper = interruptLater(cpu, 50);
    assertThat(cpu.run(Long.MAX_VALUE)).isEqualTo(StopReason.INTERRUPTED);
    stopper.join();
    assertThat(cpu.pc).isEqualTo(0x10000L);
  }

  /** A started thread that asks {@code cpu} to stop after {@code millis}, as Ctrl-C would. */
  static Thread interruptLater(Cpu cpu, long millis) {
    Thread stopper =
        new Thread(
            () -> {
              try {
                Thread.sleep(millis);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              cpu.requestInterrupt();
            });
    stopper.start();
    return stopper;
  }
}
