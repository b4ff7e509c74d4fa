package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.dise.runtime.cpu.CompiledBlocks;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

  /**
   * The options reach java as written, never expanded as file name patterns where a file matches
   * them (the units' CompileCommand holds a `*`, and so may ACF_JAVA_OPTS): ./acf, on a copy in a
   * small tree with a current jar and a stand-in java that prints its arguments, and bin/acf's
   * {@code acf_java_opts}.
   */
  @Test
  void optionsAreNeverExpandedAsFileNames(@TempDir Path root) throws Exception {
    Files.copy(RepositoryRoot.resolve("acf"), root.resolve("acf"));
    Instant old = Instant.now().minusSeconds(200);
    Files.writeString(root.resolve("pom.xml"), "x\n");
    Files.setLastModifiedTime(root.resolve("pom.xml"), FileTime.from(old));
    Files.createDirectories(root.resolve("repl/target"));
    Files.writeString(root.resolve("repl/target/acf.jar"), "x\n");
    Path java = root.resolve("fake-java");
    Files.writeString(java, "#!/bin/bash\nprintf '%s\\n' \"$@\"\n");
    java.toFile().setExecutable(true);
    // Files each pattern would match, from the folder the launchers run in.
    Path cwd = Files.createDirectories(root.resolve("work"));
    String unit = UNIT_SCALING.replace("TranslatedUnit*.*", "TranslatedUnitX.y");
    Path match = cwd.resolve(unit);
    Files.createDirectories(match.getParent());
    Files.writeString(match, "");
    Files.writeString(cwd.resolve("-Dacf.glob=matched"), "");

    ProcessBuilder pb = new ProcessBuilder("bash", root.resolve("acf").toString(), "--version");
    pb.directory(cwd.toFile());
    pb.environment().remove("ACF_JAVA_OPTS");
    pb.environment().remove("ACF_LAUNCHER");
    pb.environment().put("ACF_JAVA", java.toString());
    pb.environment().put("ACF_CDS", "off");
    assertThat(run(pb).lines().toList()).contains(UNIT_SCALING);
    pb.environment().put("ACF_JAVA_OPTS", "-Dacf.glob=* -Xss8m");
    assertThat(run(pb).lines().toList()).containsAtLeast("-Dacf.glob=*", "-Xss8m").inOrder();

    String script =
        ". '"
            + RepositoryRoot.resolve("distribution/src/lib/cds.sh")
            + "'; acf_java_opts; printf '%s\\n' \"${java_words[@]}\"";
    ProcessBuilder installed = new ProcessBuilder("bash", "-c", script).directory(cwd.toFile());
    installed.environment().remove("ACF_JAVA_OPTS");
    assertThat(run(installed).lines().toList()).contains(UNIT_SCALING);
    installed.environment().put("ACF_JAVA_OPTS", "-Dacf.glob=*");
    assertThat(run(installed).lines().toList()).containsExactly("-Dacf.glob=*");
  }
}
