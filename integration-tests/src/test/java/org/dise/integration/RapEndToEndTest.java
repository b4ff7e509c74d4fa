package org.dise.integration;

import static com.google.common.truth.Truth.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import org.dise.integration.EngineEndToEndTest.Engine;
import org.dise.runtime.Machine;
import org.dise.runtime.dise.ProfilingEngine;
import org.dise.runtime.elf.Symbol;
import org.dise.runtime.linux.Sandbox;
import org.dise.runtime.profiles.sink.rap.HotRange;
import org.dise.runtime.profiles.sink.rap.RapSink;
import org.dise.runtime.profiles.sink.rap.RapTree;
import org.junit.jupiter.api.Test;

/**
 * The library's RAP blocks (rap.acf) on a program with known value and address distributions
 * (src/test/c/values.c): the hot ranges hold the expected shares, every count is a lower bound of
 * the exact count of its range, and the engines agree.
 */
class RapEndToEndTest {
  static final Path VALUES = Path.of("src/test/c/bin/values");
  static final int N = 3000;

  record Run(Machine machine, ProfilingEngine engine, String stdout) {
    RapSink rap() {
      return (RapSink) engine.sinks().get(0);
    }
  }

  static Machine load() throws Exception {
    return Machine.load(
        VALUES,
        List.of(Integer.toString(N)),
        new Machine.Options(
            new Sandbox(Path.of("").toAbsolutePath()),
            List.of(),
            0x5eed,
            new PrintStream(new ByteArrayOutputStream())));
  }

  /** The pattern that selects the pcs of one function of the test program. */
  static String inFunction(String name) throws Exception {
    Symbol f = load().symbols().byName(name).orElseThrow();
    return String.format("T.PC >= 0x%x && T.PC < 0x%x", f.address(), f.address() + f.size());
  }

  static Run run(Engine kind, String acf) throws Exception {
    Machine m = load();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    m.kernel().setStdio(1, null, out);
    ProfilingEngine e = kind.create(EngineEndToEndTest.lower(acf));
    e.install(m.cpu());
    m.run(-1);
    return new Run(m, e, out.toString(java.nio.charset.StandardCharsets.UTF_8));
  }

  static void assertLowerBounds(RapSink s) {
    for (RapTree.Node n : s.tree().preorder()) {
      assertThat(n.subtreeCount()).isAtMost(s.exact().countIn(n.lo(), n.hi()));
    }
  }

  static double share(RapSink s, long lo, long hi) {
    return 100.0
        * s.hotRanges().stream()
            .filter(h -> h.lo() >= lo && h.hi() <= hi)
            .mapToLong(HotRange::count)
            .sum()
        / s.tree().events();
  }

  @OnEveryEngine
  void loadValueRangesFindTheConstantAndTheConcentratedRange(Engine kind) throws Exception {
    String acf =
        "import rap;\n"
            + "sink v = rap_tree(epsilon_ppm = 10000);\n"
            + "P: T.OPCLASS == load && ("
            + inFunction("constant_loads")
            + " || "
            + inFunction("range_loads")
            + ") => R, null\n"
            + "R: T.INSN; mv $dr0, T.RD; call(v, $dr0);\n";
    Run r = run(kind, acf);
    RapSink s = r.rap();
    assertThat(s.tree().events()).isEqualTo(2 * N);
    // constant_loads: half the stream is the value 42, found as a range of its own.
    HotRange fortyTwo =
        s.hotRanges().stream()
            .filter(h -> h.lo() == 42 && h.hi() == 42)
            .findFirst()
            .orElseThrow(() -> new AssertionError(s.hotRanges().toString()));
    assertThat(fortyTwo.exact()).isEqualTo(N);
    assertThat(100.0 * fortyTwo.inclusive() / s.tree().events()).isWithin(2.0).of(50.0);
    // range_loads: 70% of its values (35% of the stream) lie in [0x5000, 0x50ff].
    assertThat(share(s, 0x5000, 0x50ff)).isWithin(4.0).of(35.0);
    assertLowerBounds(s);
  }

  @OnEveryEngine
  void zeroLoadAddressesFallInTheZeroArray(Engine kind) throws Exception {
    String acf =
        "import rap;\n"
            + "P: T.OPCLASS == load && "
            + inFunction("zero_loads")
            + " => R, null\n"
            + "R: addi $dr0, T.RS1, T.IMM; T.INSN; bnez T.RD, .loaded; call(zero_load_ranges, $dr0);"
            + " .loaded:\n";
    Run r = run(kind, acf);
    RapSink s = r.rap();
    // The program prints where zeros[] is: "zeros 0x794d8 8192".
    String[] z =
        r.stdout().lines().filter(l -> l.startsWith("zeros ")).findFirst().orElseThrow().split(" ");
    long lo = Long.decode(z[1]);
    long hi = lo + Long.parseLong(z[2]) - 1;
    // Half the loads read zeros[] (all zero), half table[] (never zero).
    assertThat(s.tree().events()).isEqualTo(N / 2);
    assertThat(s.exact().countIn(lo, hi)).isEqualTo(N / 2);
    assertThat(share(s, lo, hi)).isAtLeast(80.0);
    assertLowerBounds(s);
  }

  @Test
  void hotCodeRangesAgreeAcrossEnginesAndStayWithinThePapersNodeCount() throws Exception {
    String acf = "import rap;\nuse hot_code_ranges;\n";
    Run a = run(Engine.INTERPRETED, acf);
    Run b = run(Engine.CONFIG, acf);
    assertThat(b.rap().table(b.machine().symbols()))
        .isEqualTo(a.rap().table(a.machine().symbols()));
    assertThat(b.engine().cost()).isEqualTo(a.engine().cost());
    // The loop of each phase is hot; at epsilon 10% the paper needs at most ~500 nodes.
    for (String f : List.of("constant_loads", "alternating_loads", "zero_loads")) {
      long pc = a.machine().symbols().byName(f).orElseThrow().address();
      assertThat(a.rap().hotRanges().stream().anyMatch(h -> h.lo() <= pc + 16 && pc <= h.hi()))
          .isTrue();
    }
    // Memory: within the O(log R / eps) worst case (b * height / eps = 1280 nodes here; the
    // maximum comes from the first few hundred events, when the threshold is below one event),
    // and near the paper's ~500 nodes for code at eps = 10% once merges have run.
    RapTree t = a.rap().tree();
    assertThat(t.maxNodes()).isAtMost(4 * t.height() * 10);
    assertThat(t.nodes()).isAtMost(600);
    assertLowerBounds(a.rap());
  }

  @OnEveryEngine
  void taggedLoadsFeedTheSameTreeWithoutReplacing(Engine kind) throws Exception {
    String select =
        "T.OPCLASS == load && ("
            + inFunction("constant_loads")
            + " || "
            + inFunction("range_loads")
            + ")";
    Run called =
        run(
            kind,
            "sink v = rap_tree();\nP: "
                + select
                + " => R, null\n"
                + "R: T.INSN; mv $dr0, T.RD; call(v, $dr0);\n");
    Run tagged =
        run(kind, "sink v = rap_tree(stream = value);\nP: " + select + " => tag(v), null\n");
    assertThat(tagged.rap().table(null)).isEqualTo(called.rap().table(null));
    assertThat(tagged.rap().tree().maxNodes()).isEqualTo(called.rap().tree().maxNodes());
    assertThat(tagged.engine().cost().replacements()).isEqualTo(0);
    assertThat(tagged.engine().cost().insertedInstructions()).isEqualTo(0);
    assertThat(called.engine().cost().replacements()).isEqualTo(2 * N);
  }
}
