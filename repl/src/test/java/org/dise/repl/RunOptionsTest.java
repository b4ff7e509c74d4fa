package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.dise.repl.common.ExitStatus;
import org.dise.repl.common.RunOptions;
import org.dise.testsupport.Captured;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A run's options are one record with one validation ({@link RunOptions}): every combination that
 * does not go together is refused with the same message and the usage status whichever way the line
 * comes in (Main's fast {@link RunLine}, picocli, the record made directly), before anything is
 * written; the guest's options are refused by {@code acf repl} exactly as by {@code acf run}, and
 * the options {@code acf sweep} and {@code acf bench} share with it by them too.
 */
class RunOptionsTest {
  private static final String ACF = RunLineTest.ACF;
  private static final String HELLO = PlainRunTest.HELLO;

  /** Point runs send nothing to a center. */
  private static final String NO_POINT_REPORTS =
      "--report-to does not combine with --simpoints or --fast-forward: a center merges the"
          + " profiles of whole runs and sampled intervals (spec/remote.md), and a point run's is"
          + " of a part of the program";

  /** Options that do not go together, whatever the productions say, and acf run's message. */
  static Stream<Arguments> refusedBeforeReading() {
    return Stream.of(
        bad("--max-insns 0", "--max-insns must be at least 1 (leave it out for no limit)"),
        bad("--config c.dcfg --acf A", "--config and --acf exclude each other"),
        bad("--out OUT", "--out needs --acf or --config"),
        bad("--clear-env --env-from-host", "--clear-env and --env-from-host exclude each other"),
        bad("--quantum 0", "--quantum must be at least 1"),
        bad("--env FOO", "--env FOO: expected NAME=VALUE"),
        bad("--interval 1M", "--interval needs --acf or --config"),
        bad("--acf A --out OUT --interval 0", "sampling: interval must be at least 1, got 0"),
        bad(
            "--acf A --interval 1X",
            "sampling: --interval must be a whole number (suffix K, M or G allowed), not '1X'"),
        bad(
            "--sampling periodic:10 --shadow-exhaustive",
            "--sampling and --shadow-exhaustive need --acf or --config"),
        bad("--fast-forward 1K", "--fast-forward needs --acf or --config"),
        bad("--acf A --simpoints s.txt", "--simpoints and --weights go together"),
        bad(
            "--acf A --fast-forward 1K --simpoints s.txt --weights w.txt",
            "--fast-forward and --simpoints exclude each other"),
        bad(
            "--acf A --fast-forward 1K --sampling periodic:2",
            "--fast-forward needs no sampling trigger (--sampling, or a trigger declared in the"
                + " ACF): the productions are on exactly where the points say"),
        bad(
            "--acf A --fast-forward 1K --timing ooo",
            "--timing does not combine with --simpoints or --fast-forward yet; --timing-sample"
                + " PERIOD times a run in sampled units (spec/timing.md, \"Sampled timing\")"),
        bad(
            "--acf A --fast-forward 1K --timing-config /no/such/model.cfg",
            "--timing-config needs --timing inorder or ooo"),
        bad(
            "--acf A --simpoints s.txt --weights w.txt --timing-sample 10",
            "--timing-sample needs --timing inorder or ooo"),
        bad(
            "--acf A --simpoints s.txt --weights w.txt --interval 0",
            "sampling: interval must be at least 1, got 0"),
        bad(
            "--acf A --fast-forward 1K --interval 1M",
            "--interval needs a sampling strategy (--sampling, or a trigger declared in the ACF)"),
        bad(
            "--acf A --simpoints s.txt --weights w.txt --interval 1M --threshold 10",
            "--threshold needs a sampling strategy (--sampling, or a trigger declared in the ACF)"),
        bad("--device d1", "--device, --token, --spool and --send need --report-to URL"),
        bad(
            "--acf A --fast-forward 1K --token t",
            "--device, --token, --spool and --send need --report-to URL"),
        bad(
            "--acf A --fast-forward 1K --report-to http://127.0.0.1:1 --device d1",
            NO_POINT_REPORTS),
        bad(
            "--acf A --simpoints s.txt --weights w.txt --report-to http://127.0.0.1:1",
            NO_POINT_REPORTS),
        bad(
            "--report-to http://127.0.0.1:1 --device d1",
            "--report-to needs --acf or --config: a run without productions has no profile to"
                + " send"),
        bad("--acf A --report-to http://127.0.0.1:1", "--report-to needs --device ID"),
        bad(
            "--acf A --report-to http://127.0.0.1:1 --device d1 --buffer-size 10",
            "--buffer-size must be at least 1K"),
        bad("--timing-sample 10", "--timing-sample needs --timing inorder or ooo"));
  }

  /** Combinations only the productions' text shows wrong (here: the ACF declares no trigger). */
  static Stream<Arguments> refusedAgainstTheProductions() {
    return Stream.of(
        bad(
            "--acf A --interval 1M",
            "--interval needs a sampling strategy (--sampling, or a trigger declared in the ACF)"),
        bad(
            "--acf A --report-to http://127.0.0.1:1 --device d1 --send interleaved",
            "--send interleaved needs a sampling trigger (--sampling, or one declared in the ACF):"
                + " parts are sent at interval boundaries"),
        bad(
            "--acf A --sampling periodic:10 --timing ooo",
            "--timing does not combine with sampling yet: time the sampled intervals' production"
                + " set without a trigger"));
  }

  @ParameterizedTest
  @MethodSource("refusedBeforeReading")
  void eachBadCombinationIsOneUsageErrorFromEveryWayIn(String line, String message, @TempDir Path d)
      throws Exception {
    String[] args = line(line, d);
    Captured c = PlainRunTest.assertSame(args); // Main's fast path and picocli agree
    assertWithMessage(line).that(c.status()).isEqualTo(ExitStatus.USAGE);
    assertWithMessage(line).that(c.stderr()).isEqualTo("acf: " + message + "\n");
    assertWithMessage(line).that(c.stdout()).isEmpty();
    // The record refuses it when it is made, before the productions or --out are touched.
    RunCommand parsed = parse(args);
    RuntimeException e = assertThrows(RuntimeException.class, parsed::values, line);
    assertThat(e.getMessage()).isEqualTo(message);
    assertThat(Files.exists(d.resolve("OUT"))).isFalse();
  }

  @ParameterizedTest
  @MethodSource("refusedAgainstTheProductions")
  void aCombinationTheAcfShowsWrongIsRefusedOnceTheAcfIsRead(
      String line, String message, @TempDir Path d) throws Exception {
    String[] args = line(line, d);
    Captured c = PlainRunTest.assertSame(args);
    assertWithMessage(line).that(c.status()).isEqualTo(ExitStatus.USAGE);
    assertWithMessage(line).that(c.stderr()).endsWith("acf: " + message + "\n");
    RunOptions options = parse(args).values(); // the options alone go together
    assertThat(options.session().profiled()).isTrue();
  }

  /** The guest's options that acf repl shares with acf run, each wrong. */
  static Stream<Arguments> guestOptions() {
    return Stream.of(
        bad("--env FOO", "--env FOO: expected NAME=VALUE"),
        bad("--limit nofile=x", null),
        bad("--limit bogus=1", null),
        bad("--on-unsupported ignore", null),
        bad("--sysroot /no/such/sysroot", null));
  }

  @ParameterizedTest
  @MethodSource("guestOptions")
  void theReplRefusesTheGuestsOptionsAsAcfRunDoes(String line, String message) {
    List<String> run = new ArrayList<>(List.of("run"));
    run.addAll(List.of(line.split(" ")));
    run.add(HELLO);
    Captured byRun = PlainRunTest.assertSame(run.toArray(String[]::new));
    List<String> repl = new ArrayList<>(List.of("repl"));
    repl.addAll(List.of(line.split(" ")));
    Captured byRepl = Captured.run(() -> Cli.commandLine().execute(repl.toArray(String[]::new)));
    assertWithMessage(line).that(byRun.status()).isEqualTo(ExitStatus.USAGE);
    assertWithMessage(line).that(byRepl).isEqualTo(byRun);
    if (message != null) {
      assertThat(byRun.stderr()).isEqualTo("acf: " + message + "\n");
    }
  }

  /**
   * Options {@code acf sweep} and {@code acf bench} share with {@code acf run}, each wrong, with
   * acf run's message, whether sweep takes it, and the ways bench takes it (in-process, {@code
   * --cold}: fresh acf run processes, none started when the option is refused).
   */
  static Stream<Arguments> sharedOptions() {
    List<List<String>> both = List.of(List.of(), List.of("--cold"));
    return Stream.of(
        Arguments.of(
            "--sysroot /no/such/sysroot",
            "--sysroot /no/such/sysroot: no such directory",
            true,
            both),
        Arguments.of(
            "--translate-threshold -1", "--translate-threshold must be 0 or more", false, both),
        Arguments.of(
            "--timing bogus",
            "--timing: unknown timing model `bogus` (the models: inorder, ooo, or analytic)",
            true,
            List.of(List.of("--cold"))), // bench's --timing is --cold's
        Arguments.of(
            "--timing-sample 10", "--timing-sample needs --timing inorder or ooo", true, List.of()),
        Arguments.of(
            "--timing-config /no/such/model.cfg",
            "--timing-config needs --timing inorder or ooo",
            true,
            List.of()));
  }

  @ParameterizedTest
  @MethodSource("sharedOptions")
  void sweepAndBenchRefuseTheOptionsTheyShareAsAcfRunDoes(
      String line, String message, boolean sweep, List<List<String>> bench) {
    List<String> words = List.of(line.split(" "));
    Captured byRun = refusedByRun(words, message);
    List<List<String>> others = new ArrayList<>();
    if (sweep) {
      List<String> a = new ArrayList<>(List.of("sweep", "--acf", ACF, "--workload", HELLO));
      a.addAll(words);
      others.add(a);
    }
    for (List<String> mode : bench) {
      List<String> a = new ArrayList<>(List.of("bench", "--no-qemu"));
      a.addAll(mode);
      a.addAll(List.of("--dir", Path.of(HELLO).getParent().toString()));
      a.addAll(words);
      a.add("hello");
      others.add(a);
    }
    for (List<String> a : others) {
      Captured c = Captured.run(() -> Cli.commandLine().execute(a.toArray(String[]::new)));
      assertWithMessage(String.join(" ", a)).that(c).isEqualTo(byRun);
    }
  }

  /**
   * {@code acf sweep --interval} is acf run's sampling interval, refused with its message before
   * the sweep reads its ACF or runs anything (it once ran the first workload's exhaustive pass and
   * then failed with a message of its own).
   */
  @ParameterizedTest
  @ValueSource(strings = {"0", "1X", "-5"})
  void sweepRefusesABadIntervalAsAcfRunDoes(String interval, @TempDir Path d) {
    Captured byRun =
        refusedByRun(
            List.of("--acf", ACF, "--sampling", "periodic:10", "--interval", interval), null);
    assertThat(byRun.stderr()).startsWith("acf: sampling: ");
    Path out = d.resolve("sweep.csv");
    String[] sweep = {
      "sweep", "--acf", ACF, "--workload", HELLO, "--interval", interval, "--out", out.toString()
    };
    Captured c = Captured.run(() -> Cli.commandLine().execute(sweep));
    assertThat(c).isEqualTo(byRun);
    assertThat(Files.exists(d.resolve("sweep.csv.runs"))).isFalse();
  }

  /** The timing options {@code acf experiment} shares with {@code acf run}, each wrong. */
  static Stream<Arguments> experimentTiming() {
    return Stream.of(
        bad(
            "--timing bogus",
            "--timing: unknown timing model `bogus` (the models: inorder, ooo, or analytic)"),
        bad(
            "--timing analytic --timing-config /no/such/model.cfg",
            "--timing-config needs --timing inorder or ooo"),
        bad("--timing ooo --timing-config /no/such/model.cfg", null));
  }

  /**
   * {@code acf experiment} checks its --timing and --timing-config as {@code acf run} does ({@link
   * org.dise.repl.common.RunTiming}), before its --out is made: a file beside the analytic model
   * was once ignored without a word.
   */
  @ParameterizedTest
  @MethodSource("experimentTiming")
  void experimentRefusesTheTimingOptionsAsAcfRunDoes(String line, String message, @TempDir Path d) {
    List<String> words = List.of(line.split(" "));
    Captured byRun = refusedByRun(words, message);
    List<String> a = new ArrayList<>(List.of("experiment", "overhead", "--quick", "--plan"));
    a.addAll(words);
    a.addAll(List.of("--out", d.resolve("OUT").toString()));
    Captured byExperiment = Captured.run(() -> Cli.commandLine().execute(a.toArray(String[]::new)));
    assertWithMessage(line).that(byExperiment).isEqualTo(byRun);
    assertThat(Files.exists(d.resolve("OUT"))).isFalse();
  }

  /**
   * {@code acf run WORDS hello}, the same through the fast path and picocli, refused with the usage
   * status and {@code message} (null: any message).
   */
  private static Captured refusedByRun(List<String> words, String message) {
    List<String> run = new ArrayList<>(List.of("run"));
    run.addAll(words);
    run.add(HELLO);
    Captured byRun = PlainRunTest.assertSame(run.toArray(String[]::new));
    String line = String.join(" ", words);
    assertWithMessage(line).that(byRun.status()).isEqualTo(ExitStatus.USAGE);
    if (message != null) {
      assertWithMessage(line).that(byRun.stderr()).isEqualTo("acf: " + message + "\n");
    }
    return byRun;
  }

  private static Arguments bad(String line, String message) {
    return Arguments.of(line, message);
  }

  /** {@code run LINE HELLO}, with A the test ACF and OUT a folder under {@code d}. */
  private static String[] line(String line, Path d) {
    List<String> args = new ArrayList<>(List.of("run"));
    for (String w : line.split(" ")) {
      args.add(w.equals("A") ? ACF : w.equals("OUT") ? d.resolve("OUT").toString() : w);
    }
    args.add(HELLO);
    return args.toArray(String[]::new);
  }

  /** The run command picocli makes of {@code args} (after {@code run}). */
  private static RunCommand parse(String[] args) {
    picocli.CommandLine cl = Cli.runCommandLine();
    cl.parseArgs(java.util.Arrays.copyOfRange(args, 1, args.length));
    return cl.getCommand();
  }
}
