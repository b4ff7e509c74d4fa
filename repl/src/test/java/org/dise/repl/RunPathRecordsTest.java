package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The classes a profiling run uses compare and hash their records with code of their own: a
 * record's generated equals, hashCode and toString are bootstrapped through method handles on first
 * use (15-20 ms of a fresh run for the first record class) and then run as a method-handle chain,
 * which made the sinks keyed by records (basic block vectors, hot paths) 16-18% slower per event
 * under C1 (docs/benchmarks.md). A fresh JVM runs the example ACFs that key maps by records,
 * composed, and its log of invokedynamic bootstraps names no record method of the runtime.
 */
class RunPathRecordsTest {
  static final Path ROOT = RepositoryRoot.path();

  private static final Pattern RECORD_BOOTSTRAP =
      Pattern.compile(
          "Bootstrap in (org/dise/runtime/\\S+) indy#\\d+@CP\\[\\d+\\] (equals|hashCode|toString):\\(");

  @Test
  void aProfilingRunBootstrapsNoRecordMethods(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("indy.log");
    List<String> cmd = new ArrayList<>();
    cmd.add(AcfJvm.java());
    cmd.add("-Xss16m");
    cmd.add("-Xlog:methodhandles+indy=debug:file=" + log);
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(Main.class.getName());
    cmd.add("run");
    for (String acf :
        List.of(
            "hot_call_pairs",
            "hot_code_regions",
            "hot_methods",
            "basic_block_vectors",
            "hot_paths",
            "load_strides")) {
      cmd.add("--acf");
      cmd.add(ROOT.resolve("examples/acf/" + acf + ".acf").toString());
    }
    cmd.add(ROOT.resolve("examples/programs/bin/callstack").toString());
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isEqualTo(0);
    assertThat(out).contains("profile ");
    List<String> lines = Files.readAllLines(log);
    // The log names the run's other bootstraps (lambdas), so an empty match is not a silent log.
    assertThat(lines.stream().filter(l -> l.contains("Bootstrap in org/dise/runtime/")).count())
        .isGreaterThan(10L);
    List<String> records = new ArrayList<>();
    for (String line : lines) {
      var m = RECORD_BOOTSTRAP.matcher(line);
      if (m.find()) {
        records.add(m.group(1) + "." + m.group(2));
      }
    }
    assertThat(records).isEmpty();
  }
}
