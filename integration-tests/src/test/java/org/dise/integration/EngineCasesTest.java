package org.dise.integration;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.dise.integration.EngineEndToEndTest.Engine;
import org.dise.runtime.Machine;
import org.dise.runtime.dise.CostReport;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.dise.ProfilingEngine;
import org.dise.runtime.dise.SymbolBinding;
import org.dise.runtime.elf.Symbol;
import org.dise.runtime.linux.Sandbox;
import org.dise.runtime.sink.Sink;
import org.dise.testsupport.FixedLengthRoot;
import org.dise.testsupport.Golden;
import org.dise.testsupport.TestFiles;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The engine cases of {@code src/test/cases/} (README.md there): each {@code X.acf} names its
 * program in a {@code // program:} line and runs under every engine in {@link #MODES}; each must
 * print exactly {@code X.expected} (every sink's profile, the cost figures, the guest's output and
 * how it ended). {@code -Dacf.updateGolden=true} rewrites the expectations from the interpreted
 * engine, and the others must still agree with it.
 */
class EngineCasesTest {
  static final Path CASES = Path.of("src/test/cases");
  static final String PROGRAM_LINE = "// program:";

  /**
   * One way to run productions: an engine, when blocks are translated to bytecode, and whether sink
   * calls may go to per-site counters.
   */
  record Mode(String name, Engine engine, int translateThreshold, boolean sites) {
    /** As a user's run: per-site counters where a sink offers them. */
    Mode(String name, Engine engine, int translateThreshold) {
      this(name, engine, translateThreshold, true);
    }
  }

  static final List<Mode> MODES =
      List.of(
          // The reference: the engine's plans on the plain interpreter (DiseEngine.execute, the
          // PlanInterpreter), no translated code.
          new Mode("interpreted", Engine.INTERPRETED, 0),
          // Blocks translated once hot, as a user's run translates them.
          new Mode(
              "default-threshold", Engine.INTERPRETED, Machine.Options.DEFAULT_TRANSLATE_THRESHOLD),
          new Mode("configuration", Engine.CONFIG, Machine.Options.DEFAULT_TRANSLATE_THRESHOLD),
          // Every block translated on its first run, so productions meet translated code at once.
          new Mode("translated", Engine.INTERPRETED, 1),
          // Interpreted, every sink call through the sink's record (no per-site counters).
          new Mode("interpreted-records", Engine.INTERPRETED, 0, false));

  /** The program and its arguments, from the case's {@code // program:} line. */
  static List<String> command(Path acf, String text) {
    for (String line : text.split("\n")) {
      if (line.startsWith(PROGRAM_LINE)) {
        List<String> words =
            Arrays.asList(line.substring(PROGRAM_LINE.length()).strip().split("\\s+"));
        if (!words.get(0).isEmpty()) {
          return words;
        }
      }
    }
    throw new AssertionError(acf + ": no '" + PROGRAM_LINE + " NAME ARGS...' line");
  }

  /**
   * The repository seen from a path of the same length in every checkout: the guest's start-up
   * reads its own canonical path (glibc's {@code _dl_get_origin} reads /proc/self/exe and copies
   * it), so its instruction counts, and the expected profiles, would otherwise depend on where the
   * repository lies (as in ReplTranscriptTest).
   */
  static final Path ROOT_LINK =
      FixedLengthRoot.create(
          "acf-cases", "integration-tests/src/test/c/bin", "examples/programs/bin");

  /** A program name alone is one of src/test/c/bin; a path is relative to the repository. */
  static Path program(String name) {
    return ROOT_LINK.resolve(
        name.contains("/") ? name : "integration-tests/src/test/c/bin/" + name);
  }

  /** Runs the case under {@code mode} and renders what it observed. */
  static String run(Path acf, Mode mode) throws Exception {
    String text = Files.readString(acf, StandardCharsets.UTF_8);
    List<String> cmd = command(acf, text);
    Machine m =
        Machine.load(
            program(cmd.get(0)),
            cmd.subList(1, cmd.size()),
            new Machine.Options(
                new Sandbox(Path.of("").toAbsolutePath()),
                List.of(),
                0x5eed,
                new PrintStream(new ByteArrayOutputStream()),
                mode.translateThreshold()));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    m.kernel().setStdio(1, null, out);
    ProductionSet set = EngineEndToEndTest.lower(text);
    if (!set.symbols().isEmpty()) {
      set = SymbolBinding.bind(set, m.programSymbols(), cmd.get(0));
    }
    ProfilingEngine engine = mode.engine().create(set);
    if (engine instanceof org.dise.runtime.dise.DiseEngine d) {
      d.setPerSiteCounters(mode.sites());
    }
    engine.install(m.cpu());
    Machine.Outcome o = m.run(-1);
    return render(cmd, engine, m, out.toString(StandardCharsets.UTF_8), o);
  }

  static String render(
      List<String> cmd, ProfilingEngine engine, Machine m, String stdout, Machine.Outcome o)
      throws IOException {
    StringBuilder sb = new StringBuilder();
    sb.append("# ").append(String.join(" ", cmd)).append('\n');
    for (Sink s : engine.sinks()) {
      StringWriter csv = new StringWriter();
      s.table(m.symbols()).writeCsv(csv);
      sb.append("== sink ").append(s.name()).append('\n').append(csv);
    }
    CostReport c = engine.cost();
    sb.append("== cost\n");
    for (var part : CostReport.class.getRecordComponents()) {
      try {
        sb.append(part.getName()).append(' ').append(part.getAccessor().invoke(c)).append('\n');
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(e);
      }
    }
    sb.append("== stdout\n").append(stdout);
    if (!stdout.isEmpty() && !stdout.endsWith("\n")) {
      sb.append("\n(no newline at the end)\n");
    }
    sb.append("== end\n")
        .append(o.reason())
        .append(" status ")
        .append(o.exitStatus())
        .append(" after ")
        .append(o.instructions())
        .append(" instructions\n");
    if (m.cpu().fault() != null) {
      long pc = m.cpu().fault().pc();
      sb.append("fault signal ")
          .append(m.cpu().fault().signal())
          .append(" at 0x")
          .append(Long.toHexString(pc))
          .append(' ')
          .append(m.symbols().lookup(pc).map(Symbol::name).orElse("?"))
          .append('\n');
    }
    return sb.toString();
  }

  static List<Path> cases() throws IOException {
    return TestFiles.endingWith(CASES, ".acf");
  }

  @TestFactory
  Stream<DynamicNode> everyCaseOnEveryEngine() throws IOException {
    List<Path> all = cases();
    assertWithMessage("engine cases in " + CASES.toAbsolutePath()).that(all).isNotEmpty();
    return all.stream()
        .map(
            acf -> {
              String name = acf.getFileName().toString().replaceFirst("\\.acf$", "");
              Path expected = acf.resolveSibling(name + ".expected");
              List<DynamicNode> tests = new ArrayList<>();
              for (Mode mode : MODES) {
                tests.add(
                    DynamicTest.dynamicTest(
                        mode.name(),
                        () -> {
                          String actual = run(acf, mode);
                          if (mode == MODES.get(0) || !Golden.updating()) {
                            Golden.assertMatches(expected, actual);
                          } else {
                            assertWithMessage("%s on the %s engine", name, mode.name())
                                .that(actual)
                                .isEqualTo(Files.readString(expected, StandardCharsets.UTF_8));
                          }
                        }));
              }
              return DynamicContainer.dynamicContainer(name, tests);
            });
  }

  @org.junit.jupiter.api.Test
  void aCaseWithoutAProgramLineIsRefusedByName() {
    AssertionError e =
        org.junit.jupiter.api.Assertions.assertThrows(
            AssertionError.class, () -> command(Path.of("x.acf"), "P: zero_0 => null, inc_0\n"));
    assertThat(e).hasMessageThat().contains("x.acf: no '// program: NAME ARGS...' line");
  }
}
