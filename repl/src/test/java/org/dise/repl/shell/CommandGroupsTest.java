package org.dise.repl.shell;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.dise.repl.common.UserError;
import org.dise.runtime.trigger.TriggerSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The REPL's command groups, each alone over a {@link Workspace} and a {@link Debuggee} of its own
 * (no session, no dispatcher), and the hot reload of a program driven by a trigger.
 */
class CommandGroupsTest {
  private static final Path ROOT = ReplTranscriptTest.ROOT;
  private static final String HELLO = "examples/programs/bin/hello";

  private final StringBuilder out = new StringBuilder();
  private final Workspace workspace = new Workspace(ROOT);
  private final Debuggee program = new Debuggee(ROOT, workspace, out);
  private final CommandTable table = new CommandTable();

  private String run(String line) {
    out.setLength(0);
    table.run(line);
    program.flushGuest();
    return out.toString();
  }

  private void type(String entry) {
    Workspace.Outcome o = workspace.type(entry);
    assertThat(o.ok()).isTrue();
  }

  @Test
  void productionCommandsEditTheWorkspace(@TempDir Path dir) {
    int[] failures = {0};
    new ProductionCommands(workspace, program, out, () -> failures[0]++).register(table);
    assertThat(run("load sampling")).contains("imported library module sampling");
    ProductionCommands p = new ProductionCommands(workspace, program, out, () -> failures[0]++);
    p.submit("P9: T.OPCLASS == nosuch => null, null\n");
    assertThat(failures[0]).isEqualTo(1);
    assertThat(run("show")).contains("import sampling;");
    run("undo");
    assertThat(run("show")).isEqualTo("(no productions)\n");
    ReplError e = assertThrows(ReplError.class, () -> run("save x.dcfg"));
    assertThat(e).hasMessageThat().contains("no productions yet");
    type("R1: call(Branch_handler, T.INSN); T.INSN;\nP1: T.OPCLASS == branch => R1, null\n");
    UserError w = assertThrows(UserError.class, () -> run("save " + dir.resolve("missing/x.dcfg")));
    assertThat(w).hasMessageThat().endsWith("cannot write: no such file or directory");
    assertThat(run("save " + dir.resolve("x.dcfg"))).contains("1 production");
    assertThat(Files.exists(dir.resolve("x.dcfg"))).isTrue();
  }

  @Test
  void programCommandsStartTheGuestWithTheSharedSettings() {
    new ProgramCommands(program, out).register(table);
    run("env clear");
    run("env LANG=C");
    assertThat(program.guest.env()).containsExactly("LANG=C");
    UserError e = assertThrows(UserError.class, () -> run("env A=1 HOME"));
    assertThat(e).hasMessageThat().isEqualTo(":env HOME: expected NAME=VALUE");
    assertThat(program.guest.env()).containsExactly("LANG=C"); // all or nothing
    run("limit nofile=16");
    run("allow read examples/acf");
    assertThat(run("program " + HELLO + " a")).contains("loaded " + HELLO);
    org.dise.runtime.linux.Sandbox sandbox = program.guest.options(ROOT, System.err).sandbox();
    assertThat(sandbox.limits().nofile()).isEqualTo(16);
    assertThat(sandbox.mayRead(ROOT.resolve("examples/acf/hot_call_pairs.acf"))).isTrue();
    assertThat(run("run")).contains("argc=2");
    assertThat(run("run")).contains("program exited with status 0 after ");
    ReplError r = assertThrows(ReplError.class, () -> run("continue"));
    assertThat(r).hasMessageThat().contains("has exited; :run starts it again");
  }

