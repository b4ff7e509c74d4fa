package org.dise.testsupport;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/**
 * What an in-process command printed: its status and everything it wrote to {@code System.out} and
 * {@code System.err} (UTF-8), captured while it ran; the streams are restored afterwards.
 */
public record Captured(int status, String stdout, String stderr) {
  /** Runs {@code command} (which returns an exit status) with both streams captured. */
  public static Captured run(IntSupplier command) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream oldOut = System.out;
    PrintStream oldErr = System.err;
    int status;
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      status = command.getAsInt();
    } finally {
      System.setOut(oldOut);
      System.setErr(oldErr);
    }
    return new Captured(
        status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  /**
   * Runs {@code command} as a process in {@code directory}, its stdin empty, and captures its
   * status and both streams (through files, so that neither pipe can fill and stall it); a process
   * still running after {@code seconds} is killed and fails the test.
   */
  public static Captured process(List<String> command, Path directory, long seconds)
      throws IOException, InterruptedException {
    Path out = Files.createTempFile("captured", ".out");
    Path err = Files.createTempFile("captured", ".err");
    try {
      Process p =
          new ProcessBuilder(command)
              .directory(directory.toFile())
              .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
              .redirectOutput(out.toFile())
              .redirectError(err.toFile())
              .start();
      if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError(command + " did not finish in " + seconds + " s");
      }
      return new Captured(
          p.exitValue(),
          Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }
}
