package org.dise.testsupport;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * One line per module at the end of its tests, and a line per skipped test with its reason, on the
 * test JVM's own standard error. That stream bypasses surefire's redirection of {@code System.err}
 * to the report files and reaches the console even under {@code mvn -q}, so a quiet build still
 * says what ran and what was skipped and why (registered through {@code META-INF/services}, on
 * every module's test class path with this module).
 */
public final class TestSummary implements TestExecutionListener {
  private int passed;
  private int failed;
  private int aborted;
  private int disabled;
  private final List<String> skipped = new ArrayList<>();
  private long start;

  @Override
  public void testPlanExecutionStarted(TestPlan plan) {
    start = System.nanoTime();
  }

  @Override
  public void executionSkipped(TestIdentifier test, String reason) {
    disabled++;
    skipped.add(test.getDisplayName() + ": " + reason);
  }

  @Override
  public void executionFinished(TestIdentifier test, TestExecutionResult result) {
    if (result.getStatus() == TestExecutionResult.Status.ABORTED) {
      // An assumption that failed: a test that skips itself (qemu or chromium absent, say).
      aborted++;
      String why = result.getThrowable().map(Throwable::getMessage).orElse("aborted");
      skipped.add(test.getDisplayName() + ": " + firstLine(why));
      return;
    }
    if (!test.isTest()) {
      return;
    }
    if (result.getStatus() == TestExecutionResult.Status.SUCCESSFUL) {
      passed++;
    } else {
      failed++;
    }
  }

  @Override
  public void testPlanExecutionFinished(TestPlan plan) {
    if (passed + failed + aborted + disabled == 0 || System.getenv("JAZZER_FUZZ") != null) {
      return;
    }
    PrintStream err =
        new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
    long seconds = Math.round((System.nanoTime() - start) / 1e9);
    err.printf(
        "%s: %d tests passed%s%s (%d s)%n",
        module(),
        passed,
        failed > 0 ? ", " + failed + " failed" : "",
        skipped.isEmpty() ? "" : ", " + skipped.size() + " skipped",
        seconds);
    for (String s : skipped) {
      err.println("  skipped " + s);
    }
  }

  private static String module() {
    Path here = Path.of("").toAbsolutePath();
    try {
      Path rel = RepositoryRoot.path().relativize(here);
      return rel.toString().isEmpty() ? here.getFileName().toString() : rel.toString();
    } catch (IllegalStateException e) {
      return here.getFileName().toString();
    }
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "aborted";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
