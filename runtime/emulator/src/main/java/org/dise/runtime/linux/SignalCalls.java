package org.dise.runtime.linux;

import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.mem.Memory;

/**
 * Signals. No signal is delivered yet: dispositions are accepted, SIGPIPE's is remembered (an
 * ignored or handled SIGPIPE turns a broken pipe into EPIPE), and a signal sent to the process ends
 * it as 128 + the signal.
 */
final class SignalCalls {
  static final int SIGKILL = 9;
  static final int SIGPIPE = 13;
  static final int SIGSTOP = 19;

  /** The kernel's sigset_t: 64 signals in 8 bytes. */
  private static final int SIGSET_SIZE = 8;

  private static final int SS_DISABLE = 4;

  private final GuestProcess proc;
  private final Memory mem;

  /** True once the guest set SIGPIPE to SIG_IGN: a write to a broken pipe then gives EPIPE. */
  private boolean sigpipeIgnored;

  SignalCalls(GuestProcess proc) {
    this.proc = proc;
    this.mem = proc.mem;
  }

  /** A forked child keeps its parent's dispositions. */
  void copyInto(SignalCalls child) {
    child.sigpipeIgnored = sigpipeIgnored;
  }

  void register(SyscallTable t) {
    t.partial(
        Syscall.RT_SIGACTION,
        "dispositions are accepted but no handler ever runs",
        (cpu, a) -> rtSigaction(a[0], a[1], a[2], a[3]));
    t.partial(
        Syscall.RT_SIGPROCMASK,
        "the mask is not kept; the old mask reads as empty",
        (cpu, a) -> rtSigprocmask(a[2], a[3]));
    t.partial(
        Syscall.SIGALTSTACK,
        "reports no alternate stack (SS_DISABLE) and ignores a new one",
        (cpu, a) -> sigaltstack(a[1]));
    t.partial(
        Syscall.KILL,
        "a signal to any process ends this one as 128 + the signal",
        (cpu, a) -> signal(cpu, (int) a[1]));
    t.partial(
        Syscall.TKILL,
        "a signal to any thread ends the process as 128 + the signal",
        (cpu, a) -> signal(cpu, (int) a[1]));
    t.partial(
        Syscall.TGKILL,
        "a signal to any thread ends the process as 128 + the signal",
        (cpu, a) -> signal(cpu, (int) a[2]));
  }

  /**
   * A write to a pipe nobody reads: Linux sends SIGPIPE, which kills the process (128+13 in the
   * shell, as qemu-riscv64 exits) unless the guest ignores or handles it; then EPIPE.
   */
  long brokenPipe(long r) {
    Cpu cpu = proc.cpu;
    if (r == -Errno.EPIPE && !sigpipeIgnored && cpu != null) {
      cpu.halt(128 + SIGPIPE);
    }
    return r;
  }

  private long rtSigaction(long sig, long act, long old, long size) {
    if (size != SIGSET_SIZE) {
      return -Errno.EINVAL;
    }
    if (sig < 1 || sig > 64 || ((sig == SIGKILL || sig == SIGSTOP) && act != 0)) {
      return -Errno.EINVAL;
    }
    long handler = act != 0 ? mem.read64(act) : -1;
    if (old != 0) {
      byte[] b = new byte[32];
      if (sig == SIGPIPE && sigpipeIgnored) {
        b[0] = 1;
      }
      mem.write(old, b, 0, b.length);
    }
    if (sig == SIGPIPE && act != 0) {
      // No signal is delivered: an ignored or handled SIGPIPE makes a broken pipe EPIPE.
      sigpipeIgnored = handler != 0;
    }
    return 0;
  }

  private long rtSigprocmask(long old, long size) {
    if (size != SIGSET_SIZE) {
      return -Errno.EINVAL;
    }
    // No signals are ever delivered: report an empty old mask.
    if (old != 0) {
      mem.write(old, new byte[8], 0, 8);
    }
    return 0;
  }

  private long sigaltstack(long old) {
    if (old != 0) {
      byte[] ss = new byte[24];
      ss[8] = SS_DISABLE;
      mem.write(old, ss, 0, ss.length);
    }
    return 0;
  }

  private long signal(Cpu cpu, int sig) {
    if (sig == 0) {
      return 0;
    }
    // abort() and raise(): the process dies of the signal, as 128 + signal in the shell.
    proc.say("guest killed itself with signal " + sig);
    cpu.halt(128 + sig);
    return 0;
  }
}
