package org.dise.repl.shell;

import static com.google.common.truth.Truth.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.dise.runtime.dise.config.ConfigFormat;
import org.dise.runtime.dise.config.DeployableConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The session without a terminal: what golden transcripts do not show well. */
class ReplSessionTest {
  /** The call-pair production the reload tests load, then edit. */
  private static final String CALL_PAIRS =
      "P3: T.OPCLASS == proc_call => R3, null\n" + "R3: call(CallPair_handler, T.INSN); T.INSN;\n";

  @Test
  void anEntryContinuesWhileBracketsAreOpenOrTheParserWantsMore() {
    assertThat(ReplSession.incomplete("P3: T.OPCLASS == proc_call &&\n")).isTrue();
    assertThat(ReplSession.incomplete("P3: (T.OPCLASS == proc_call\n")).isTrue();
    assertThat(ReplSession.incomplete("acf a {\n")).isTrue();
    assertThat(ReplSession.incomplete("P3: T.OPCLASS == proc_call\n")).isTrue(); // no arrow yet
    assertThat(ReplSession.incomplete("P3: T.OPCLASS == proc_call => R3, null\n")).isFalse();
    assertThat(ReplSession.incomplete("R3: call(CallPair_handler, T.INSN); T.INSN;\n")).isFalse();
    // A mistake before the end is reported at once rather than waiting for more lines.
    assertThat(ReplSession.incomplete("P3 T.OPCLASS == proc_call => R3\n")).isFalse();
    // Brackets in comments and strings do not count.
    assertThat(ReplSession.incomplete("import \"a(.acf\"; // (\n")).isFalse();
  }

  @Test
  void theExampleThatHelpPrintsRunsAsShown() {
    ReplSession s = ReplSessions.fresh();
    String help = s.execute(":help");
    String example = help.substring(help.indexOf("Example"), help.indexOf(":help COMMAND"));
    String last = "";
    for (String line : example.split("\n")) {
      if (line.startsWith("  ")) {
        last = s.execute(line.strip());
        assertThat(last).doesNotContain("error");
      }
    }
    // The last line is :profile: the calls the run made, counted by the typed sink.
    assertThat(last).contains("profile calls: ");
    assertThat(help).doesNotContain("Not here yet");
  }

  @Test
  void programSymbolsResolveAgainstTheLoadedProgram() {
    ReplSession s = ReplSessions.fresh();
    assertThat(s.execute(":load examples/acf/array_loads.acf")).doesNotContain("error");
    String run = s.execute(":program examples/programs/bin/arrays") + s.execute(":run");
    assertThat(run).doesNotContain("error");
    String profile = s.execute(":profile");
    assertThat(profile).containsMatch("0x10658\\s+sum_hot\\s+20480");
    assertThat(profile).containsMatch("0x106bc\\s+pick_hot\\s+10000");
    // A program without the symbol: the error names it and the ACF's place.
    String other = s.execute(":program examples/programs/bin/hello");
    assertThat(other).contains(":15:14: error: "); // the line of the loaded text
    assertThat(other).contains("has no symbol `hot_table`");
    assertThat(new ReplSession(ReplSessions.ROOT).execute(":env"))
        .contains("empty environment (the default");
  }

  @Test
  void libListsEachNameOnce() {
    String lib = ReplSessions.fresh().execute(":lib sampling");
    String names = lib.substring(lib.indexOf("names: ") + "names: ".length());
    java.util.List<String> list =
        java.util.List.of(names.substring(0, names.indexOf('\n')).split(", "));
    assertThat(list).contains("check0");
    assertThat(list).containsNoDuplicates();
  }

