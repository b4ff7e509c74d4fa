package org.dise.runtime.timing;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.dise.runtime.Machine;
import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.mem.Memory;
import org.dise.testsupport.ExternalTool;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Handlers run as RISC-V code on the shadow hart (spec/timing.md, "Handlers as real code"): they
 * update their tables in the shadow window, their instructions reach the timing core as handler
 * cycles, and the guest's registers and memory are exactly as before.
 */
class ShadowHandlersTest {
  private static Machine machine() throws Exception {
    Machine m = MicroPrograms.load("mul", "dep", "100");
    m.run(500); // past start-up: registers and stack in use
    return m;
  }

  /**
   * Skips a test that compiles handlers, saying why, where the RISC-V cross compiler is missing.
   */
  private static void assumeCrossCompiler() {
    String gcc = ExternalTool.missing(HandlerImage.CC, "--version");
    Assumptions.assumeTrue(gcc == null, gcc);
  }

  /**
   * Links {@code c}'s {@code tally} as a freestanding static RISC-V ELF {@code elf}, with {@code
   * flags} besides; fails the test with the compiler's output when it does not link.
   */
  private static void link(Path c, Path elf, String... flags) throws Exception {
    List<String> command =
        new ArrayList<>(List.of(HandlerImage.CC, "-O2", "-ffreestanding", "-nostdlib", "-static"));
    command.addAll(List.of(flags));
    command.addAll(List.of("-Wl,-e,tally", "-o", elf.toString(), c.toString()));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String log = new String(p.getInputStream().readAllBytes());
    assertWithMessage(log).that(p.waitFor()).isEqualTo(0);
  }

  /** The shadow handlers of one {@code count_map} sink whose handler is {@code handler}. */
  private static ShadowHandlers countMap(String sink, String handler) {
    return new ShadowHandlers(
        List.of(new SinkHandler(sink, "count_map", Map.of("handler", handler))), 64);
  }

  /** Every readable guest page outside the shadow window, copied. */
  private static List<byte[]> snapshot(Memory mem) {
    byte[][] pages = mem.readPages();
    List<byte[]> out = new ArrayList<>();
    for (int p = 0; p < (int) (ShadowHandlers.WINDOW >>> Memory.PAGE_BITS); p++) {
      out.add(pages[p] == null ? null : pages[p].clone());
    }
    return out;
  }

  /** The slot of {@code (k0, k1)} in sink {@code i}'s table, as acf_handler.h's probe finds it. */
  private static long[] slot(Memory mem, long table, long k0, long k1) {
    long mask = mem.read64(table);
    for (long s = 0; s <= mask; s++) {
      long e = table + ShadowHandlers.HEADER_BYTES + s * ShadowHandlers.SLOT_BYTES;
      if (mem.read64(e + 16) != 0 && mem.read64(e) == k0 && mem.read64(e + 8) == k1) {
        return new long[] {mem.read64(e + 16), mem.read64(e + 24)};
      }
    }
    return null;
  }

  @Test
  void avgMapRunsSumMapsLibraryHandler() {
    ShadowHandlers h =
        new ShadowHandlers(List.of(new SinkHandler("mean", "avg_map", Map.of())), 64);
    assertThat(h.origin(0)).isEqualTo("runtime/timing/src/main/handlers/handlers.c:sum_map");
  }

  @Test
  void handlerUpdatesItsTableAndLeavesTheGuestUntouched() throws Exception {
    Machine m = machine();
    Cpu guest = m.cpu();
    Core core = Core.of(TimingConfig.defaults("ooo"));
    ShadowHandlers h =
        new ShadowHandlers(
            List.of(
                new SinkHandler("pairs", "call_pair_counter", Map.of()),
                new SinkHandler("regions", "region_counter", Map.of()),
                new SinkHandler("ranges", "rap_tree", Map.of())),
            4096);
    h.install(guest.memory(), core);
    assertThat(h.runs(0)).isTrue();
    assertThat(h.runs(1)).isTrue();
    assertThat(h.runs(2)).isFalse(); // no library handler: the model's fallback charges it
    assertThat(h.origin(1)).isEqualTo("runtime/timing/src/main/handlers/handlers.c:region_counter");

    long[] x = guest.x.clone();
    long[] f = guest.f.clone();
    long pc = guest.pc;
    long instret = guest.instret();
    List<byte[]> before = snapshot(guest.memory());

    DecodedInsn d = guest.decodedAt(guest.pc);
    for (int n = 0; n < 3; n++) {
      h.call(0, d, guest, 1000 + n, new long[0]);
    }
    h.call(1, d, guest, 41, new long[0]);
    h.call(1, d, guest, 99, new long[0]);

    assertThat(guest.x).isEqualTo(x);
    assertThat(guest.f).isEqualTo(f);
    assertThat(guest.pc).isEqualTo(pc);
    assertThat(guest.instret()).isEqualTo(instret);
    List<byte[]> after = snapshot(guest.memory());
    for (int p = 0; p < before.size(); p++) {
      assertWithMessage("guest page 0x%s", Long.toHexString((long) p << Memory.PAGE_BITS))
          .that(after.get(p))
          .isEqualTo(before.get(p));
    }

    // The code ran: the call pair (pc, its fall-through: not a transfer) was counted three times,
    // the region twice with the instructions between the events (42, then 100 - 42).
    long target = ShadowHandlers.target(d, x, ShadowHandlers.kind(d, x));
    assertThat(slot(guest.memory(), h.table(0), d.pc, target)).isEqualTo(new long[] {3, 0});
    assertThat(slot(guest.memory(), h.table(1), d.pc, 0)).isEqualTo(new long[] {2, 100});
    assertThat(h.calls(0)).isEqualTo(3);
    assertThat(h.instructions(0)).isGreaterThan(3 * 10L);

    // Its instructions reached the core as handler cycles, not the application's.
    TimingReport r = core.report();
    assertThat(r.handlerCycles()).isGreaterThan(0L);
    assertThat(r.applicationCycles()).isEqualTo(0L);
    assertThat(core.handlerInstructions()).isEqualTo(h.totalInstructions());
    assertThat(core.handlerCalls()).isEqualTo(5);
  }

