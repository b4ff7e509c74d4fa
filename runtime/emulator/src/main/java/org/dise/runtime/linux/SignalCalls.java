package org.dise.runtime.linux;

import java.io.IOException;
import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.cpu.GuestFault;
import org.dise.runtime.mem.Memory;
import org.dise.runtime.mem.MemoryFault;

/**
 * Signals and the real-time interval timer, for the one thread: dispositions, the blocked mask,
 * pending signals, the alternate stack, and delivery through a signal frame laid out as riscv64
 * Linux lays it out ({@code struct rt_sigframe}: a {@code siginfo} then a {@code ucontext} whose
 * {@code sigcontext} holds pc, x1-x31, f0-f31 and fcsr), returning through a two-instruction {@code
 * rt_sigreturn} trampoline that acf maps above the stack.
 *
 * <p>Delivery happens at an instruction boundary: when a system call returns (a signal it raised or
 * unblocked), when the guest faults (SIGSEGV, SIGBUS, SIGILL, SIGTRAP go to the guest's handler if
 * it has one and has not blocked the signal, otherwise they end the run as before), and when the
 * interval timer expires, which the hart reports at an exact retired-instruction count ({@link
 * Cpu#setEventAt}). The timer runs on the guest's clock: retired instructions at a nominal 1 GHz
 * (one instruction, one nanosecond), plus the time the guest spends waiting (pause, sigsuspend,
 * sigtimedwait, ppoll without descriptors, nanosleep), which passes at once: so a program's signals
 * arrive at the same instruction on every run and every host. See spec/emulator.md, "Signals".
 */
final class SignalCalls extends SyscallGroup {
  static final int SIGILL = 4;
  static final int SIGTRAP = 5;
  static final int SIGBUS = 7;
  static final int SIGKILL = 9;
  static final int SIGSEGV = 11;
  static final int SIGPIPE = 13;
  static final int SIGALRM = 14;
  static final int SIGCHLD = 17;
  static final int SIGCONT = 18;
  static final int SIGSTOP = 19;
  static final int SIGTTOU = 22;
  static final int SIGURG = 23;
  static final int SIGWINCH = 28;
  static final int NSIG = 64;

  private static final long SIG_DFL = 0;
  private static final long SIG_IGN = 1;

  private static final long SA_SIGINFO = 4;
  private static final long SA_ONSTACK = 0x0800_0000L;
  private static final long SA_RESTART = 0x1000_0000L;
  private static final long SA_NODEFER = 0x4000_0000L;
  private static final long SA_RESETHAND = 0x8000_0000L;

  private static final int SIG_BLOCK = 0;
  private static final int SIG_UNBLOCK = 1;
  private static final int SIG_SETMASK = 2;

  /** si_code values. */
  private static final int SI_USER = 0;

  private static final int SI_KERNEL = 0x80;
  private static final int SI_TKILL = -6;

  /** The first real-time signal (the kernel's SIGRTMIN; glibc keeps 32 and 33 for itself). */
  static final int SIGRTMIN = 32;

  /**
   * Real-time signals queued at once per process, as Linux's RLIMIT_SIGPENDING bounds them (its
   * default is the number of tasks a user may have; a fixed bound here keeps the tool's memory
   * safe): beyond it sigqueue fails with EAGAIN.
   */
  static final int MAX_QUEUED = 1024;

  private static final int SEGV_MAPERR = 1;
  private static final int SEGV_ACCERR = 2;
  private static final int BUS_ADRALN = 1;
  private static final int ILL_ILLOPC = 1;
  private static final int TRAP_BRKPT = 1;

  private static final int SS_ONSTACK = 1;
  private static final int SS_DISABLE = 2;
  private static final long MINSIGSTKSZ = 2048;

  private static final int ITIMER_REAL = 0;

  /** The kernel's sigset_t: 64 signals in 8 bytes. */
  private static final int SIGSET_SIZE = 8;

  /** Signals that can be neither caught, blocked nor ignored. */
  private static final long UNBLOCKABLE = bit(SIGKILL) | bit(SIGSTOP);

  // The layout of struct rt_sigframe on riscv64 (arch/riscv/kernel/signal.c).
  private static final int SIGINFO_SIZE = 128;
  private static final int UC = SIGINFO_SIZE; // the ucontext after the siginfo
  private static final int UC_STACK = 16;
  private static final int UC_SIGMASK = 40;
  private static final int UC_MCONTEXT = 176; // 16-aligned after 128 bytes of sigset space
  private static final int SC_FPREGS = 256; // after pc and x1-x31
  private static final int SC_FCSR = SC_FPREGS + 32 * 8;
  private static final int FRAME_SIZE = SIGINFO_SIZE + 960;

  /** The trampoline a handler returns to: {@code li a7, 139; ecall} (rt_sigreturn). */
  static final long TRAMPOLINE = Loader.STACK_TOP + Memory.PAGE_SIZE;

  private static final int[] TRAMPOLINE_CODE = {0x08b00893, 0x00000073};

  /** Guest nanoseconds per retired instruction: the guest's clock runs at a nominal 1 GHz. */
  static final long NANOS_PER_INSN = 1;

  private final long[] handler = new long[NSIG + 1];
  private final long[] flags = new long[NSIG + 1];
  private final long[] actMask = new long[NSIG + 1];

  private long blocked;
  private long pending;