  @Test
  void promptShowsAContinuedEntryAndCtrlCDiscardsIt() {
    ReplSession s = ReplSessions.fresh();
    assertThat(s.prompt()).isEqualTo(ReplSession.PROMPT);
    assertThat(s.execute("P3: T.OPCLASS == proc_call &&")).isEmpty();
    assertThat(s.prompt()).isEqualTo(ReplSession.MORE);
    assertThat(s.cancelPending()).isEqualTo("(entry discarded)\n");
    assertThat(s.prompt()).isEqualTo(ReplSession.PROMPT);
    assertThat(s.execute(":show")).isEqualTo("(no productions)\n");
  }

  @Test
  void reloadPicksUpAnEditedFileAndKeepsTheOldSetWhenTheEditIsWrong(@TempDir Path dir)
      throws Exception {
    Path acf = dir.resolve("pairs.acf");
    Files.writeString(acf, CALL_PAIRS);
    ReplSession s = ReplSessions.fresh();
    assertThat(s.execute(":load " + acf))
        .isEqualTo("ok: 1 production, 1 replacement sequence, sinks CallPair_handler\n");
    Files.writeString(
        acf,
        "P3: T.OPCLASS == branch => R3, null\n" + "R3: call(Branch_handler, T.INSN); T.INSN;\n");
    assertThat(s.execute(":reload"))
        .isEqualTo("ok: 1 production, 1 replacement sequence, sinks Branch_handler\n");
    Files.writeString(acf, "P3: T.OPCLASS == branch => R4, null\n");
    String out = s.execute(":reload");
    assertThat(out).contains(acf + ":1:28: error: unknown replacement `R4`");
    assertThat(out).endsWith("1 error; the production set is unchanged\n");
    assertThat(s.execute(":tables")).contains("P3: T.OPCLASS == branch -> R3");
    assertThat(s.errors()).isEqualTo(1);
  }

  @Test
  void saveWritesADeployableConfigurationOfTheSession(@TempDir Path dir) throws Exception {
    ReplSession s = ReplSessions.fresh();
    s.execute("R1: call(Branch_handler, T.INSN); T.INSN;");
    s.execute("P1: T.OPCLASS == branch && zero_0 => R1, null");
    Path file = dir.resolve("branches.dcfg");
    assertThat(s.execute(":save " + file))
        .isEqualTo(
            "saved " + file + ": 1 production, 1 replacement sequence, sinks Branch_handler\n");
    DeployableConfig c = ConfigFormat.read(file);
    assertThat(c.productions().productions()).hasSize(1);
    assertThat(c.productions().productions().get(0).name()).isEqualTo("P1");
    assertThat(c.productions().sinks().get(0).name()).isEqualTo("Branch_handler");
  }

  @Test
  void aBreakpointOnAnInstructionTheEngineReplacesStillStops() {
    // Under the hot call pair ACF every call is tagged by the engine; the breakpoint must
    // stop before the call's replacement runs, and continuing must run it exactly once.
    ReplSession s = ReplSessions.fresh();
    assertThat(s.execute(":load examples/acf/hot_call_pairs.acf")).startsWith("ok:");
    s.execute(":program examples/programs/bin/hello");
    assertThat(s.execute(":until main")).startsWith("reached main after ");
    String call = s.execute(":disasm main 12");
    String line =
        call.lines().filter(l -> l.contains("jal") && l.contains("<")).findFirst().orElseThrow();
    String addr = "0x" + line.substring(2).strip().split(":")[0];
    assertThat(s.execute(":break " + addr)).startsWith("breakpoint at " + addr);
    String stop = s.execute(":continue");
    assertThat(stop).startsWith("breakpoint at main+");
    assertThat(stop).contains("=> ");
    String before = s.execute(":profile");
    assertThat(s.execute(":step")).contains("stopped after 1 instructions");
    String after = s.execute(":profile");
    assertThat(handlerCalls(after)).isEqualTo(handlerCalls(before) + 1);
  }

  private static long handlerCalls(String profile) {
    String l =
        profile
            .lines()
            .filter(x -> x.strip().startsWith("handler calls"))
            .findFirst()
            .orElseThrow();
    return Long.parseLong(l.replaceAll("[^0-9]", ""));
  }

