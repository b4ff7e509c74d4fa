package org.dise.repl;

import java.io.PrintStream;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.dise.runtime.linux.GuestFd;

/**
 * A progress line on a terminal's stderr for long runs: instructions executed, the current MIPS,
 * elapsed time and, when a phase tracker runs, the current phase; when the end is known ({@code
 * --max-insns}), the share done and an estimate of the time left. It appears only after the run has
 * taken {@link #DELAY_MS}, is redrawn in place, and is erased before the guest writes to the
 * terminal and when the run ends, so it never mixes with the guest's output or the report.
 */
public final class Progress implements AutoCloseable {
  /** Runs shorter than this show nothing. */
  static final long DELAY_MS = 2000;

  private static final long TICK_MS = 500;

  private final PrintStream err;
  private final LongSupplier instructions;
  private final long total;
  private final Supplier<String> detail;
  private final Thread thread;
  private final long start = System.nanoTime();
  private volatile boolean done;
  private boolean shown; // guarded by this

  private Progress(
      PrintStream err, LongSupplier instructions, long total, Supplier<String> detail) {
    this.err = err;
    this.instructions = instructions;
    this.total = total;
    this.detail = detail;
    this.thread = new Thread(this::loop, "acf-progress");
    this.thread.setDaemon(true);
  }

  /**
   * Starts a progress line when {@code enabled} (the caller decides: stderr is a terminal and the
   * user did not turn it off); otherwise returns an inert instance.
   */
  public static Progress start(
      boolean enabled, PrintStream err, LongSupplier instructions, Supplier<String> detail) {
    return start(enabled, err, instructions, -1, detail);
  }

  /**
   * As {@link #start(boolean, PrintStream, LongSupplier, Supplier)}, with the number of
   * instructions at which the run stops ({@code --max-insns}), or -1 when it is not known.
   */
  public static Progress start(
      boolean enabled,
      PrintStream err,
      LongSupplier instructions,
      long total,
      Supplier<String> detail) {
    Progress p = new Progress(err, instructions, total, detail);
    if (enabled && !org.dise.repl.common.Verbosity.quiet()) {
      GuestFd.beforeHostWrite = p::erase;
      p.thread.start();
    }
    return p;
  }

  private void loop() {
    long lastInsns = 0;
    long lastTime = System.nanoTime();
    try {
      Thread.sleep(DELAY_MS);
      while (!done) {
        long now = System.nanoTime();
        long n = instructions.getAsLong();
        double mips = (n - lastInsns) / ((now - lastTime) / 1e3);
        lastInsns = n;
        lastTime = now;
        String extra = detail == null ? null : detail.get();
        draw(line(n, total, mips, (now - start) / 1e9, extra));
        Thread.sleep(TICK_MS);
      }
    } catch (InterruptedException e) {
      // closing
    }
  }

  /**
   * The line: {@code acf: 1,234 instructions, 80 MIPS, 2.5 s}, or with a known end {@code acf:
   * 250,000,000 of 1,000,000,000 instructions (25%), 80 MIPS, 3.1 s, about 9 s left} (the time left
   * from the average rate so far, which a phase change can make wrong; hence "about").
   */
  static String line(long n, long total, double mips, double seconds, String extra) {
    StringBuilder sb = new StringBuilder("acf: ");
    if (total > 0) {
      long done = Math.min(n, total);
      sb.append(String.format("%,d of %,d instructions (%d%%)", n, total, done * 100 / total));
    } else {
      sb.append(String.format("%,d instructions", n));
    }
    sb.append(String.format(", %.0f MIPS, %.1f s", Math.max(0, mips), seconds));
    if (total > 0 && n > 0 && n < total && seconds > 0) {
      double left = (total - n) / (n / seconds);
      sb.append(
          left < 60
              ? String.format(", about %d s left", Math.round(left))
              : String.format(", about %d min %02d s left", (long) left / 60, (long) left % 60));
    }
    if (extra != null) {
      sb.append(", ").append(extra);
    }
    return sb.toString();
  }

  private synchronized void draw(String line) {
    if (done) {
      return;
    }
    err.print("\r\u001b[K" + line);
    err.flush();
    shown = true;
  }

  /** Erases the line (it is drawn again at the next tick). */
  synchronized void erase() {
    if (shown) {
      err.print("\r\u001b[K");
      err.flush();
      shown = false;
    }
  }

  @Override
  public void close() {
    done = true;
    if (thread.isAlive()) {
      thread.interrupt();
      try {
        thread.join(1000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    GuestFd.beforeHostWrite = null;
    erase();
  }
}