  /**
   * What each pending signal's siginfo says, oldest first: {si_code, the word at offset 16 (pid and
   * uid, or the fault address), the word at offset 24 (si_value, or a child's status)}. A standard
   * signal has at most one entry (a second one raised while it is pending is merged); a real-time
   * signal queues one per sending, delivered in order (Linux's sigqueue semantics).
   */
  @SuppressWarnings("unchecked")
  private final java.util.ArrayDeque<long[]>[] queued = new java.util.ArrayDeque[NSIG + 1];

  private int queuedRealtime;

  /** The mask to restore after a wait that replaced it (sigsuspend), or -1. */
  private long savedMask = -1;

  private long altSp;
  private long altSize;
  private boolean altEnabled;

  private boolean trampolineMapped;

  /** Guest time spent waiting (added to the retired-instruction clock). */
  private long waitedNanos;

  /** When ITIMER_REAL expires next, in guest nanoseconds, or -1; and its interval. */
  private long timerAt = -1;

  private long timerInterval;

  /** The running thread's blocked mask ({@link GuestThreads} keeps the others'). */
  long blockedMask() {
    return blocked;
  }

  void setBlockedMask(long mask) {
    blocked = mask & ~UNBLOCKABLE;
  }

  SignalCalls(GuestProcess proc) {
    super(proc);
  }

  /**
   * A forked child keeps its parent's dispositions, mask and alternate stack (Linux's fork);
   * nothing is pending in it, and its interval timer is off.
   */
  void copyInto(SignalCalls child) {
    System.arraycopy(handler, 0, child.handler, 0, handler.length);
    System.arraycopy(flags, 0, child.flags, 0, flags.length);
    System.arraycopy(actMask, 0, child.actMask, 0, actMask.length);
    child.blocked = blocked;
    child.altSp = altSp;
    child.altSize = altSize;
    child.altEnabled = altEnabled;
    child.trampolineMapped = trampolineMapped;
    child.waitedNanos = waitedNanos;
  }

  /** execve: caught signals go back to their default action; ignored ones stay ignored. */
  void execReset() {
    for (int s = 1; s <= NSIG; s++) {
      if (handler[s] != SIG_IGN) {
        handler[s] = SIG_DFL;
      }
      flags[s] = 0;
      actMask[s] = 0;
    }
    altEnabled = false;
    altSp = 0;
    altSize = 0;
    trampolineMapped = false;
  }

  /**
   * A signal from another process of the tree: one whose default action ends the process, and that
   * the process neither catches, ignores nor blocks, ends it at once (it may be blocked in a call
   * that nothing else would end); any other is made pending, for delivery when the process next
   * returns from a system call. Returns true when the process ended.
   */
  boolean fromOutside(Cpu target, int sig, int senderPid) {
    boolean deflt = sig == SIGKILL || (handler[sig] == SIG_DFL && (blocked & bit(sig)) == 0);
    if (deflt && !defaultIgnores(sig) && !defaultStops(sig)) {
      proc.killedBy = sig;
      target.halt(128 + sig);
      return true;
    }
    raise(sig, SI_USER, senderPid);
    proc.threads.interruptFor(sig, -1); // a thread blocked in a call is woken at once, as on Linux
    return false;
  }

  /** rt_sigqueueinfo from another process of the tree: queued with the sender's siginfo. */
  long queuedFromOutside(Cpu target, int sig, int code, long w16, long w24) {
    if (!raise(sig, code, w16, w24)) {
      return -Errno.EAGAIN;
    }
    proc.threads.interruptFor(sig, -1);
    return 0;
  }

  private static long bit(int sig) {
    return 1L << (sig - 1);
  }

  @Override
  void register(SyscallTable t) {
    t.implement(
        this,
        Syscall.RT_SIGACTION,
        Syscall.RT_SIGPROCMASK,
        Syscall.RT_SIGRETURN,
        Syscall.SIGALTSTACK,
        Syscall.RT_SIGPENDING);
    t.partial(
        Syscall.KILL,
        "the process itself (its pid, 0 or -1) and the other processes of its tree; a signal to"
            + " another process that neither catches nor blocks it ends that process at once,"
            + " else it is delivered when that process next returns from a system call",
        this);
    t.partial(
        Syscall.TKILL,
        "any thread of the process; the signal is the process's (delivered to the thread running"
            + " when it is next checked, or to the thread named when it is blocked in a call)",
        this);
    t.partial(
        Syscall.TGKILL, "threads of this process only (as tkill); another tgid is ESRCH", this);
    t.partial(
        Syscall.RT_SIGQUEUEINFO,
        "this process and the other processes of its tree; the signal is the process's",
        this);
    t.partial(
        Syscall.RT_TGSIGQUEUEINFO,
        "threads of this process only; the signal is the process's (delivered to the thread"
            + " running when it is next checked, or to the thread named when it is blocked in a call)",
        this);
    t.implement(this, Syscall.RT_SIGSUSPEND, Syscall.RT_SIGTIMEDWAIT);
    t.partial(
        Syscall.SETITIMER,
        "ITIMER_REAL only, on the guest's clock (retired instructions at 1 GHz plus waits);"
            + " ITIMER_VIRTUAL and ITIMER_PROF are unsupported",
        this);
    t.partial(Syscall.GETITIMER, "ITIMER_REAL only", this);
    t.partial(
        Syscall.PPOLL,
        "without descriptors only (pause, a sleep on the guest's clock); polling descriptors is"
            + " unsupported",
        this);
  }