  @Test
  void productionsTypedAfterLoadingTheProgramApplyUntilItStarts() {
    ReplSession s = ReplSessions.fresh();
    s.execute(":program examples/programs/bin/hello");
    s.execute("R1: call(Branch_handler, T.INSN); T.INSN;");
    assertThat(s.execute("P1: T.OPCLASS == branch => R1, null")).startsWith("ok: 1 production");
    s.execute(":until main");
    assertThat(s.execute(":profile")).startsWith("profile Branch_handler: ");
    // Once it has started, a change waits for :apply (or the next :run).
    assertThat(s.execute("P2: T.OPCLASS == proc_call => R1, null"))
        .contains(":apply installs these, :run starts it again with them");
    assertThat(s.execute(":profile"))
        .startsWith("(from the productions the program started with)\nprofile Branch_handler: ");
    assertThat(s.execute(":apply")).contains("kept every counter and sink profile");
    assertThat(s.execute(":profile")).startsWith("profile Branch_handler: ");
  }

  @Test
  void setRegisterAndPc() {
    ReplSession s = ReplSessions.fresh();
    s.execute(":program examples/programs/bin/hello");
    assertThat(s.execute(":set reg a0 0x2a")).isEqualTo("a0 = 0x2a\n");
    assertThat(s.execute(":regs")).contains("a0   000000000000002a");
    assertThat(s.execute(":set reg pc main")).startsWith("at main\n=> ");
    assertThat(s.execute(":set reg zero 1")).isEqualTo("error: zero is always 0\n");
    assertThat(s.execute(":set reg q9 1")).startsWith("error: no register named q9");
  }

  @Test
  void ctrlCInterruptsALongRunningGuestAndTheSessionGoesOn() throws Exception {
    ReplSession s = ReplSessions.fresh();
    s.execute(":program examples/programs/bin/chess 4");
    String[] result = new String[1];
    Thread t = new Thread(() -> result[0] = s.execute(":run"));
    t.start();
    while (!s.busy() && t.isAlive()) {
      Thread.onSpinWait();
    }
    s.interrupt(); // what the terminal's SIGINT handler calls
    t.join();
    assertThat(result[0]).containsMatch("(?s)interrupted after [0-9,]+ instructions\nat ");
    assertThat(s.execute(":step 5")).startsWith("stopped after 5 instructions");
    assertThat(s.execute(":regs")).startsWith("pc   ");
  }

  @Test
  void noStackTraceForNonsense() {
    ReplSession s = ReplSessions.fresh();
    for (String line :
        new String[] {
          ":",
          ":mem",
          ":mem zz",
          ":disasm 1 2 3",
          ":set",
          ":break",
          ":delete all",
          ":until",
          ":sample maybe",
          ":profile",
          ":counters",
          ":tables",
          ":save",
          ":program",
          ":program /",
          ":env X",
          ":help nope",
          "'",
          "P:",
          ":load"
        }) {
      String out = s.execute(line);
      assertThat(out).doesNotContain("Exception");
      assertThat(out).doesNotContain("internal error");
    }
  }

  @Test
  void libListsTheStandardLibraryAndLoadTakesAModuleByName() {
    ReplSession s = ReplSessions.fresh();
    String listing = s.execute(":lib");
    assertThat(listing)
        .containsMatch(
            "(?m)^  prelude +The standard library's prelude: every ACF"
                + " imports it implicitly\\.$");
    assertThat(listing).containsMatch("\\d+ modules?; :lib MODULE shows one\n$");
    assertThat(s.execute(":lib prelude"))
        .contains("names: Branch_handler, HotMethod_handler, CallPair_handler\n");
    assertThat(s.execute(":lib nosuch"))
        .isEqualTo("error: no standard library module `nosuch` (:lib lists them)\n");
    assertThat(s.execute(":load nosuch"))
        .isEqualTo(
            "error: cannot read nosuch: no such file or"
                + " standard library module (:lib lists them)\n");
    assertThat(s.errors()).isEqualTo(2);
  }

