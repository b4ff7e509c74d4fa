package org.dise.runtime.session;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dise.compiler.Compiler;
import org.dise.compiler.diag.SourceFile;
import org.dise.runtime.Machine;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.profiles.sampling.SamplingRun;
import org.dise.runtime.trigger.TriggerSpec;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One profiling session: how its options go together, loading, engines, forks, sampled passes. */
class SessionTest {
  static final Path ROOT = RepositoryRoot.path();
  static final Path HELLO = ROOT.resolve("examples/programs/bin/hello");
  static final Path PROCESSES =
      ROOT.resolve("runtime/emulator/src/test/resources/isa/processes.elf");
  static final Path PAIRS = ROOT.resolve("examples/acf/hot_call_pairs.acf");

  /** The compiler's side of a session, as a front end supplies it. */
  static ProductionSet compile(List<Path> files) {
    List<Compiler.Input> inputs = new ArrayList<>();
    for (Path f : files) {
      try {
        inputs.add(new Compiler.Input(new SourceFile(f.toString(), Files.readString(f)), f));
      } catch (java.io.IOException e) {
        throw new AssertionError(e);
      }
    }
    Compiler.Compilation c = Compiler.standard().compile(inputs);
    return c.productions()
        .orElseThrow(
            () ->
                new AssertionError(
                    org.dise.compiler.diag.DiagnosticRenderer.renderAll(c.diagnostics().sorted())));
  }

  static Machine.Options quiet() {
    return Machine.Options.defaults().withNotices(new PrintStream(OutputStream.nullOutputStream()));
  }

  @Test
  void optionsThatDoNotGoTogetherAreUsageErrorsInTheCommandLinesWords() {
    SessionError zero =
        assertThrows(
            SessionError.class,
            () -> new SessionOptions(HELLO, List.of(), List.of(), null, null, 0, true));
    assertThat(zero)
        .hasMessageThat()
        .isEqualTo("--max-insns must be at least 1 (leave it out for no limit)");
    assertThat(zero.status()).isEqualTo(SessionError.USAGE);
    SessionError both =
        assertThrows(
            SessionError.class,
            () ->
                new SessionOptions(
                    HELLO, List.of(), List.of(PAIRS), Path.of("x.dcfg"), null, -1, true));
    assertThat(both).hasMessageThat().isEqualTo("--config and --acf exclude each other");
    SessionError out =
        assertThrows(
            SessionError.class,
            () -> new SessionOptions(HELLO, List.of(), List.of(), null, Path.of("prof"), -1, true));
    assertThat(out).hasMessageThat().isEqualTo("--out needs --acf or --config");
    assertThat(SessionOptions.plain(HELLO, List.of()).profiled()).isFalse();
  }

  @Test
  void aProgramThatCannotBeLoadedIsOneLineSayingWhy(@TempDir Path dir) throws Exception {
    Path missing = dir.resolve("nope");
    assertThat(assertThrows(SessionError.class, () -> Programs.load(missing, List.of(), quiet())))
        .hasMessageThat()
        .isEqualTo(missing + ": no such file");
    assertThat(assertThrows(SessionError.class, () -> Programs.load(dir, List.of(), quiet())))
        .hasMessageThat()
        .isEqualTo(dir + ": is a directory, not a program");
    Path text = Files.writeString(dir.resolve("text"), "not an ELF file\n");
    assertThat(assertThrows(SessionError.class, () -> Programs.load(text, List.of(), quiet())))
        .hasMessageThat()
        .startsWith(text + ": cannot run: ");
  }

  @Test
  void aPlainRunHasNoEngineAndRunsToTheEnd() {
    ProfilingSession s =
        ProfilingSession.open(
            SessionOptions.plain(HELLO, List.of()), quiet(), SessionTest::compile, System.err);
    assertThat(s.productions()).isNull();
    ProfilingSession.Run run = s.start();
    run.machine().kernel().setStdio(1, null, OutputStream.nullOutputStream());
    assertThat(run.engine()).isNull();
    assertThat(run.run(-1).exitStatus()).isEqualTo(0);
  }