  @Override
  public long call(Syscall which, Cpu cpu, long[] a) throws IOException, Refused {
    switch (which) {
      case RT_SIGACTION -> {
        return rtSigaction(a[0], a[1], a[2], a[3]);
      }
      case RT_SIGPROCMASK -> {
        return rtSigprocmask((int) a[0], a[1], a[2], a[3]);
      }
      case RT_SIGRETURN -> {
        return rtSigreturn(cpu);
      }
      case SIGALTSTACK -> {
        return sigaltstack(cpu, a[0], a[1]);
      }
      case RT_SIGPENDING -> {
        return rtSigpending(a[0], a[1]);
      }
      case KILL -> {
        return kill(a[0], (int) a[1]);
      }
      case TKILL -> {
        return tkill(a[0], (int) a[1]);
      }
      case TGKILL -> {
        return a[0] != proc.pid ? -Errno.ESRCH : tkill(a[1], (int) a[2]);
      }
      case RT_SIGQUEUEINFO -> {
        return sigqueue(a[0], -1, (int) a[1], a[2]);
      }
      case RT_TGSIGQUEUEINFO -> {
        return sigqueue(a[0], a[1], (int) a[2], a[3]);
      }
      case RT_SIGSUSPEND -> {
        return rtSigsuspend(cpu, a[0], a[1]);
      }
      case RT_SIGTIMEDWAIT -> {
        return rtSigtimedwait(cpu, a[0], a[1], a[2], a[3]);
      }
      case SETITIMER -> {
        return setitimer(cpu, (int) a[0], a[1], a[2]);
      }
      case GETITIMER -> {
        return getitimer(cpu, (int) a[0], a[1]);
      }
      case PPOLL -> {
        return ppoll(cpu, a[0], a[1], a[2], a[3], a[4]);
      }
      default -> throw notMine(which);
    }
  }

  // ---------------------------------------------------------------- generation

  /** The guest's clock in nanoseconds. */
  long now(Cpu cpu) {
    return cpu.instret() * NANOS_PER_INSN + waitedNanos;
  }

  /** True if the signal's disposition discards it (SIG_IGN, or a default of ignore). */
  private boolean ignored(int sig) {
    long h = handler[sig];
    return h == SIG_IGN || (h == SIG_DFL && defaultIgnores(sig));
  }

  private static boolean defaultIgnores(int sig) {
    return sig == SIGCHLD || sig == SIGCONT || sig == SIGURG || sig == SIGWINCH;
  }

  private static boolean defaultStops(int sig) {
    return sig >= SIGSTOP && sig <= SIGTTOU;
  }

  private static boolean defaultDumpsCore(int sig) {
    return switch (sig) {
      case 3, 4, 5, 6, 7, 8, 11, 24, 25, 31 -> true;
      default -> false;
    };
  }

  /** Makes {@code sig} pending, unless it would be discarded (ignored and not blocked). */
  void raise(int sig, int code, long value) {
    raise(sig, code, value, 0);
  }

  /**
   * Makes {@code sig} pending with its siginfo ({@code si_code}, the words at offsets 16 and 24),
   * unless it would be discarded. Returns false when a real-time signal could not be queued (the
   * queue is full: sigqueue's EAGAIN).
   */
  boolean raise(int sig, int code, long w16, long w24) {
    return raise(sig, code, w16, w24, 0);
  }

  /**
   * As {@link #raise(int, int, long, long)}, for thread {@code tid} alone (tkill, tgkill,
   * rt_tgsigqueueinfo), or for the process ({@code tid} 0), as Linux keeps a pending set per thread
   * beside the process's.
   */
  boolean raise(int sig, int code, long w16, long w24, int tid) {
    if (ignored(sig) && (blocked & bit(sig)) == 0) {
      return true;
    }
    boolean realtime = sig >= SIGRTMIN;
    if (!realtime && queued[sig] != null) {
      for (long[] e : queued[sig]) {
        if (e[3] == tid) {
          return true; // a standard signal does not queue twice
        }
      }
    }
    if (realtime && queuedRealtime >= MAX_QUEUED) {
      return false;
    }
    if (queued[sig] == null) {
      queued[sig] = new java.util.ArrayDeque<>();
    }
    queued[sig].addLast(new long[] {code, w16, w24, tid});
    queuedRealtime += realtime ? 1 : 0;
    pending |= bit(sig);
    return true;
  }

  /** The running thread's id (thread-directed signals are its alone). */
  private int tid() {
    return proc.threads.currentTid();
  }

  /** The signals pending for thread {@code tid}: the process's and its own. */
  long pendingFor(int tid) {
    long out = 0;
    for (long p = pending; p != 0; p &= p - 1) {
      int sig = Long.numberOfTrailingZeros(p) + 1;
      for (long[] e : queued[sig]) {
        if (e[3] == 0 || e[3] == tid) {
          out |= bit(sig);
          break;
        }
      }
    }
    return out;
  }

  /**
   * The oldest siginfo of {@code sig} pending for the running thread, taken off its queue (the
   * process's pending bit clears when no thread has one left).
   */
  private long[] take(int sig) {
    java.util.ArrayDeque<long[]> q = queued[sig];
    long[] info = new long[4];
    int tid = tid();
    if (q != null) {
      for (java.util.Iterator<long[]> it = q.iterator(); it.hasNext(); ) {
        long[] e = it.next();
        if (e[3] == 0 || e[3] == tid) {
          it.remove();
          info = e;
          queuedRealtime -= sig >= SIGRTMIN ? 1 : 0;
          break;
        }
      }
    }
    if (q == null || q.isEmpty()) {
      pending &= ~bit(sig);
    }
    return info;
  }