  @Test
  void stdinFeedsTheGuestAFileAtEveryRun(@TempDir Path dir) throws Exception {
    Path input = dir.resolve("in.txt");
    Files.writeString(input, "alpha\nbeta\n");
    ReplSession s = ReplSessions.fresh();
    assertThat(s.execute(":stdin")).isEqualTo("stdin: empty\n");
    assertThat(s.execute(":stdin " + input))
        .isEqualTo("stdin: " + input + " (from the next :program or :run)\n");
    s.execute(":program repl/src/test/c/bin/lines");
    String first = s.execute(":run");
    assertThat(first).startsWith("got: alpha\ngot: beta\n2 lines\n");
    // Each run reads the file from its start again.
    assertThat(s.execute(":run")).isEqualTo(first);
    s.execute(":stdin none");
    assertThat(s.execute(":run")).startsWith("0 lines\n");
    assertThat(s.execute(":stdin " + dir.resolve("missing")))
        .isEqualTo(
            "error: " + dir.resolve("missing") + ": cannot read: no such file or directory\n");
  }

  @Test
  void triggerRunsThePhaseTrackerAndPhasesShowsItsTable() {
    ReplSession s = ReplSessions.fresh();
    s.execute(":load examples/acf/sampled_regions.acf");
    assertThat(s.execute(":trigger"))
        .isEqualTo("no trigger: the sampling flag is what the productions make it\n");
    assertThat(s.execute(":trigger phase interval=2M threshold=15"))
        .isEqualTo("trigger phase:third, interval 2,000,000\n");
    s.execute(":program examples/programs/bin/phases 4");
    // Stop inside the run: the tracker has classified some intervals and is in the middle of one.
    assertThat(s.execute(":step 20000000")).startsWith("stopped after 20,000,0");
    String during = s.execute(":phases");
    assertThat(during).containsMatch("interval 2,000,000: \\d+ intervals done; interval \\d+ is");
    assertThat(during).contains("phase table (");
    assertThat(s.execute(":continue")).contains("program exited with status 0");
    String after = s.execute(":phases");
    // The schedule AABBACCADDBA has four kernels: four phases, each sampled once it recurs.
    assertThat(after).contains("the run ended after 24 intervals");
    assertThat(after).contains("phase tracker: 4 phases");
    assertThat(after).contains("phase table (4 of 20 entries):");
    assertThat(after).doesNotContainMatch("(?m)^ +\\d+  no ");
    assertThat(s.execute(":trigger set threshold=bogus")).startsWith("error: trigger:");
    assertThat(s.execute(":trigger phase:centroid")).contains("needs a first pass");
    assertThat(s.execute(":trigger none")).isEqualTo("no trigger (from the next :run)\n");
    s.execute(":run");
    assertThat(s.execute(":phases")).startsWith("error: no trigger is running");
  }

  @Test
  void editRunsTheEditorAndTheEditedItemReplacesTheOld() {
    ReplSession s = ReplSessions.fresh();
    s.execute("R3: call(CallPair_handler, T.INSN); T.INSN;");
    s.execute("P3: T.OPCLASS == proc_call => R3, null");
    s.editor("sed -i -e s/null/inc_1/");
    String out = s.execute(":edit P3");
    assertThat(out).contains("replaced P3");
    assertThat(s.execute(":show")).contains("P3: T.OPCLASS == proc_call => R3, inc_1");
    assertThat(s.execute(":show")).doesNotContain("R3, null");
    assertThat(s.execute(":undo")).contains("undone");
    assertThat(s.execute(":show")).contains("P3: T.OPCLASS == proc_call => R3, null");
    // An editor that fails changes nothing.
    s.editor("false");
    assertThat(s.execute(":edit P3")).contains("exited with status 1; nothing changed");
    // Without an editor the item becomes the next line to edit, once.
    s.editor(null);
    assertThat(s.execute(":edit R3")).contains("R3: call(CallPair_handler, T.INSN); T.INSN;");
    assertThat(s.takeEditBuffer()).isEqualTo("R3: call(CallPair_handler, T.INSN); T.INSN;");
    assertThat(s.takeEditBuffer()).isNull();
    assertThat(s.execute(":edit P9")).contains("no production or declaration named P9");
  }

