package org.dise.runtime.profiles.sink;

import static com.google.common.truth.Truth.assertThat;

import java.util.Arrays;
import java.util.List;
import org.dise.runtime.Machine;
import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.cpu.DecodeStage;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.OpClass;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.api.Test;

/**
 * The suffix-index search against the earlier incremental search ({@link GreedyOracle}) on a real
 * data reference trace: the loads and stores of the start of {@code mcf 1}, complete and cut into
 * bursts as bursty tracing samples it.
 */
class RealTraceOracleTest {
  /** Records (pc, effective address) of every load and store, as the burst_trace sink does. */
  static final class Recorder implements DecodeStage {
    long[] pcs = new long[1 << 16];
    long[] addresses = new long[1 << 16];
    int n;

    @Override
    public Object attach(DecodedInsn d) {
      return d.opClass() == OpClass.LOAD || d.opClass() == OpClass.STORE ? Boolean.TRUE : null;
    }

    @Override
    public long execute(DecodedInsn d, Cpu cpu) {
      if (n == pcs.length) {
        pcs = Arrays.copyOf(pcs, 2 * n);
        addresses = Arrays.copyOf(addresses, 2 * n);
      }
      pcs[n] = d.pc;
      addresses[n] = cpu.x[d.rs1] + d.imm;
      n++;
      return cpu.executeOne(d);
    }
  }

  @Test
  void mcfStartChoosesWhatTheIncrementalSearchChose() throws Exception {
    Machine m =
        Machine.load(
            RepositoryRoot.resolve("examples/programs/bin/mcf"),
            List.of("1"),
            Machine.Options.defaults());
    Recorder r = new Recorder();
    m.cpu().setDecodeStage(r);
    m.run(1_500_000);
    int n = r.n;
    assertThat(n).isGreaterThan(300_000);
    StreamFinder f = new StreamFinder(10, 40, 90);
    GreedyOracle oracle = new GreedyOracle(10, 40, 90);
    List<StreamFinder.Stream> got = f.find(r.pcs, r.addresses, null, n);
    assertThat(got.size()).isGreaterThan(10);
    StreamFinderOracleTest.assertSame(got, oracle.find(r.pcs, r.addresses, null, n, true));
    // Bursts: 500 references of every 10,000, as a 5% bursty sample.
    long[] pcs = new long[n];
    long[] addresses = new long[n];
    int[] bursts = new int[n];
    int k = 0;
    for (int i = 0; i < n; i++) {
      if (i % 10_000 < 500) {
        pcs[k] = r.pcs[i];
        addresses[k] = r.addresses[i];
        bursts[k++] = i / 10_000;
      }
    }
    List<StreamFinder.Stream> sampled = f.find(pcs, addresses, bursts, k);
    assertThat(sampled).isNotEmpty();
    StreamFinderOracleTest.assertSame(sampled, oracle.find(pcs, addresses, bursts, k, true));
  }
}
