package org.dise.runtime.linux;

import java.io.IOException;
import org.dise.runtime.cpu.Cpu;

/**
 * The clocks and sleeps. The wall clocks read the host's; {@code times} counts the guest's retired
 * instructions at a nominal 1 GHz.
 */
final class TimeCalls extends SyscallGroup {
  private static final int CLOCK_REALTIME = 0;
  private static final int CLOCK_REALTIME_COARSE = 5;
  private static final int CLOCK_REALTIME_ALARM = 8;
  private static final int CLOCK_SGI_CYCLE = 10;
  private static final int CLOCK_TAI = 11;

  private final SignalCalls signals;

  TimeCalls(GuestProcess proc, SignalCalls signals) {
    super(proc);
    this.signals = signals;
  }

  @Override
  void register(SyscallTable t) {
    t.implement(this, Syscall.CLOCK_GETTIME);
    t.partial(Syscall.CLOCK_GETRES, "every clock reports 1 ns; the clock id is not checked", this);
    t.implement(this, Syscall.GETTIMEOFDAY);
    t.partial(
        Syscall.NANOSLEEP,
        "sleeps on the host (at most an hour) and on the guest's clock, where the interval"
            + " timer can interrupt it (EINTR with the time left)",
        this);
    t.partial(
        Syscall.CLOCK_NANOSLEEP,
        "as nanosleep: a relative sleep whatever the clock and flags (TIMER_ABSTIME is not"
            + " honoured)",
        this);
    t.partial(
        Syscall.TIMES,
        "elapsed ticks count retired instructions at 1 GHz; the CPU times are 0",
        this);
  }

  @Override
  public long call(Syscall which, Cpu cpu, long[] a) throws IOException, Refused {
    switch (which) {
      case CLOCK_GETTIME -> {
        return clockGettime((int) a[0], a[1]);
      }
      case CLOCK_GETRES -> {
        if (a[1] != 0) {
          mem.write64(a[1], 0);
          mem.write64(a[1] + 8, 1);
        }
        return 0;
      }
      case GETTIMEOFDAY -> {
        return gettimeofday(a[0]);
      }
      case NANOSLEEP -> {
        return nanosleep(cpu, a[0], a[1]);
      }
      case CLOCK_NANOSLEEP -> {
        return nanosleep(cpu, a[2], a[3]);
      }
      case TIMES -> {
        return times(a[0], cpu);
      }
      default -> throw notMine(which);
    }
  }

  private long nanosleep(Cpu cpu, long ts, long rem) {
    if (ts == 0) {
      return -Errno.EFAULT;
    }
    long sec = mem.read64(ts);
    long nsec = mem.read64(ts + 8);
    if (sec < 0 || nsec < 0 || nsec >= 1_000_000_000L) {
      return -Errno.EINVAL;
    }
    long nanos = Math.min(sec, 3600) * 1_000_000_000L + nsec;
    // The guest's clock first: the interval timer may end the sleep early.
    long left = signals.sleep(cpu, nanos);
    long host = nanos - left;
    try {
      Thread.sleep(host / 1_000_000, (int) (host % 1_000_000));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -Errno.EINTR;
    }
    // A sleeping thread is off the core, as on Linux: another runnable thread of the process gets
    // it now, not at the end of the sleeper's quantum (a loop of short sleeps waiting for another
    // thread would otherwise hold the core for a whole quantum of sleeps).
    if (proc.threads.othersRunnable()) {
      cpu.requestSwitch();
    }
    if (left > 0) {
      if (rem != 0) {
        mem.write64(rem, left / 1_000_000_000L);
        mem.write64(rem + 8, left % 1_000_000_000L);
      }
      return -Errno.EINTR;
    }
    return 0;
  }

  private long clockGettime(int clock, long ts) {
    long nanos;
    if (clock < 0 || clock > CLOCK_TAI || clock == CLOCK_SGI_CYCLE) {
      return -Errno.EINVAL;
    }
    if (clock == CLOCK_REALTIME
        || clock == CLOCK_REALTIME_COARSE
        || clock == CLOCK_REALTIME_ALARM
        || clock == CLOCK_TAI) {
      java.time.Instant now = java.time.Instant.now();
      mem.write64(ts, now.getEpochSecond());
      mem.write64(ts + 8, now.getNano());
      return 0;
    }
    nanos = System.nanoTime();
    mem.write64(ts, nanos / 1_000_000_000L);
    mem.write64(ts + 8, nanos % 1_000_000_000L);
    return 0;
  }

  private long gettimeofday(long tv) {
    if (tv != 0) {
      java.time.Instant now = java.time.Instant.now();
      mem.write64(tv, now.getEpochSecond());
      mem.write64(tv + 8, now.getNano() / 1000);
    }
    return 0;
  }

  private long times(long buf, Cpu cpu) {
    long ticks = cpu.instret() / 10_000_000L; // 100 Hz at a nominal 1 GHz
    if (buf != 0) {
      mem.write64(buf, ticks);
      mem.write64(buf + 8, 0);
      mem.write64(buf + 16, 0);
      mem.write64(buf + 24, 0);
    }
    return ticks;
  }
}