  @Test
  void everyForkedProcessGetsAnEngineOfItsOwn() {
    SessionOptions o =
        new SessionOptions(PROCESSES, List.of(), List.of(PAIRS), null, null, -1, true);
    ProfilingSession s = ProfilingSession.open(o, quiet(), SessionTest::compile, System.err);
    assertThat(s.origin()).isEqualTo(PAIRS);
    ProfilingSession.Run run = s.start();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    run.machine().kernel().setStdio(1, null, out);
    Machine.Outcome outcome = run.run(-1);
    assertThat(outcome.exitStatus()).isEqualTo(0);
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("fork: waited=1");
    assertThat(run.engine()).isNotNull();
    assertThat(run.children()).isNotEmpty();
    run.children().values().forEach(e -> assertThat(e).isNotSameInstanceAs(run.engine()));
    assertThat(run.engine().cost().applicationInstructions()).isGreaterThan(0L);
  }

  static final Path FLAG_OFF = ROOT.resolve("examples/acf/flag_off_regions.acf");

  /** A session running {@code program} under {@code acf}, compiled. */
  static ProfilingSession profiled(Path program, Path acf) {
    return ProfilingSession.open(
        new SessionOptions(program, List.of(), List.of(acf), null, null, -1, true),
        quiet(),
        SessionTest::compile,
        System.err);
  }

  @Test
  void productionsThatCanNeverActAreNotInstalledAndReportZero() {
    ProfilingSession s = profiled(PROCESSES, FLAG_OFF);
    ProfilingSession.Run run = s.start();
    run.machine().kernel().setStdio(1, null, OutputStream.nullOutputStream());
    assertThat(run.dormant()).contains("overflow_1");
    assertThat(run.machine().cpu().decodeStage()).isNull();
    assertThat(run.run(-1).exitStatus()).isEqualTo(0);
    // The report is the run's, with nothing inserted; a forked process is treated the same.
    assertThat(run.engine().cost().applicationInstructions())
        .isEqualTo(run.machine().cpu().instret());
    assertThat(run.engine().cost().insertedInstructions()).isEqualTo(0);
    assertThat(run.children()).isNotEmpty();
    run.children().keySet().forEach(c -> assertThat(c.cpu().decodeStage()).isNull());
    // A debugger's run is installed all the same: it may set the flag by hand.
    assertThat(s.start(s.load()).machine().cpu().decodeStage()).isNotNull();
  }

  @Test
  void productionsWhoseFlagSomeProductionSetsAreInstalled(@TempDir Path dir) throws Exception {
    // The flag-off ACF with a production that counts calls into counter 1 (2 bits wide): it
    // overflows after 4 calls, and from then on every branch is counted.
    Path armed =
        Files.writeString(
            dir.resolve("armed.acf"),
            Files.readString(FLAG_OFF)
                + "counter calls(index = 1, width = 2, init = 0);\n"
                + "Arm: T.OPCLASS == proc_call -> inc_1, null\n");
    ProfilingSession.Run run = profiled(HELLO, armed).start();
    run.machine().kernel().setStdio(1, null, OutputStream.nullOutputStream());
    assertThat(run.dormant()).isNull();
    assertThat(run.machine().cpu().decodeStage()).isNotNull();
    assertThat(run.run(-1).exitStatus()).isEqualTo(0);
    assertThat(run.engine().cost().handlerCalls()).isGreaterThan(0L);
  }

  @Test
  void aSampledRunsPassesEachGetAFreshMachineAndEngine() {
    SessionOptions o = new SessionOptions(HELLO, List.of(), List.of(PAIRS), null, null, -1, true);
    ProfilingSession s = ProfilingSession.open(o, quiet(), SessionTest::compile, System.err);
    List<String> passes = new ArrayList<>();
    List<Machine> machines = new ArrayList<>();
    SamplingRun.Setup setup =
        s.sampling(
            new ProfilingSession.Hooks() {
              @Override
              public void started(
                  String pass,
                  org.dise.runtime.dise.TriggerDriver driver,
                  Machine machine,
                  org.dise.runtime.dise.ProfilingEngine engine) {
                passes.add(pass);
                machines.add(machine);
                machine.kernel().setStdio(1, null, OutputStream.nullOutputStream());
              }
            });
    SamplingRun.Result r =
        SamplingRun.run(
            setup, TriggerSpec.parse("periodic:2").with("interval", "10000"), true, null, -1);
    assertThat(passes).containsExactly("first pass", "sampled run").inOrder();
    assertThat(machines.get(0)).isNotSameInstanceAs(machines.get(1));
    assertThat(r.outcome().exitStatus()).isEqualTo(0);
    assertThat(r.accuracy()).isNotNull();
  }

