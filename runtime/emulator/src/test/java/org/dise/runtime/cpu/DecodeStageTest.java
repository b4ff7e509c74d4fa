package org.dise.runtime.cpu;

import static com.google.common.truth.Truth.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import org.dise.runtime.Machine;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.OpClass;
import org.junit.jupiter.api.Test;

/** The decode-stage hook: tagged instructions run through it, untagged ones never do. */
class DecodeStageTest {
  private static final Path WORKLOAD = Path.of("../../examples/programs/bin/phases");

  /** Counts procedure calls at decode and executes each original instruction unchanged. */
  static final class CallCounter implements DecodeStage {
    long calls;
    long attached;

    @Override
    public Object attach(DecodedInsn d) {
      if (d.opClass() == OpClass.PROC_CALL) {
        attached++;
        return Boolean.TRUE;
      }
      return null;
    }

    @Override
    public long execute(DecodedInsn d, Cpu cpu) {
      calls++;
      return cpu.executeOne(d);
    }
  }

  /** Counts calls without the hook: a plain interpreter run, stopping at every call. */
  private static long countCallsBySingleStepping(Machine m) {
    long calls = 0;
    Cpu cpu = m.cpu();
    while (!cpu.halted()) {
      DecodedInsn d = cpu.decodedAt(cpu.pc);
      if (d.opClass() == OpClass.PROC_CALL) {
        calls++;
      }
      cpu.run(1);
    }
    return calls;
  }

  /** The phases example with argument {@code arg}, its stdout into {@code out}. */
  static Machine load(String arg, ByteArrayOutputStream out, int threshold) throws Exception {
    return load(arg, out, threshold, 0);
  }

  /** As above, with a translation warm-up of {@code warmup} instructions. */
  static Machine load(String arg, ByteArrayOutputStream out, int threshold, long warmup)
      throws Exception {
    Machine m =
        Machine.load(
            WORKLOAD,
            List.of(arg),
            Machine.Options.defaults()
                .withNotices(new PrintStream(new ByteArrayOutputStream()))
                .withTranslateThreshold(threshold)
                .withTranslateWarmup(warmup));
    m.kernel().setStdio(1, null, out);
    return m;
  }

  @Test
  void hookSeesEveryCallAndLeavesOutputAndCountUnchanged() throws Exception {
    ByteArrayOutputStream plainOut = new ByteArrayOutputStream();
    Machine plain = load("1", plainOut, 0);
    long expectedCalls = countCallsBySingleStepping(plain);

    ByteArrayOutputStream hookedOut = new ByteArrayOutputStream();
    Machine hooked = load("1", hookedOut, 50);
    CallCounter counter = new CallCounter();
    hooked.cpu().setDecodeStage(counter);
    Machine.Outcome o = hooked.run(-1);

    assertThat(o.exitStatus()).isEqualTo(0);
    assertThat(hookedOut.toString()).isEqualTo(plainOut.toString());
    assertThat(o.instructions()).isEqualTo(plain.cpu().instret());
    assertThat(counter.calls).isEqualTo(expectedCalls);
    assertThat(counter.calls).isGreaterThan(0L);
  }

  @Test
  void breakpointOnATaggedInstructionStopsBeforeIt() throws Exception {
    // Find the first call the guest makes, then break on it in a fresh machine.
    Machine again = load("1", new ByteArrayOutputStream(), 0);
    CallCounter fresh = new CallCounter();
    again.cpu().setDecodeStage(fresh);
    long callPc = firstCallPc(load("1", new ByteArrayOutputStream(), 0));
    again.cpu().setBreakpoint(callPc);
    assertThat(again.cpu().run(Long.MAX_VALUE)).isEqualTo(StopReason.BREAKPOINT);
    assertThat(again.cpu().pc).isEqualTo(callPc);
    assertThat(fresh.calls).isEqualTo(0L);
  }

  private static long firstCallPc(Machine m) {
    Cpu cpu = m.cpu();
    while (cpu.decodedAt(cpu.pc).opClass() != OpClass.PROC_CALL) {
      cpu.run(1);
    }
    return cpu.pc;
  }
}