  @Test
  void breakpointCommandsStopOnASinksCount() {
    new ProgramCommands(program, out).register(table);
    new BreakpointCommands(program, out).register(table);
    type(
        "R3: call(CallPair_handler, T.INSN); T.INSN;\n"
            + "P3: T.OPCLASS == proc_call => R3, null\n");
    run("env clear");
    run("program " + HELLO);
    assertThat(run("break when sink CallPair_handler count >= 10"))
        .contains("(stops when it becomes true)");
    assertThat(run("continue")).contains("stopped: sink CallPair_handler count >= 10");
    assertThat(program.engine().calls(0)).isEqualTo(10);
    assertThat(run("break when sink CallPair_handler count == 12")).contains("when 2");
    assertThat(run("continue")).contains("stopped: sink CallPair_handler count == 12");
    // One entry of the profile: the calls into puts (a function name in the entry's row).
    assertThat(run("break when sink CallPair_handler[puts] >= 1")).contains("when 3");
    assertThat(run("continue")).contains("stopped: sink CallPair_handler[puts] >= 1");
    assertThat(
            BreakCondition.keyWeight(
                program.engine().sinks().get(0).table(program.machine().symbols()), "puts"))
        .isEqualTo(1);
    ReplError e = assertThrows(ReplError.class, () -> run("break when sink calls count > 1"));
    assertThat(e).hasMessageThat().contains("no sink named calls in the running set");
  }

  @Test
  void outputCommandsWriteWhatAcfRunWrites(@TempDir Path dir) throws Exception {
    new ProgramCommands(program, out).register(table);
    new OutputCommands(program, workspace, out).register(table);
    type("R1: call(Branch_handler, T.INSN); T.INSN;\nP1: T.OPCLASS == branch => R1, null\n");
    run("program " + HELLO);
    run("run");
    assertThat(run("profile")).contains("profile Branch_handler");
    Path d = dir.resolve("prof");
    assertThat(run("out " + d)).contains("wrote 1 profile and summary.json");
    assertThat(Files.readString(d.resolve("summary.json"))).contains("\"exit_status\": 0");
    assertThat(run("out " + d)).contains("wrote 1 profile"); // an earlier run's folder
    Files.writeString(dir.resolve("other.txt"), "x");
    UserError e = assertThrows(UserError.class, () -> run("out " + dir));
    assertThat(e).hasMessageThat().contains(":out " + dir + ": the directory holds files");
    assertThat(e).hasMessageThat().endsWith("nothing was written");
  }

  /**
   * {@code :apply} under a trigger: the trigger keeps its intervals and its decision, and the
   * interval's codeword goes in again, so a sampling flag that the new set moved to another counter
   * agrees with the trigger (spec/engine.md).
   */
  @Test
  void applyUnderATriggerKeepsItsIntervalsAndResetsTheFlagFromIt() {
    type("import sampling;\nuse external_trigger;\n");
    type(
        "R1: call(Branch_handler, T.INSN); T.INSN;\n"
            + "P1: T.OPCLASS == branch && zero_0 => R1, null\n");
    program.triggerSet = TriggerSpec.parse("periodic:2").with("interval", "2000");
    program.guest.env(List.of());
    program.load(HELLO, List.of());
    program.resume(3000, -1); // interval 1: not sampled
    assertThat(program.driver().intervals()).isEqualTo(1);
    assertThat(program.driver().sampling()).isFalse();
    assertThat(program.engine().hps().value(0)).isEqualTo(1);
    long branches = program.engine().calls(0);

    // The flag moves to counter 2, whose initial value 0 would mean "sampling".
    type("use external_trigger(flag = 2);\n");
    type("P1: T.OPCLASS == branch && zero_2 => R1, null\n");
    out.setLength(0);
    program.apply();
    assertThat(out.toString()).contains("the trigger goes on in interval 1 (not sampled)");
    program.resume(1, -1);
    assertThat(program.engine().hps().value(2)).isEqualTo(1); // off_trig_inst set it
    assertThat(program.driver().intervals()).isEqualTo(1);
    assertThat(program.engine().calls(0)).isEqualTo(branches); // kept, and not sampling

    program.resume(Long.MAX_VALUE, -1);
    assertThat(program.machine().cpu().halted()).isTrue();
    // Intervals of 2,000 application instructions all along, every other one sampled, as
    // without :apply.
    long app = program.machine().cpu().instret() - program.engine().cost().insertedInstructions();
    long intervals = (app + 1999) / 2000;
    assertThat(program.driver().intervals()).isEqualTo(intervals);
    assertThat(program.driver().sampledIntervals()).isEqualTo((intervals + 1) / 2);
    for (long i = 0; i < intervals - 1; i++) {
      assertThat(program.driver().length(i)).isEqualTo(2000);
    }
    assertThat(program.engine().calls(0)).isGreaterThan(branches);
  }
}