  @Test
  void aRunStartedOffIsProfiledOnlyFromWhereItsProductionsAreTurnedOn() {
    ProfilingSession s =
        ProfilingSession.of(
                SessionOptions.plain(HELLO, List.of()), quiet(), compile(List.of(PAIRS)))
            .quiet();
    ProfilingSession.Run whole = s.start();
    whole.run(-1);
    long everyCall = whole.engine().cost().handlerCalls();
    long half = whole.applicationInstructions() / 2;
    ProfilingSession.Run run = s.startOff();
    assertThat(run.engine()).isNull();
    assertThat(run.run(half).reason()).isEqualTo(org.dise.runtime.cpu.StopReason.STEP_LIMIT);
    assertThat(run.machine().cpu().instret()).isEqualTo(half);
    org.dise.runtime.dise.DiseEngine engine = run.profileFromHere();
    assertThat(run.engine()).isSameInstanceAs(engine);
    assertThat(engine.cost().handlerCalls()).isEqualTo(0L);
    assertThat(run.run(-1).exitStatus()).isEqualTo(0);
    // The calls of the first half of the run are not counted.
    assertThat(engine.cost().handlerCalls()).isGreaterThan(0L);
    assertThat(engine.cost().handlerCalls()).isLessThan(everyCall);
    assertThrows(IllegalStateException.class, run::profileFromHere);
  }

  @Test
  void anEngineRefusalNamesTheProductionsOrigin() {
    ProductionSet set = compile(List.of(PAIRS));
    assertThat(Engines.build(set, "pairs.acf")).isNotNull();
    assertThat(assertThrows(IllegalArgumentException.class, () -> Engines.named("generated")))
        .hasMessageThat()
        .isEqualTo(Engines.RETIRED_ENGINE);
    assertThat(Engines.named("interpreted")).isEqualTo("interpreted");
  }

  @Test
  void aDebuggerStepsTheSessionsRunInSlicesAndReloadsItsProductions() {
    ByteArrayOutputStream guestOut = new ByteArrayOutputStream();
    ProfilingSession.Run run =
        ProfilingSession.of(
                SessionOptions.plain(HELLO, List.of()), quiet(), compile(List.of(PAIRS)))
            .named("the workspace")
            .preparing(m -> m.kernel().setStdio(1, null, guestOut))
            .start();
    assertThat(run.engine()).isNotNull();
    // A stop asked for before the first slice: nothing runs.
    assertThat(run.runFor(1_000, 300, () -> true))
        .isEqualTo(org.dise.runtime.cpu.StopReason.INTERRUPTED);
    assertThat(run.machine().cpu().instret()).isEqualTo(0);
    // Steps count the program's own instructions, in slices that never pass the limit.
    assertThat(run.runFor(1_000, 300, () -> false))
        .isEqualTo(org.dise.runtime.cpu.StopReason.STEP_LIMIT);
    assertThat(run.applicationInstructions()).isEqualTo(1_000);
    assertThat(run.applicationInstructions() + run.insertedInstructions())
        .isEqualTo(run.machine().cpu().instret());
    // Hot reload to no productions: what was inserted stays inserted, and nothing more is.
    long inserted = run.insertedInstructions();
    assertThat(run.replace(null)).containsExactly("no productions: every counter and sink is gone");
    assertThat(run.engine()).isNull();
    assertThat(run.runFor(Long.MAX_VALUE, 1 << 20, () -> false))
        .isEqualTo(org.dise.runtime.cpu.StopReason.EXITED);
    assertThat(run.insertedInstructions()).isEqualTo(inserted);
    assertThat(guestOut.toString(StandardCharsets.UTF_8)).startsWith("hello from RISC-V\n");
    // A trigger needs productions to turn its codewords into the sampling flag.
    assertThrows(
        IllegalStateException.class,
        () ->
            run.drive(
                org.dise.runtime.trigger.Triggers.create(TriggerSpec.parse("periodic:10"), null)));
  }
}