  /** Drops every pending instance of {@code sig} (set to be ignored), every thread's. */
  private void discard(int sig) {
    if (queued[sig] != null) {
      queuedRealtime -= sig >= SIGRTMIN ? queued[sig].size() : 0;
      queued[sig].clear();
    }
    pending &= ~bit(sig);
  }

  // ---------------------------------------------------------------- interrupted calls

  /** True when a signal is pending that thread {@code tid} with mask {@code mask} would act on. */
  boolean interrupts(int tid, long mask) {
    long ready = pendingFor(tid) & ~mask;
    while (ready != 0) {
      int sig = Long.numberOfTrailingZeros(ready) + 1;
      if (!ignored(sig)) {
        return true;
      }
      ready &= ready - 1;
    }
    return false;
  }

  boolean anyPending() {
    return pending != 0;
  }

  /** Whether {@code sig}'s handler asked for interrupted calls to restart ({@code SA_RESTART}). */
  boolean restarts(int sig) {
    return handler[sig] != SIG_DFL && handler[sig] != SIG_IGN && (flags[sig] & SA_RESTART) != 0;
  }

  /** The signal {@link #deliver} would act on now for the running thread, or 0. */
  int deliverable() {
    long ready = pendingFor(tid()) & ~blocked;
    while (ready != 0) {
      int sig = Long.numberOfTrailingZeros(ready) + 1;
      if (!ignored(sig)) {
        return sig;
      }
      ready &= ready - 1;
    }
    return 0;
  }

  /**
   * A child of this process ended: SIGCHLD (discarded unless caught or blocked, as its default is
   * to ignore it) with CLD_EXITED, CLD_KILLED or CLD_DUMPED, the child's pid and its status.
   */
  void childEnded(int pid, int wstatus) {
    int termsig = wstatus & 0x7f;
    int code = termsig == 0 ? 1 : defaultDumpsCore(termsig) ? 3 : 2;
    long status = termsig == 0 ? (wstatus >> 8) & 0xff : termsig;
    raise(SIGCHLD, code, pid & 0xffffffffL, status);
    proc.threads.interruptFor(SIGCHLD, -1);
  }

  /**
   * A write to a pipe nobody reads: Linux sends SIGPIPE, which kills the process (128+13 in the
   * shell, as qemu-riscv64 exits) unless the guest ignores or handles it; the call gives EPIPE.
   */
  long brokenPipe(long r) {
    if (r == -Errno.EPIPE) {
      raise(SIGPIPE, SI_USER, proc.pid);
    }
    return r;
  }

  private long kill(long pid, int sig) {
    if (sig < 0 || sig > NSIG) {
      return -Errno.EINVAL;
    }
    if (pid != proc.pid && pid != 0 && pid != -1 && pid != -proc.pid) {
      return proc.killOther((int) Math.abs(pid), sig);
    }
    if (sig != 0) {
      raise(sig, SI_USER, proc.pid);
      proc.threads.interruptFor(sig, -1);
    }
    return 0;
  }

  private long tkill(long tid, int sig) {
    if (sig < 0 || sig > NSIG) {
      return -Errno.EINVAL;
    }
    if (tid != proc.pid && (tid <= 0 || !proc.threads.isLive((int) tid))) {
      return tid <= 0 ? -Errno.EINVAL : -Errno.ESRCH;
    }
    if (sig != 0) {
      raise(sig, SI_TKILL, proc.pid, 0, (int) tid);
      proc.threads.interruptFor(sig, (int) tid);
    }
    return 0;
  }

  /**
   * rt_sigqueueinfo and rt_tgsigqueueinfo (sigqueue, pthread_sigqueue): the caller's siginfo
   * (si_code, si_pid/si_uid, si_value) travels with the signal; a real-time signal queues. As
   * Linux, only a negative si_code other than SI_TKILL may be sent to another process.
   */
  private long sigqueue(long tgid, long tid, int sig, long uinfo) {
    if (sig < 0 || sig > NSIG) {
      return -Errno.EINVAL;
    }
    int code = mem.read32(uinfo + 8);
    long w16 = mem.read64(uinfo + 16);
    long w24 = mem.read64(uinfo + 24);
    if (tgid != proc.pid) {
      if (tgid <= 0) {
        return -Errno.EINVAL;
      }
      if (code >= 0 || code == SI_TKILL) {
        return -Errno.EPERM;
      }
      return tid >= 0 ? -Errno.ESRCH : proc.queueOther((int) tgid, sig, code, w16, w24);
    }
    if (tid >= 0 && tid != proc.pid && !proc.threads.isLive((int) tid)) {
      return -Errno.ESRCH;
    }
    if (sig == 0) {
      return 0;
    }
    if (!raise(sig, code, w16, w24, tid > 0 ? (int) tid : 0)) {
      return -Errno.EAGAIN;
    }
    proc.threads.interruptFor(sig, (int) tid);
    return 0;
  }

  // ---------------------------------------------------------------- dispositions and masks

