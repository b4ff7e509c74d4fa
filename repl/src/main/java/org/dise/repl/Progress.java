package org.dise.repl;

import java.io.PrintStream;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.dise.runtime.linux.GuestFd;

/**
 * A progress line on a terminal's stderr for long runs: instructions executed, the current MIPS,
 * elapsed time and, when a phase tracker runs, the current phase. It appears only after the run has
 * taken {@link #DELAY_MS}, is redrawn in place, and is erased before the guest writes to the
 * terminal and when the run ends, so it never mixes with the guest's output or the report.
 */
public final class Progress implements AutoCloseable {
  /** Runs shorter than this show nothing. */
  static final long DELAY_MS = 2000;

  private static final long TICK_MS = 500;

  private final PrintStream err;
  private final LongSupplier instructions;
  private final Supplier<String> detail;
  private final Thread thread;
  private final long start = System.nanoTime();
  private volatile boolean done;
  private boolean shown; // guarded by this

  private Progress(PrintStream err, LongSupplier instructions, Supplier<String> detail) {
    this.err = err;
    this.instructions = instructions;
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
    Progress p = new Progress(err, instructions, detail);
    if (enabled) {
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
        draw(
            String.format(
                "acf: %,d instructions, %.0f MIPS, %.1f s%s",
                n, Math.max(0, mips), (now - start) / 1e9, extra == null ? "" : ", " + extra));
        Thread.sleep(TICK_MS);
      }
    } catch (InterruptedException e) {
      // closing
    }
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
