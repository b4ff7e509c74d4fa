package org.dise.integration;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.dise.integration.EngineEndToEndTest.Engine;
import org.dise.runtime.Machine;
import org.dise.runtime.dise.DiseEngine;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.dise.ProfilingEngine;
import org.dise.runtime.dise.SymbolBinding;
import org.dise.runtime.linux.Sandbox;
import org.dise.runtime.sink.Sink;
import org.dise.testsupport.TestFiles;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Productions inside translated code (issue 14): each ACF of the examples and of the conformance
 * suite's engine cases, on the test programs, must give exactly the same run interpreted (threshold
 * 0), translated from the first execution of every block (threshold 1) and translated once hot (the
 * default threshold): guest output, how the run ended, instruction counts (inserted ones included),
 * cost figures, HPS counters and every sink's profile. Also under instruction limits that stop runs
 * mid-unit, and when a replacement faults.
 */
class TranslatedProductionsTest {
  static final Path EXAMPLES = Path.of("../examples/acf");

  /** ACFs that combine features (watchpoints with pairs, maps, tagging) beyond the examples. */
  static final Path CORPUS = Path.of("src/test/acf");

  /** A program and its arguments. */
  record Program(Path path, List<String> args) {
    @Override
    public String toString() {
      return path.getFileName() + (args.isEmpty() ? "" : " " + String.join(" ", args));
    }
  }

  /** Calls (direct, indirect, recursive), loops, loads and stores, and printf. */
  static final Program CALLS = new Program(EngineEndToEndTest.CALLS, List.of("3"));

  /** For the ACFs that name program symbols (the arrays of examples/programs/arrays.c). */
  static final Program ARRAYS = new Program(Path.of("../examples/programs/bin/arrays"), List.of());

  /** Everything a user can observe of one run, as text (equal runs print equal texts). */
  /**
   * {@code program} loaded with the tests' fixed seed, its notices dropped and blocks translated
   * after {@code threshold} runs (the caller sets its standard streams).
   */
  static Machine quietMachine(Path program, List<String> args) throws Exception {
    return quietMachine(program, args, Machine.Options.DEFAULT_TRANSLATE_THRESHOLD);
  }

  /**
   * {@code acf} run by the interpreted engine on the calls program, every block translated on its
   * first run, with replacements and prologues emitted inline or ({@code inline} false) called.
   */
  static Machine translatedRun(String acf, boolean inline) throws Exception {
    Machine m = quietMachine(CALLS.path(), CALLS.args(), 1);
    m.kernel().setStdio(1, null, new ByteArrayOutputStream());
    ProfilingEngine e = Engine.INTERPRETED.create(EngineEndToEndTest.lower(acf));
    ((DiseEngine) e).setInlinePrologues(inline);
    e.install(m.cpu());
    m.cpu().blockCompiler().countPlanRuns(true);
    m.run(-1);
    return m;
  }

  static Machine quietMachine(Path program, List<String> args, int threshold) throws Exception {
    return Machine.load(
        program,
        args,
        new Machine.Options(
            new Sandbox(Path.of("").toAbsolutePath()),
            List.of(),
            0x5eed,
            new PrintStream(new ByteArrayOutputStream()),
            threshold));
  }

  static String observe(Engine engine, String acf, Program p, int threshold, long maxInsns)
      throws Exception {
    return observe(engine, acf, p, threshold, maxInsns, true);
  }

  /**
   * As {@link #observe(Engine, String, Program, int, long)}; {@code inline} false has translated
   * code call the interpreted engine for prologues instead of running them emitted as bytecode.
   */
  static String observe(
      Engine engine, String acf, Program p, int threshold, long maxInsns, boolean inline)
      throws Exception {
    return observe(engine, acf, p, threshold, maxInsns, inline, true);
  }

  /**
   * As {@link #observe(Engine, String, Program, int, long, boolean)}; {@code perSite} false has
   * emitted prologues call every sink's {@code record} instead of adding to its per-site counters.
   */
  static String observe(
      Engine engine,
      String acf,
      Program p,
      int threshold,
      long maxInsns,
      boolean inline,
      boolean perSite)
      throws Exception {
    Machine m = quietMachine(p.path(), p.args(), threshold);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    m.kernel().setStdio(1, null, out);
    ProductionSet set = EngineEndToEndTest.lower(acf);
    if (!set.symbols().isEmpty()) {
      set = SymbolBinding.bind(set, m.programSymbols(), p.toString());
    }
    ProfilingEngine e = engine.create(set);
    if (e instanceof DiseEngine d) {
      d.setInlinePrologues(inline);
      d.setPerSiteCounters(perSite);
    }
    e.install(m.cpu());
    Machine.Outcome o = m.run(maxInsns);
    StringBuilder sb = new StringBuilder();
    sb.append("stdout: ").append(out.toString(StandardCharsets.UTF_8)).append('\n');
    sb.append("outcome: ")
        .append(o.reason())
        .append(' ')
        .append(o.exitStatus())
        .append(' ')
        .append(o.instructions())
        .append(" pc ")
        .append(Long.toHexString(m.cpu().pc))
        .append('\n')
        .append(o.report())
        .append('\n');
    sb.append("cost: ").append(e.cost()).append('\n');
    sb.append("DISE registers: ")
        .append(
            java.util.Arrays.toString(
                java.util.Arrays.copyOfRange(
                    m.cpu().x,
                    org.dise.runtime.cpu.HartState.DISE_REG_BASE,
                    org.dise.runtime.cpu.HartState.DISE_REG_BASE
                        + org.dise.runtime.cpu.HartState.DISE_REGS)))
        .append('\n');
    for (int i = 0; i < e.hps().count(); i++) {
      sb.append("counter ")
          .append(i)
          .append(": ")
          .append(e.hps().value(i))
          .append(e.hps().overflow(i) ? " overflow" : "")
          .append('\n');
    }
    for (Sink s : e.sinks()) {
      sb.append("sink ")
          .append(s.name())
          .append(": ")
          .append(s.table(m.symbols()).rows())
          .append('\n');
    }
    return sb.toString();
  }