  private long rtSigaction(long sig, long act, long old, long size) {
    if (size != SIGSET_SIZE) {
      return -Errno.EINVAL;
    }
    if (sig < 1 || sig > NSIG || ((sig == SIGKILL || sig == SIGSTOP) && act != 0)) {
      return -Errno.EINVAL;
    }
    int s = (int) sig;
    // struct sigaction on riscv64: handler, flags, mask (no sa_restorer).
    long h = 0;
    long fl = 0;
    long m = 0;
    if (act != 0) {
      h = mem.read64(act);
      fl = mem.read64(act + 8);
      m = mem.read64(act + 16);
    }
    if (old != 0) {
      mem.write64(old, handler[s]);
      mem.write64(old + 8, flags[s]);
      mem.write64(old + 16, actMask[s]);
    }
    if (act != 0) {
      handler[s] = h;
      flags[s] = fl;
      actMask[s] = m & ~UNBLOCKABLE;
      if (ignored(s)) {
        discard(s); // POSIX: setting a pending signal to ignore discards it
      }
    }
    return 0;
  }

  private long rtSigprocmask(int how, long set, long old, long size) {
    if (size != SIGSET_SIZE) {
      return -Errno.EINVAL;
    }
    long m = 0;
    if (set != 0) {
      m = mem.read64(set);
      if (how != SIG_BLOCK && how != SIG_UNBLOCK && how != SIG_SETMASK) {
        return -Errno.EINVAL;
      }
    }
    if (old != 0) {
      mem.write64(old, blocked);
    }
    if (set != 0) {
      blocked =
          switch (how) {
            case SIG_BLOCK -> blocked | m;
            case SIG_UNBLOCK -> blocked & ~m;
            default -> m;
          };
      blocked &= ~UNBLOCKABLE;
    }
    return 0;
  }

  private long rtSigpending(long set, long size) {
    if (size > SIGSET_SIZE) {
      return -Errno.EINVAL;
    }
    mem.write64(set, pendingFor(tid()) & blocked);
    return 0;
  }

  private boolean onAltStack(long sp) {
    return altEnabled && sp - altSp >= 0 && sp - altSp < altSize;
  }

  private long sigaltstack(Cpu cpu, long ss, long old) {
    long sp = cpu.x[2];
    if (old != 0) {
      mem.write64(old, altSp);
      mem.write32(old + 8, altEnabled ? (onAltStack(sp) ? SS_ONSTACK : 0) : SS_DISABLE);
      mem.write64(old + 16, altSize);
    }
    if (ss != 0) {
      long nsp = mem.read64(ss);
      int nflags = mem.read32(ss + 8);
      long nsize = mem.read64(ss + 16);
      if (onAltStack(sp)) {
        return -Errno.EPERM;
      }
      if ((nflags & ~(SS_DISABLE | 0x8000_0000)) != 0) { // SS_AUTODISARM is accepted
        return -Errno.EINVAL;
      }
      if ((nflags & SS_DISABLE) != 0) {
        altEnabled = false;
        altSp = 0;
        altSize = 0;
      } else {
        if (nsize < MINSIGSTKSZ) {
          return -Errno.ENOMEM;
        }
        altEnabled = true;
        altSp = nsp;
        altSize = nsize;
      }
    }
    return 0;
  }

  // ---------------------------------------------------------------- delivery

  /**
   * Delivers the lowest-numbered pending signal that is not blocked, if any: runs its default
   * action, or builds a frame and points the hart at its handler. One signal at a time: the next
   * pending one follows when the handler's rt_sigreturn returns.
   */
  void deliver(Cpu cpu) {
    while (true) {
      long ready = pendingFor(tid()) & ~blocked;
      if (ready == 0) {
        break;
      }
      int sig = Long.numberOfTrailingZeros(ready) + 1;
      long[] info = take(sig);
      long h = handler[sig];
      if (h == SIG_IGN) {
        continue;
      }
      if (h == SIG_DFL) {
        if (defaultIgnores(sig)) {
          continue;
        }
        die(cpu, sig);
        return;
      }
      setUpFrame(cpu, sig, (int) info[0], info[1], info[2]);
      return;
    }
    if (savedMask >= 0) { // a wait ended without a handler to restore its mask on return
      blocked = savedMask;
      savedMask = -1;
    }
  }

  /** The default action of a signal that terminates, dumps core or stops the process. */
  private void die(Cpu cpu, int sig) {
    String how;
    if (defaultStops(sig)) {
      how = "; a stopped guest has nobody to continue it, so the run ends";
    } else if (defaultDumpsCore(sig)) {
      how = " (core dumped, as Linux would; acf writes no core file)";
    } else {
      how = "";
    }
    proc.say("guest " + (defaultStops(sig) ? "stopped" : "killed") + " by " + name(sig) + how);
    proc.killedBy = sig;
    cpu.halt(128 + sig);
  }

  private static final String[] NAMES = {
    null,
    "SIGHUP",
    "SIGINT",
    "SIGQUIT",
    "SIGILL",
    "SIGTRAP",
    "SIGABRT",
    "SIGBUS",
    "SIGFPE",
    "SIGKILL",
    "SIGUSR1",
    "SIGSEGV",
    "SIGUSR2",
    "SIGPIPE",
    "SIGALRM",
    "SIGTERM",
    "SIGSTKFLT",
    "SIGCHLD",
    "SIGCONT",
    "SIGSTOP",
    "SIGTSTP",
    "SIGTTIN",
    "SIGTTOU",
    "SIGURG",
    "SIGXCPU",
    "SIGXFSZ",
    "SIGVTALRM",
    "SIGPROF",
    "SIGWINCH",
    "SIGIO",
    "SIGPWR",
    "SIGSYS"
  };

  /** A signal as a report names it: {@code signal 14 (SIGALRM)}. */
  static String name(int sig) {
    return "signal "
        + sig
        + " ("
        + (sig < NAMES.length ? NAMES[sig] : "SIGRTMIN+" + (sig - 32))
        + ")";
  }

