package org.dise.repl;

/**
 * Wall and guest-thread CPU time of a run, for --stats. The JDK's management classes are loaded
 * only then: they cost a plain run's start-up about 20 ms (docs/benchmarks.md).
 */
final class RunClock {
  private final java.lang.management.ThreadMXBean threads;
  private final long wall0;
  private final long cpu0;

  RunClock(boolean cpu) {
    threads = cpu ? threadBean() : null;
    wall0 = System.nanoTime();
    cpu0 = cpuNow();
  }

  double seconds;
  double cpuSeconds;

  void stop() {
    // The guest thread's own CPU time: less sensitive to other load than wall time.
    cpuSeconds = (cpuNow() - cpu0) / 1e9;
    seconds = (System.nanoTime() - wall0) / 1e9;
  }

  private long cpuNow() {
    return threads == null ? 0 : threads.getCurrentThreadCpuTime();
  }

  /**
   * The JDK's management classes fail to initialise (InvalidPathException) when the working
   * directory's name is not in the locale's charset; the run goes on without CPU time.
   */
  private static java.lang.management.ThreadMXBean threadBean() {
    try {
      return java.lang.management.ManagementFactory.getThreadMXBean();
    } catch (RuntimeException | Error e) {
      return null;
    }
  }

  void printStats(long instructions) {
    System.err.printf(
        "stats: instructions=%d seconds=%.3f mips=%.1f cpu_seconds=%.3f frame_fallbacks=%d%n",
        instructions,
        seconds,
        instructions / seconds / 1e6,
        cpuSeconds,
        org.dise.runtime.cpu.Cpu.unitFrameFallbacks());
  }
}
