package org.dise.testsupport;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
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
}
