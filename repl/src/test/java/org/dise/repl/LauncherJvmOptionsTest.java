package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.dise.runtime.cpu.CompiledBlocks;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.api.Test;

/**
 * The JVM options the launchers give a run (./acf, and bin/acf through
 * distribution/src/lib/cds.sh): among them a CompileCommand that has C1 compile every translated
 * unit at its first call, which names the units' class; a rename of that class would silently leave
 * new units in HotSpot's bytecode interpreter again (spec/emulator.md, "The JVM the launchers
 * start").
 */
class LauncherJvmOptionsTest {
  private static final String UNIT_SCALING =
      "-XX:CompileCommand=CompileThresholdScaling,"
          + CompiledBlocks.UNIT_CLASS_NAME.replace('.', '/')
          + "*.*,0.001";

  /** What {@code ACF_LAUNCHER=java-options ./acf} prints, with {@code env} added. */
  private static List<String> launcherOptions(Map<String, String> env) throws Exception {
    ProcessBuilder pb = new ProcessBuilder("bash", RepositoryRoot.resolve("acf").toString());
    pb.environment().remove("ACF_JAVA_OPTS");
    pb.environment().putAll(env);
    pb.environment().put("ACF_LAUNCHER", "java-options");
    return split(run(pb));
  }

  private static String run(ProcessBuilder pb) throws Exception {
    pb.redirectErrorStream(true);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).isEqualTo(0);
    return out;
  }

  private static List<String> split(String out) {
    return new ArrayList<>(Arrays.asList(out.trim().split("\\s+")));
  }

  @Test
  void theLauncherCompilesUnitsAtTheirFirstCallQuietly() throws Exception {
    List<String> opts = launcherOptions(Map.of());
    assertThat(opts).contains(UNIT_SCALING);
    // Without "quiet" the JVM prints the command on stdout, before the guest's own output.
    assertThat(opts.indexOf("-XX:CompileCommand=quiet")).isLessThan(opts.indexOf(UNIT_SCALING));
    assertThat(opts).containsAtLeast("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
  }

  @Test
  void acfJavaOptsReplacesTheOptions() throws Exception {
    assertThat(launcherOptions(Map.of("ACF_JAVA_OPTS", "-Xss8m -XX:+UseG1GC")))
        .containsExactly("-Xss8m", "-XX:+UseG1GC")
        .inOrder();
  }

  @Test
  void theInstalledLauncherAndTheBenchGiveTheSameOptions() throws Exception {
    String script =
        ". '"
            + RepositoryRoot.resolve("distribution/src/lib/cds.sh")
            + "'; acf_java_opts; printf '%s\\n' \"$java_opts\"";
    assertThat(split(run(new ProcessBuilder("bash", "-c", script))))
        .containsExactlyElementsIn(launcherOptions(Map.of()))
        .inOrder();
    // acf bench --cold's java -jar fallback: the same, less the huge pages the kernel may not
    // offer.
    List<String> noHugePages = launcherOptions(Map.of());
    noHugePages.remove("-XX:+UseTransparentHugePages");
    assertThat(ColdBench.JVM_OPTIONS).containsExactlyElementsIn(noHugePages).inOrder();
  }

  /**
   * The option reaches HotSpot and matches the units' hidden classes: a short program whose units
   * are each called too few times for HotSpot's own thresholds has them compiled by C1 only with
   * it.
   */
  @Test
  void unitsOfAShortRunAreCompiledOnlyWithTheOption() throws Exception {
    List<String> with = launcherOptions(Map.of());
    with.remove("-XX:+UseTransparentHugePages");
    List<String> without = new ArrayList<>(with);
    without.remove(UNIT_SCALING);
    assertThat(compiledUnits(without)).isEqualTo(0);
    assertThat(compiledUnits(with)).isAtLeast(1);
  }

  /** The number of unit methods PrintCompilation lists in a run of the arrays example. */
  private static long compiledUnits(List<String> jvmOptions) throws Exception {
    List<String> opts = new ArrayList<>(jvmOptions);
    opts.add("-XX:+PrintCompilation");
    String program = RepositoryRoot.resolve("examples/programs/bin/arrays").toString();
    ProcessBuilder pb = new ProcessBuilder(AcfJvm.command(opts, "run", program));
    pb.redirectError(ProcessBuilder.Redirect.DISCARD);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).isEqualTo(0);
    String unit = CompiledBlocks.UNIT_CLASS_NAME + "/";
    return out.lines().filter(l -> l.contains(unit) && l.contains("::run")).count();
  }
}