  private long trampoline() {
    if (!trampolineMapped) {
      mem.map(TRAMPOLINE, Memory.PAGE_SIZE, Memory.PROT_READ | Memory.PROT_EXEC);
      byte[] code = new byte[8];
      for (int i = 0; i < TRAMPOLINE_CODE.length; i++) {
        int w = TRAMPOLINE_CODE[i];
        for (int k = 0; k < 4; k++) {
          code[4 * i + k] = (byte) (w >>> (8 * k));
        }
      }
      mem.poke(TRAMPOLINE, code, 0, code.length);
      trampolineMapped = true;
    }
    return TRAMPOLINE;
  }

  /** Builds the signal frame on the stack (or the alternate stack) and enters the handler. */
  private void setUpFrame(Cpu cpu, int sig, int code, long value) {
    setUpFrame(cpu, sig, code, value, 0);
  }

  private void setUpFrame(Cpu cpu, int sig, int code, long value, long value24) {
    long[] x = cpu.x;
    long sp = x[2];
    long fl = flags[sig];
    if ((fl & SA_ONSTACK) != 0 && altEnabled && !onAltStack(sp)) {
      sp = altSp + altSize;
    }
    long frame = (sp - FRAME_SIZE) & ~15L;
    long frameMask = savedMask >= 0 ? savedMask : blocked;
    try {
      mem.write(frame, new byte[FRAME_SIZE], 0, FRAME_SIZE);
      // siginfo: signo, errno, code, then the pid and uid, or the fault address.
      mem.write32(frame, sig);
      mem.write32(frame + 8, code);
      mem.write64(frame + 16, value);
      mem.write64(frame + 24, value24);
      long uc = frame + UC;
      mem.write64(uc + UC_STACK, altSp);
      mem.write32(uc + UC_STACK + 8, altEnabled ? (onAltStack(x[2]) ? SS_ONSTACK : 0) : SS_DISABLE);
      mem.write64(uc + UC_STACK + 16, altSize);
      mem.write64(uc + UC_SIGMASK, frameMask);
      long sc = uc + UC_MCONTEXT;
      mem.write64(sc, cpu.pc);
      for (int i = 1; i < 32; i++) {
        mem.write64(sc + 8L * i, x[i]);
      }
      for (int i = 0; i < 32; i++) {
        mem.write64(sc + SC_FPREGS + 8L * i, cpu.f[i]);
      }
      mem.write32(sc + SC_FCSR, cpu.fcsr());
    } catch (MemoryFault e) {
      // Linux: a frame that cannot be written kills the process with SIGSEGV.
      proc.say(
          String.format(
              "guest's signal %d frame at 0x%x could not be written: killed by signal %d",
              sig, frame, SIGSEGV));
      proc.killedBy = SIGSEGV;
      cpu.halt(128 + SIGSEGV);
      return;
    }
    savedMask = -1;
    blocked |= actMask[sig] | ((fl & SA_NODEFER) != 0 ? 0 : bit(sig));
    blocked &= ~UNBLOCKABLE;
    long h = handler[sig];
    if ((fl & SA_RESETHAND) != 0) {
      handler[sig] = SIG_DFL;
      flags[sig] &= ~SA_SIGINFO;
    }
    x[10] = sig;
    x[11] = frame;
    x[12] = frame + UC;
    x[2] = frame;
    x[1] = trampoline();
    cpu.pc = h;
  }

  /** rt_sigreturn: restores the registers and mask the frame at sp saved. */
  private long rtSigreturn(Cpu cpu) {
    long[] x = cpu.x;
    long frame = x[2];
    long uc = frame + UC;
    long sc = uc + UC_MCONTEXT;
    long[] regs = new long[32];
    long[] fregs = new long[32];
    long mask;
    int fcsr;
    try {
      mask = mem.read64(uc + UC_SIGMASK);
      for (int i = 0; i < 32; i++) {
        regs[i] = mem.read64(sc + 8L * i);
        fregs[i] = mem.read64(sc + SC_FPREGS + 8L * i);
      }
      fcsr = mem.read32(sc + SC_FCSR);
    } catch (MemoryFault e) {
      proc.say("guest's rt_sigreturn found no signal frame at sp: killed by signal " + SIGSEGV);
      proc.killedBy = SIGSEGV;
      cpu.halt(128 + SIGSEGV);
      return 0;
    }
    blocked = mask & ~UNBLOCKABLE;
    cpu.pc = regs[0];
    System.arraycopy(regs, 1, x, 1, 31);
    System.arraycopy(fregs, 0, cpu.f, 0, 32);
    cpu.setFcsr(fcsr);
    return x[10]; // the kernel writes the result to a0: the restored a0
  }

  /**
   * A synchronous fault: delivered to the guest's handler if it has one and has not blocked the
   * signal (Linux then kills the process, as the fault report does here).
   */
  boolean fault(Cpu cpu, GuestFault f) {
    int sig = f.signal();
    if (sig < 1 || sig > NSIG) {
      return false;
    }
    long h = handler[sig];
    if (h == SIG_DFL || h == SIG_IGN || (blocked & bit(sig)) != 0) {
      return false; // force_sig_fault: a blocked or ignored fault signal kills
    }
    int code;
    long addr;
    switch (sig) {
      case SIGSEGV -> {
        addr = cpu.faultAddress();
        code = mem.isFree(addr & ~Memory.PAGE_MASK, 1) ? SEGV_MAPERR : SEGV_ACCERR;
      }
      case SIGBUS -> {
        addr = cpu.faultAddress();
        code = BUS_ADRALN;
      }
      case SIGILL -> {
        addr = f.pc();
        code = ILL_ILLOPC;
      }
      case SIGTRAP -> {
        addr = f.pc();
        code = TRAP_BRKPT;
      }
      default -> {
        return false;
      }
    }
    cpu.clearFault();
    cpu.pc = f.pc(); // the faulting instruction: the handler may return to retry it
    setUpFrame(cpu, sig, code, addr);
    return !cpu.halted();
  }

