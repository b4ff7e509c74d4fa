package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dise.repl.common.ExitStatus;
import org.dise.repl.common.RunGuest;
import org.dise.testsupport.Captured;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code acf run} with the common options skips picocli's model ({@link RunLine}); every line it
 * takes must set exactly what picocli would, and every line it does not take goes to picocli.
 */
class RunLineTest {
  static final String HELLO = PlainRunTest.HELLO;
  static final String ACF =
      RepositoryRoot.path().resolve("examples/acf/flag_off_regions.acf").toString();

  /** Lines the fast path takes: compared field by field with picocli's parse. */
  static final List<String> TAKEN =
      List.of(
          "--acf a.acf prog",
          "--acf a.acf --acf b.acf --out o prog x y",
          "--config c.dcfg --engine interpreted --max-insns 5M prog --stats -x",
          "--max-insns=100 --stats --no-progress prog",
          "--progress prog",
          "--no-cache --acf a.acf prog",
          "--seed 7 --translate-threshold 0 prog",
          "--seed 0 --translate-threshold 123456789 prog",
          "--translate-warmup 0 prog",
          "--translate-warmup 5M --translate-threshold 1 prog",
          "--seed 123456789012345678 --no-progress prog",
          "--engine interpreted prog",
          "--on-unsupported enosys prog",
          "--on-unsupported=warn prog",
          "--allow-read d1 --allow-read=d2 --allow-write e --limit nofile=10 --limit as=1G prog",
          "--env A=B --env C= --clear-env prog",
          "--env-from-host prog -",
          "--sampling periodic:10 --interval 1M --threshold 25 --predictor markov --scaling phase"
              + " --shadow-exhaustive --acf a.acf prog",
          "--fast-forward 1K --simpoints s.txt --weights w.txt --acf a.acf --out=o prog",
          "--max-insns 1G --acf a.acf prog --max-insns 2");

  /** Lines left to picocli: help, errors and anything whose reading is not certain. */
  static final List<String> LEFT =
      List.of(
          "--help",
          "-h prog",
          "--version",
          "-V",
          "--stats",
          "--acf a.acf",
          "--max-insns prog",
          "--max-insns 5X prog",
          "--max-insns= prog",
          "--seed 0x10 prog",
          "--seed 010 prog",
          "--seed -1 prog",
          "--seed 99999999999999999999 prog",
          "--seed 1234567890123456789 prog",
          "--seed 1x prog",
          "--translate-threshold 9999999999 prog",
          "--translate-warmup prog",
          "--translate-warmup 2X prog",
          "--engine GENERATED prog",
          "--engine generated prog",
          "--engine fast prog",
          "--on-unsupported ignore prog",
          "--on-unsupported fail --on-unsupported warn prog",
          "--config a --config b prog",
          "--stats --stats prog",
          "--no-cache --no-cache prog",
          "--progress --no-progress prog",
          "--stats=true prog",
          "--out --stats prog",
          "--acf @f prog",
          "@opts",
          "--stats @opts",
          "-- prog",
          "--unknown prog",
          "--acff a.acf prog",
          "--report-to http://127.0.0.1:1 --acf a.acf prog",
          "--stats prog @args.txt",
          "-s prog");

  @Test
  void theCommonOptionsParseAsPicocliParsesThem() throws Exception {
    for (String line : TAKEN) {
      String[] args = args(line);
      RunCommand fast = RunLine.parse(args);
      assertWithMessage(line).that(fast).isNotNull();
      CommandLine cl = Cli.runCommandLine();
      cl.parseArgs(Arrays.copyOfRange(args, 1, args.length));
      RunCommand picocli = cl.getCommand();
      assertWithMessage(line).that(fields(fast)).isEqualTo(fields(picocli));
      assertWithMessage(line).that(fast.typed).isEqualTo(List.of(args));
    }
  }

  @Test
  void aRunWarmsUpOnlyWithTheDefaultThresholdUnlessTold() {
    long dflt = org.dise.runtime.Machine.Options.DEFAULT_TRANSLATE_WARMUP;
    int threshold = org.dise.runtime.Machine.Options.DEFAULT_TRANSLATE_THRESHOLD;
    assertThat(RunGuest.warmup(threshold, -1)).isEqualTo(dflt);
    // threshold 1 asks for every block from the start
    assertThat(RunGuest.warmup(1, -1)).isEqualTo(0L);
    assertThat(RunGuest.warmup(1, 7)).isEqualTo(7L);
    assertThat(RunGuest.warmup(threshold, 0)).isEqualTo(0L);
  }

  @Test
  void everythingElseIsLeftToPicocli() {
    for (String line : LEFT) {
      assertWithMessage(line).that(RunLine.parse(args(line))).isNull();
    }
    assertThat(RunLine.parse(new String[] {"run"})).isNull();
    assertThat(RunLine.parse(new String[] {"check", "a.acf"})).isNull();
    assertThat(RunLine.parse(new String[] {"run", ""})).isNull();
  }

  @Test
  void aRunUnderAnAcfPrintsWhatPicocliParsedPrints() {
    // Output, messages and status, whether the line goes the fast way or through picocli.
    PlainRunTest.assertSame("run", "--acf", ACF, "--max-insns", "20K", HELLO, "a");
    PlainRunTest.assertSame("run", "--acf", ACF, "--no-progress", "/no/such/program");
    PlainRunTest.assertSame("run", "--out", "/tmp/x", HELLO);
    PlainRunTest.assertSame("run", "--config", "/no/such.dcfg", HELLO);
    PlainRunTest.assertSame("run", "--acf", "/no/such.acf", HELLO);
    Captured bad = Captured.run(() -> Main.execute(new String[] {"run", "--seed", "x", HELLO}));
    assertThat(bad.status()).isEqualTo(ExitStatus.USAGE);
    assertThat(bad.stderr()).startsWith("acf: Invalid value for option '--seed': 'x'");
  }

  private static String[] args(String line) {
    List<String> a = new ArrayList<>(List.of("run"));
    a.addAll(List.of(line.split(" ")));
    return a.toArray(String[]::new);
  }

  /** Every option and parameter field of a run command and of its mixin, by name. */
  private static Map<String, Object> fields(RunCommand run) throws Exception {
    Map<String, Object> m = new LinkedHashMap<>();
    collect(run, m, "");
    return m;
  }

  private static void collect(Object o, Map<String, Object> m, String prefix) throws Exception {
    for (Field f : o.getClass().getDeclaredFields()) {
      f.setAccessible(true);
      if (f.isAnnotationPresent(CommandLine.Option.class)
          || f.isAnnotationPresent(CommandLine.Parameters.class)) {
        m.put(prefix + f.getName(), f.get(o));
      } else if (f.isAnnotationPresent(CommandLine.Mixin.class)) {
        collect(f.get(o), m, f.getName() + ".");
      }
    }
  }
}