  @Test
  void aCustomHandlerInCIsCompiledAndRun(@TempDir Path dir) throws Exception {
    assumeCrossCompiler();
    Path c = dir.resolve("mine.c");
    Files.writeString(
        c,
        """
        #include "acf_handler.h"
        /* Counts events per key, and adds the key's square to the value. */
        void squares(struct table *t, u64 pc, u64 target, u64 insns, u64 kind, u64 sp, u64 key) {
          struct entry *e = probe(t, key, 0);
          if (e) {
            e->count++;
            e->value += key * key;
          }
        }
        """);
    Machine m = machine();
    Cpu guest = m.cpu();
    Core core = Core.of(TimingConfig.defaults("inorder"));
    ShadowHandlers h = countMap("sq", c + ":squares");
    h.install(guest.memory(), core);
    DecodedInsn d = guest.decodedAt(guest.pc);
    h.call(0, d, guest, 0, new long[] {7});
    h.call(0, d, guest, 0, new long[] {7});
    assertThat(slot(guest.memory(), h.table(0), 7, 0)).isEqualTo(new long[] {2, 98});
    assertThat(h.origin(0)).endsWith("mine.c:squares");

    // A function the file does not define, and a file that does not compile, name the sink.
    IllegalArgumentException missing =
        assertThrows(IllegalArgumentException.class, () -> countMap("sq", c + ":cubes"));
    assertThat(missing).hasMessageThat().contains("sink `sq`: handler `cubes` is not a function");
    Path bad = dir.resolve("bad.c");
    Files.writeString(bad, "void handler(void) { return 1 }\n");
    IllegalArgumentException broken =
        assertThrows(IllegalArgumentException.class, () -> countMap("b", bad.toString()));
    assertThat(broken).hasMessageThat().contains("does not compile");
    assertThat(broken).hasMessageThat().contains("bad.c:1");
  }

  @Test
  void aPrebuiltHandlerElfIsLoadedAndItsSymbolRun(@TempDir Path dir) throws Exception {
    assumeCrossCompiler();
    Path c = dir.resolve("elf.c");
    Files.writeString(
        c, "typedef unsigned long u64;\nvoid tally(u64 *t) { t[1] += 5; }\n"); // header's `used`
    Path elf = dir.resolve("tally.elf");
    // Linked inside the handler window.
    link(c, elf, "-fno-pic", "-mcmodel=medany", "-Wl,-Ttext-segment=0xF1000000");
    Machine m = machine();
    ShadowHandlers h = countMap("t", elf + ":tally");
    h.install(m.cpu().memory(), Core.of(TimingConfig.defaults("ooo")));
    DecodedInsn d = m.cpu().decodedAt(m.cpu().pc);
    h.call(0, d, m.cpu(), 0, new long[0]);
    h.call(0, d, m.cpu(), 0, new long[0]);
    assertThat(m.cpu().memory().read64(h.table(0) + 8)).isEqualTo(10);
    // An ELF linked where the guest lives is refused, naming the window.
    Path low = dir.resolve("low.elf");
    link(c, low);
    ShadowHandlers bad = countMap("t", low + ":tally");
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> bad.install(machine().cpu().memory(), Core.of(TimingConfig.defaults("ooo"))));
    assertThat(e).hasMessageThat().contains("outside the handler window");
  }

  @Test
  void aHandlerThatCallsTheKernelStopsWithAReport(@TempDir Path dir) throws Exception {
    assumeCrossCompiler();
    Path c = dir.resolve("sys.c");
    Files.writeString(c, "void handler(void) { __asm__ volatile(\"ecall\"); }\n");
    Machine m = machine();
    ShadowHandlers h = countMap("s", c.toString());
    h.install(m.cpu().memory(), Core.of(TimingConfig.defaults("ooo")));
    DecodedInsn d = m.cpu().decodedAt(m.cpu().pc);
    ShadowHandlers.HandlerFault e =
        assertThrows(
            ShadowHandlers.HandlerFault.class, () -> h.call(0, d, m.cpu(), 0, new long[0]));
    assertThat(e).hasMessageThat().contains("called the kernel (ecall at 0x");
  }
}