  @Test
  void everyLibraryModuleLoads() {
    for (String module : org.dise.compiler.lib.StandardLibrary.moduleNames()) {
      ReplSession s = ReplSessions.fresh();
      String out = s.execute(":load " + module);
      assertThat(out).doesNotContain("error");
      assertThat(out).contains("imported library module " + module);
    }
  }

  @Test
  void reloadOfAnEditedFileIsAHotReloadOfThePausedProgram(@TempDir Path dir) throws Exception {
    Path acf = dir.resolve("pairs.acf");
    Files.writeString(acf, CALL_PAIRS);
    ReplSession s = ReplSessions.fresh();
    assertThat(s.execute(":load " + acf)).startsWith("ok: 1 production");
    s.execute(":program examples/programs/bin/hello");
    s.execute(":break main");
    assertThat(s.execute(":run")).contains("breakpoint at main");
    Files.writeString(acf, CALL_PAIRS + "P4: T.OPCLASS == return => null, inc_1\n");
    String reload = s.execute(":reload");
    assertThat(reload).contains("ok: 2 productions");
    assertThat(reload).contains("applied at main: 2 productions");
    assertThat(reload).contains("kept every counter and sink profile");
    s.execute(":delete all");
    assertThat(s.execute(":continue")).contains("program exited with status 0");
    // Counter 1 counted the returns after main began, under the reloaded productions.
    assertThat(s.execute(":counters")).containsMatch("counter 1: [1-9]");
    assertThat(s.execute(":profile")).contains("profile CallPair_handler: ");
  }

  @Test
  void timingMeasuresWhatRanAndLeavesTheProfileAlone() {
    ReplSession plain =
        ReplSessions.loaded("examples/acf/hot_call_pairs.acf", "examples/programs/bin/arrays");
    assertThat(plain.execute(":timing")).startsWith("timing is off");
    String plainRun = plain.execute(":run");
    assertThat(plainRun).doesNotContain("timing ");
    String plainProfile = plain.execute(":profile");

    ReplSession s =
        ReplSessions.loaded("examples/acf/hot_call_pairs.acf", "examples/programs/bin/arrays");
    assertThat(s.execute(":timing ooo"))
        .isEqualTo("timing ooo (now: the program has not started)\n");
    String run = s.execute(":run");
    assertThat(run).containsMatch("timing ooo: [0-9,]+ cycles, CPI [0-9.]+; MPKI L1I [0-9.]+, L1D");
    assertThat(run).contains("overhead ");
    // The figures of what ran; the profile is the same as without a model.
    String shown = s.execute(":timing");
    assertThat(shown).contains("cycles, application alone");
    assertThat(shown).contains("branch");
    assertThat(s.execute(":profile")).isEqualTo(plainProfile);
    // inorder with a parameter, from the next :run; the energy line is inorder's.
    assertThat(s.execute(":timing inorder l1d.size=16384"))
        .isEqualTo("timing inorder (from the next :run)\n");
    s.execute(":run");
    assertThat(s.execute(":timing")).contains("energy (StrongARM");
    assertThat(s.execute(":timing off")).isEqualTo("timing off (from the next :run)\n");
    assertThat(s.execute(":run")).doesNotContain("timing ");
    // Bad models and parameters are refused with the reason.
    assertThat(s.execute(":timing fast")).contains("error: :timing: unknown timing model `fast`");
    assertThat(s.execute(":timing ooo l1d.size=3000")).contains("error: :timing: l1d");
    assertThat(s.execute(":timing ooo bogus=1")).contains("unknown timing parameter `bogus`");
  }
}