  // ---------------------------------------------------------------- waiting and the timer

  /** The hart reached the timer's instruction count: the timer fires, its signal is delivered. */
  void timerEvent(Cpu cpu) {
    cpu.setEventAt(Long.MAX_VALUE);
    if (timerAt >= 0 && now(cpu) >= timerAt) {
      fire(cpu);
    } else {
      arm(cpu);
    }
    deliver(cpu);
  }

  /**
   * Every thread of the process is blocked and nothing else can run: the guest's clock passes to
   * the timer's expiry at once (idle time, as in {@code pause}) and the timer fires, so that its
   * SIGALRM can interrupt a blocking call as on Linux. Returns false when no timer is armed or
   * SIGALRM is ignored (then nothing would ever wake the process).
   */
  boolean expireWhileIdle(Cpu cpu) {
    if (timerAt < 0 || ignored(SIGALRM)) {
      return false;
    }
    waitedNanos += Math.max(0, timerAt - now(cpu));
    fire(cpu);
    return true;
  }

  /** ITIMER_REAL expired: SIGALRM, and the next expiry for an interval timer. */
  private void fire(Cpu cpu) {
    raise(SIGALRM, SI_KERNEL, 0);
    if (timerInterval > 0) {
      long now = now(cpu);
      while (timerAt <= now) {
        timerAt += timerInterval;
      }
    } else {
      timerAt = -1;
    }
    arm(cpu);
  }

  /** Tells the hart the instruction count at which the timer expires. */
  private void arm(Cpu cpu) {
    if (timerAt < 0) {
      cpu.setEventAt(Long.MAX_VALUE);
    } else {
      long insns = Math.max(0, timerAt - waitedNanos) / NANOS_PER_INSN;
      cpu.setEventAt(Math.max(insns, cpu.instret()));
    }
  }

  /**
   * Waits on the guest's clock until a signal in {@code wake} is pending, for at most {@code
   * timeout} nanoseconds (negative: forever). Returns true if one is, false on the timeout. With
   * nothing that could ever wake it, the guest would wait forever: the run ends with a report.
   */
  private boolean await(Cpu cpu, long wake, long timeout) {
    long deadline = timeout < 0 ? Long.MAX_VALUE : now(cpu) + timeout;
    while (true) {
      if ((pendingFor(tid()) & wake) != 0) {
        return true;
      }
      long now = now(cpu);
      boolean timerWakes = timerAt >= 0 && (wake & bit(SIGALRM)) != 0 && !ignored(SIGALRM);
      if (timerWakes && timerAt <= deadline) {
        waitedNanos += Math.max(0, timerAt - now);
        fire(cpu);
        continue;
      }
      if (deadline != Long.MAX_VALUE) {
        waitedNanos += Math.max(0, deadline - now);
        arm(cpu);
        return false;
      }
      throw new Cpu.TrapException(
          "the guest waits for a signal that nothing can send (no timer armed, one process):"
              + " it would wait forever, so the run stops",
          SIGKILL);
    }
  }

  /**
   * Whether a wait for a signal in {@code wake} with none pending blocks the thread until another
   * thread or process sends one: when there are others and the interval timer cannot end it.
   * (Alone, the wait either passes guest time up to the timer or can never end: {@link #await}.)
   */
  private boolean blocksFor(long wake) {
    boolean timerWakes = timerAt >= 0 && (wake & bit(SIGALRM)) != 0 && !ignored(SIGALRM);
    return (pendingFor(tid()) & wake) == 0
        && !timerWakes
        && (proc.threads.liveCount() > 1 || proc.threads.tree != null);
  }

  /**
   * Blocks the running thread until a signal in {@code wake} is pending for it; the call reruns.
   */
  private long blockFor(Cpu cpu, long wake, long a0) {
    int me = tid();
    proc.threads.blockUntil(cpu, () -> (pendingFor(me) & wake) != 0, a0);
    return a0;
  }

  private long rtSigsuspend(Cpu cpu, long maskAddr, long size) {
    if (size != SIGSET_SIZE) {
      return -Errno.EINVAL;
    }
    long m = mem.read64(maskAddr) & ~UNBLOCKABLE;
    if (blocksFor(~m)) {
      return blockFor(cpu, ~m, maskAddr); // the mask is set again when the call reruns
    }
    savedMask = blocked;
    blocked = m;
    await(cpu, ~m, -1);
    return -Errno.EINTR; // the handler's frame restores the saved mask on return
  }

  /** What {@link #timeoutNanos} returns for a timespec Linux refuses (EINVAL). */
  private static final long BAD_TIMESPEC = Long.MIN_VALUE;

  /**
   * The timeout in the struct timespec at addr, in nanoseconds: -1 (none) for a null pointer or one
   * too long to count, or BAD_TIMESPEC for a negative or unnormalised one.
   */
  private long timeoutNanos(long addr) {
    if (addr == 0) {
      return -1;
    }
    long sec = mem.read64(addr);
    long nsec = mem.read64(addr + 8);
    if (sec < 0 || nsec < 0 || nsec >= 1_000_000_000L) {
      return BAD_TIMESPEC;
    }
    return sec > Long.MAX_VALUE / 2_000_000_000L ? -1 : sec * 1_000_000_000L + nsec;
  }