  static List<Path> corpus() throws IOException {
    List<Path> acfs = new ArrayList<>();
    for (Path dir : List.of(EXAMPLES, CORPUS)) {
      acfs.addAll(TestFiles.endingWith(dir, ".acf"));
    }
    return acfs;
  }

  @TestFactory
  Stream<DynamicTest> everyExampleAgreesInterpretedAndTranslated() throws IOException {
    List<DynamicTest> tests = new ArrayList<>();
    for (Path acf : corpus()) {
      String text = Files.readString(acf, StandardCharsets.UTF_8);
      boolean symbolic = !EngineEndToEndTest.lower(text).symbols().isEmpty();
      Program p = symbolic ? ARRAYS : CALLS;
      tests.add(DynamicTest.dynamicTest(acf.getFileName() + " on " + p, () -> agree(text, p, -1)));
    }
    return tests.stream();
  }

  /**
   * The interpreted engine translated from the first execution (threshold 1, with prologues emitted
   * as bytecode and with prologues called) and once hot (the default threshold) observes what it
   * observes when nothing is translated.
   */
  static void agree(String acf, Program p, long maxInsns) throws Exception {
    String expected = observe(Engine.INTERPRETED, acf, p, 0, maxInsns);
    check(expected, Engine.INTERPRETED, acf, p, 1, maxInsns);
    String called = observe(Engine.INTERPRETED, acf, p, 1, maxInsns, false);
    assertWithMessage(
            "prologues called instead of emitted, threshold 1: "
                + firstDifference(expected, called))
        .that(called.equals(expected))
        .isTrue();
    check(
        expected,
        Engine.INTERPRETED,
        acf,
        p,
        Machine.Options.DEFAULT_TRANSLATE_THRESHOLD,
        maxInsns);
  }

  private static void check(
      String expected, Engine engine, String acf, Program p, int t, long maxInsns)
      throws Exception {
    String actual = observe(engine, acf, p, t, maxInsns);
    assertWithMessage(
            engine + " engine, translate threshold " + t + ": " + firstDifference(expected, actual))
        .that(actual.equals(expected))
        .isTrue();
  }

  /** The first line where two observations differ, both versions shortened. */
  static String firstDifference(String expected, String actual) {
    String[] e = expected.split("\n", -1);
    String[] a = actual.split("\n", -1);
    for (int i = 0; i < Math.max(e.length, a.length); i++) {
      String x = i < e.length ? e[i] : "<none>";
      String y = i < a.length ? a[i] : "<none>";
      if (!x.equals(y)) {
        int from = 0;
        while (from < Math.min(x.length(), y.length()) && x.charAt(from) == y.charAt(from)) {
          from++;
        }
        from = Math.max(0, from - 80);
        return "line "
            + (i + 1)
            + "\n expected: ..."
            + cut(x, from)
            + "\n but was:  ..."
            + cut(y, from);
      }
    }
    return "equal";
  }

  private static String cut(String s, int from) {
    return s.substring(Math.min(from, s.length()), Math.min(s.length(), from + 240));
  }

  @Test
  void instructionLimitsStopAtTheSameInstructionTranslatedOrNot() throws Exception {
    // Limits that fall inside units, on tagged instructions and inside replacement sequences.
    String acf = Files.readString(CORPUS.resolve("watch_and_pairs.acf"));
    Program calls = CALLS;
    for (long limit : new long[] {977, 20_011, 61_117}) {
      agree(acf, calls, limit);
      agree(EngineEndToEndTest.REGIONS, calls, limit);
    }
  }

  @Test
  void aFaultInAReplacementIsReportedAtTheSameInstructionTranslatedOrNot() throws Exception {
    // The hundredth call's replacement loads from address 0: a guest fault inside the decode
    // stage's sequence, after a DISE register was written and counters moved.
    String acf =
        "sink pairs = call_pair_counter(cost = 40);\n"
            + "Q: T.OPCLASS == proc_call && overflow_0 => Bad, null\n"
            + "P: T.OPCLASS == proc_call => R, inc_0\n"
            + "R: call(pairs, T.INSN); T.INSN;\n"
            + "Bad: addi $dr0, zero, 7; ld $dr1, 0($dr0); T.INSN;\n"
            + "counter calls(index = 0, width = 7, init = 28);\n";
    Program calls = CALLS;
    String interpreted = observe(Engine.INTERPRETED, acf, calls, 0, -1);
    assertThat(interpreted).contains("FAULT");
    agree(acf, calls, -1);
  }
}