  private long ppoll(Cpu cpu, long fds, long nfds, long timeoutAddr, long sigmask, long size) {
    if (nfds != 0) {
      throw new Unimplemented("polling descriptors");
    }
    long timeout = timeoutNanos(timeoutAddr);
    if (timeout == BAD_TIMESPEC) {
      return -Errno.EINVAL;
    }
    if (sigmask != 0) {
      if (size != SIGSET_SIZE) {
        return -Errno.EINVAL;
      }
      long m = mem.read64(sigmask) & ~UNBLOCKABLE;
      if (timeout < 0 && blocksFor(~m)) {
        return blockFor(cpu, ~m, fds);
      }
      savedMask = blocked;
      blocked = m;
    } else if (timeout < 0 && blocksFor(~blocked)) {
      return blockFor(cpu, ~blocked, fds);
    }
    if (await(cpu, ~blocked, timeout)) {
      return -Errno.EINTR;
    }
    if (savedMask >= 0) {
      blocked = savedMask;
      savedMask = -1;
    }
    return 0;
  }

  private long rtSigtimedwait(Cpu cpu, long setAddr, long info, long timeoutAddr, long size) {
    if (size != SIGSET_SIZE) {
      return -Errno.EINVAL;
    }
    long set = mem.read64(setAddr) & ~UNBLOCKABLE;
    long timeout = timeoutNanos(timeoutAddr);
    if (timeout == BAD_TIMESPEC) {
      return -Errno.EINVAL;
    }
    // Woken by a signal of the set, or interrupted by another one that is not blocked.
    if (timeout < 0 && blocksFor(set | ~blocked)) {
      return blockFor(cpu, set | ~blocked, setAddr);
    }
    if (!await(cpu, set | ~blocked, timeout)) {
      return -Errno.EAGAIN;
    }
    long mine = pendingFor(tid()) & set;
    if (mine == 0) {
      return -Errno.EINTR;
    }
    int sig = Long.numberOfTrailingZeros(mine) + 1;
    long[] si = take(sig);
    if (info != 0) {
      mem.write(info, new byte[SIGINFO_SIZE], 0, SIGINFO_SIZE);
      mem.write32(info, sig);
      mem.write32(info + 8, (int) si[0]);
      mem.write64(info + 16, si[1]);
      mem.write64(info + 24, si[2]);
    }
    return sig;
  }

  /**
   * A sleep of {@code nanos} on the guest's clock (nanosleep, clock_nanosleep), which the caller
   * also sleeps on the host: if the timer expires first, its signal interrupts the sleep. Returns
   * the nanoseconds left when interrupted, or 0.
   */
  long sleep(Cpu cpu, long nanos) {
    long now = now(cpu);
    if (timerAt >= 0 && timerAt - now <= nanos && !ignored(SIGALRM)) {
      long slept = Math.max(0, timerAt - now);
      waitedNanos += slept;
      fire(cpu);
      if ((pendingFor(tid()) & ~blocked) != 0) {
        return Math.max(1, nanos - slept);
      }
      waitedNanos += nanos - slept;
      arm(cpu);
      return 0;
    }
    waitedNanos += nanos;
    arm(cpu);
    return 0;
  }

  private long setitimer(Cpu cpu, int which, long value, long old) {
    if (which != ITIMER_REAL) {
      if (which == 1 || which == 2) {
        throw new Unimplemented(which == 1 ? "ITIMER_VIRTUAL" : "ITIMER_PROF");
      }
      return -Errno.EINVAL;
    }
    long intervalNs = 0;
    long valueNs = 0;
    if (value != 0) {
      long isec = mem.read64(value);
      long iusec = mem.read64(value + 8);
      long vsec = mem.read64(value + 16);
      long vusec = mem.read64(value + 24);
      if (isec < 0
          || iusec < 0
          || iusec >= 1_000_000
          || vsec < 0
          || vusec < 0
          || vusec >= 1_000_000) {
        return -Errno.EINVAL;
      }
      intervalNs = isec * 1_000_000_000L + iusec * 1000;
      valueNs = vsec * 1_000_000_000L + vusec * 1000;
    }
    if (old != 0) {
      writeItimer(cpu, old);
    }
    timerInterval = intervalNs;
    timerAt = valueNs == 0 ? -1 : now(cpu) + valueNs;
    arm(cpu);
    return 0;
  }

  private long getitimer(Cpu cpu, int which, long value) {
    if (which != ITIMER_REAL) {
      if (which == 1 || which == 2) {
        throw new Unimplemented(which == 1 ? "ITIMER_VIRTUAL" : "ITIMER_PROF");
      }
      return -Errno.EINVAL;
    }
    writeItimer(cpu, value);
    return 0;
  }

  private void writeItimer(Cpu cpu, long addr) {
    long left = timerAt < 0 ? 0 : Math.max(1000, timerAt - now(cpu));
    mem.write64(addr, timerInterval / 1_000_000_000L);
    mem.write64(addr + 8, timerInterval % 1_000_000_000L / 1000);
    mem.write64(addr + 16, left / 1_000_000_000L);
    mem.write64(addr + 24, (left % 1_000_000_000L + 999) / 1000);
  }
}
