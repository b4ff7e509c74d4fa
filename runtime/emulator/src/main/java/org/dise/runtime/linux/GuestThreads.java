package org.dise.runtime.linux;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.cpu.HartContext;
import org.dise.runtime.cpu.Scheduler;
import org.dise.runtime.cpu.StopReason;
import org.dise.runtime.mem.Memory;
import org.dise.runtime.mem.MemoryFault;

/**
 * The threads of one guest process on its one hart, and the futexes they wait on: {@code clone}
 * with {@code CLONE_THREAD}, {@code exit}, {@code futex}, {@code set_tid_address}, {@code
 * set_robust_list}, {@code sched_yield}.
 *
 * <p>Scheduling is deterministic: round robin in the order threads became runnable, a thread
 * running until its quantum of retired instructions ends or it blocks, yields or exits. Nothing of
 * the host (its cores, timing, load) enters a decision, so one program with one input runs the same
 * instruction stream, and gives the same profile, on every run and every host (spec/emulator.md,
 * "Threads").
 */
public final class GuestThreads implements Scheduler {
  /**
   * The default quantum: 100,000 instructions, about a millisecond of a real core's time, short
   * enough that threads spinning on one another make progress and long enough that switching (a
   * copy of 65 registers) costs nothing measurable.
   */
  public static final long DEFAULT_QUANTUM = 100_000;

  static final int CLONE_VM = 0x100;
  static final int CLONE_FS = 0x200;
  static final int CLONE_FILES = 0x400;
  static final int CLONE_SIGHAND = 0x800;
  static final int CLONE_VFORK = 0x4000;
  static final int CLONE_THREAD = 0x10000;
  static final int CLONE_SYSVSEM = 0x40000;
  static final int CLONE_SETTLS = 0x80000;
  static final int CLONE_PARENT_SETTID = 0x100000;
  static final int CLONE_CHILD_CLEARTID = 0x200000;
  static final int CLONE_CHILD_SETTID = 0x1000000;

  private static final int FUTEX_WAIT = 0;
  private static final int FUTEX_WAKE = 1;
  private static final int FUTEX_REQUEUE = 3;
  private static final int FUTEX_CMP_REQUEUE = 4;
  private static final int FUTEX_WAKE_OP = 5;
  private static final int FUTEX_WAIT_BITSET = 9;
  private static final int FUTEX_WAKE_BITSET = 10;
  private static final int FUTEX_PRIVATE_FLAG = 128;
  private static final int FUTEX_CLOCK_REALTIME = 256;
  private static final int ETIMEDOUT = 110;

  /** The condition a blocked call waited for holds: it runs again, its ecall not counted twice. */
  static final int RESUMED = 1;

  /**
   * A signal interrupted the call: it returns EINTR, or restarts after the handler if the handler
   * has SA_RESTART (Linux's ERESTARTSYS: read and write on a pipe, wait4, an untimed futex wait).
   */
  static final int INTERRUPTED = 2;

  /** A signal interrupted a call Linux never restarts (a timed futex wait): EINTR. */
  static final int INTERRUPTED_NO_RESTART = 3;

  /** Why a thread is off the hart. */
  enum State {
    RUNNABLE,
    FUTEX,
    /** In a call that runs again once a condition holds (a pipe, a child's exit). */
    WAITING,
    EXITED
  }

  /** One guest thread: its saved context and what the kernel keeps for it. */
  static final class GuestThread {
    final int tid;
    final HartContext ctx = new HartContext();
    State state = State.RUNNABLE;

    /** Its signal mask while another thread runs (each thread has its own, as in Linux). */
    long sigmask;

    long clearChildTid;
    long robustList;
    long futexAddr;
    int futexBitset;
    boolean timed;

    /** When it blocked (a counter): timed waits time out in this order. */
    long blockedAt;

    /** WAITING: what must hold for its call to run again, and how to run it again. */
    java.util.function.BooleanSupplier until;

    long restartPc;
    long restartA0;

    /**
     * How its blocking call goes on when it is back on the hart, at the call's ecall, which runs
     * again: {@link #RESUMED}, {@link #INTERRUPTED}, {@link #INTERRUPTED_NO_RESTART}, or 0.
     */
    int resume;

    GuestThread(int tid) {
      this.tid = tid;
    }
  }

  private final Memory mem;

  /**
   * The process's signals, whose blocked mask is the running thread's: saved and restored at each
   * switch. Without this, glibc's exiting thread, which blocks every signal before it ends, left
   * them blocked for the whole process, and a later raise() in main never reached its handler.
   */
  private SignalCalls signals;

  private final Map<Integer, GuestThread> live = new java.util.TreeMap<>();
  private final ArrayDeque<GuestThread> runQueue = new ArrayDeque<>();
  private final Map<Long, ArrayDeque<GuestThread>> waiters = new HashMap<>();
  private GuestThread current;
  private long quantum = DEFAULT_QUANTUM;
  private long blockCounter;
  private long switches;
  private final Ids ids;
  private int waiting;

  /** The process tree this process belongs to, once it forked or was forked; null before. */
  ProcessTree tree;

  /** Thread and process ids: one counter for a whole process tree, as Linux's pid space. */
  static final class Ids {
    int next;

    Ids(int next) {
      this.next = next;
    }
  }

  private String deadlockReport;

  /** Symbolizes a pc for the deadlock report (the kernel does not know the program). */
  private java.util.function.LongFunction<String> describe = pc -> String.format("0x%x", pc);

  /** The process's first thread has {@code tid} (its pid); later ones count up from it. */
  public GuestThreads(Memory mem, int tid) {
    this(mem, tid, new Ids(tid + 1));
  }

  GuestThreads(Memory mem, int tid, Ids ids) {
    this.mem = mem;
    this.current = new GuestThread(tid);
    live.put(tid, current);
    this.ids = ids;
  }

  Ids ids() {
    return ids;
  }

  void setSignals(SignalCalls signals) {
    this.signals = signals;
  }

  /** Sets the quantum (instructions; at least 1). */
  public void setQuantum(long q) {
    if (q < 1) {
      throw new IllegalArgumentException("the quantum must be at least 1 instruction, not " + q);
    }
    this.quantum = q;
  }

  @Override
  public long quantum() {
    return quantum;
  }

  public void setDescriber(java.util.function.LongFunction<String> d) {
    this.describe = d;
  }

  /** The running thread's id. */
  public int currentTid() {
    return current.tid;
  }

  /** Threads alive now (the main thread included). */
  public int liveCount() {
    return live.size();
  }

  /** The ids of the live threads, ascending. */
  public List<Integer> tids() {
    return new ArrayList<>(live.keySet());
  }

  /**
   * A live thread as a debugger shows it: its id, what it is doing, and its registers while it is
   * off the hart (null for the thread on the hart, whose registers are the cpu's).
   */
  public record ThreadView(int tid, String state, HartContext saved) {}

  /** The live threads, by id. */
  public List<ThreadView> view() {
    List<ThreadView> out = new ArrayList<>();
    for (GuestThread t : live.values()) {
      String state =
          switch (t.state) {
            case RUNNABLE -> t == current ? "running" : "runnable";
            case FUTEX -> String.format("futex wait on 0x%x", t.futexAddr);
            case WAITING -> "blocked in a system call";
            case EXITED -> "exited";
          };
      out.add(new ThreadView(t.tid, state, t == current ? null : t.ctx));
    }
    return out;
  }

  /** How many times the hart switched from one thread to another. */
  public long switches() {
    return switches;
  }

  /** Why the last run stopped with {@link StopReason#DEADLOCK}. */
  public String deadlockReport() {
    return deadlockReport;
  }

  void ensureScheduling(Cpu cpu) {
    if (cpu.scheduler() != this) {
      cpu.setScheduler(this);
    }
  }

  // ---------------------------------------------------------------- scheduling

  @Override
  public StopReason reschedule(Cpu cpu, boolean expired) {
    GuestThread cur = current;
    if (cur.state != State.EXITED) {
      cpu.saveContext(cur.ctx);
      if (signals != null) {
        cur.sigmask = signals.blockedMask();
      }
      if (cur.state == State.RUNNABLE) {
        runQueue.addLast(cur);
      } else if (cur.state == State.WAITING && cur.restartPc != -1) {
        cur.ctx.pc = cur.restartPc; // the call runs again when it may go on
        cur.ctx.x[10] = cur.restartA0;
      }
    }
    boolean leader = tree != null && !tree.nested();
    if (expired && leader) {
      tree.runOthers(this, cpu); // the other processes' turn, one quantum each
    }
    boolean idleTimer = false;
    while (true) {
      wakeWaiting();
      GuestThread next = runQueue.pollFirst();
      if (next != null) {
        if (next != cur) {
          switches++;
        }
        current = next;
        cpu.loadContext(next.ctx);
        cpu.setThreadId(next.tid);
        if (signals != null) {
          signals.setBlockedMask(next.sigmask);
        }
        return null;
      }
      current = cur;
      if (tree != null && !leader) {
        return StopReason.BLOCKED; // the tree runs the others and comes back
      }
      if (leader && tree.runOthers(this, cpu)) {
        continue; // they did something: look again
      }
      if (leader && cpu.budgetLeft() <= 0) {
        return StopReason.STEP_LIMIT; // the tree's instruction budget is spent
      }
      if (timeOutFirstTimedWaiter() == null) {
        // Idle until the interval timer expires: its signal may wake a blocked thread (once; if it
        // woke none, the process is stuck for good).
        if (!idleTimer && signals != null && signals.expireWhileIdle(cpu)) {
          idleTimer = true;
          continue;
        }
        deadlockReport = describeDeadlock();
        return StopReason.DEADLOCK;
      }
    }
  }

  /** execve: the calling thread goes on alone in the new program. */
  void execReset() {
    live.clear();
    live.put(current.tid, current);
    runQueue.clear();
    waiters.clear();
    waiting = 0;
    current.clearChildTid = 0;
    current.robustList = 0;
  }

  /**
   * Threads whose condition now holds become runnable, in thread id order; then, if a signal is
   * pending that no running thread took, the first blocked thread that would act on it is
   * interrupted (Linux wakes a thread in an interruptible wait for it).
   */
  private void wakeWaiting() {
    if (waiting > 0) {
      for (GuestThread t : live.values()) {
        if (t.state == State.WAITING && t.until.getAsBoolean()) {
          t.state = State.RUNNABLE;
          t.until = null;
          t.resume = t.restartPc != -1 ? RESUMED : 0;
          waiting--;
          runQueue.addLast(t);
        }
      }
    }
    if (signals != null && signals.anyPending() && runQueue.isEmpty()) {
      for (GuestThread t : live.values()) {
        if (interruptible(t) && signals.interrupts(t.tid, t.sigmask)) {
          interrupt(t);
          return;
        }
      }
    }
  }

  /** Blocked in a call a signal can interrupt (not vfork's parent, which only a kill ends). */
  private boolean interruptible(GuestThread t) {
    return (t.state == State.WAITING && t.restartPc != -1) || t.state == State.FUTEX;
  }

  /**
   * The blocked thread {@code t} is woken by a signal: its call runs again from its ecall, where
   * the kernel returns EINTR or restarts it ({@link #takeResume}).
   */
  private void interrupt(GuestThread t) {
    if (t.state == State.FUTEX) {
      unqueue(t);
      t.resume = t.timed ? INTERRUPTED_NO_RESTART : INTERRUPTED;
    } else {
      waiting--;
      t.resume = INTERRUPTED;
    }
    t.ctx.pc = t.restartPc;
    t.ctx.x[10] = t.restartA0;
    t.state = State.RUNNABLE;
    runQueue.addLast(t);
  }

  /**
   * Signal {@code sig} was raised for the process (for thread {@code tid}, or -1): as Linux picks a
   * thread for it — the one named, else the first, in id order, that does not block it — and wakes
   * that thread if it is blocked in a call, so that the call is interrupted now rather than after
   * whatever else happens first. A running thread takes it when it next returns from a call.
   */
  void interruptFor(int sig, int tid) {
    long bit = 1L << (sig - 1);
    GuestThread chosen = tid > 0 ? live.get(tid) : null;
    if (tid > 0 && (chosen == null || (maskOf(chosen) & bit) != 0)) {
      return; // the named thread's own: it takes it when it unblocks it
    }
    if (chosen == null) {
      for (GuestThread t : live.values()) {
        if ((maskOf(t) & bit) == 0) {
          chosen = t;
          break;
        }
      }
    }
    // The thread that was last on the hart is left to the scheduler's pass (wakeWaiting), which
    // runs once its context is saved.
    if (chosen != null
        && chosen != current
        && interruptible(chosen)
        && signals.interrupts(chosen.tid, maskOf(chosen))) {
      interrupt(chosen);
    }
  }

  private long maskOf(GuestThread t) {
    return t == current && signals != null ? signals.blockedMask() : t.sigmask;
  }

  /**
   * The running thread's blocking call is back at its ecall: how it goes on ({@link #RESUMED},
   * {@link #INTERRUPTED}, {@link #INTERRUPTED_NO_RESTART}), or 0 for a fresh call. An interrupted
   * call whose condition holds by now goes on as resumed (Linux checks the condition first).
   */
  int takeResume() {
    GuestThread t = current;
    int r = t.resume;
    if (r == 0) {
      return 0;
    }
    t.resume = 0;
    if (r != RESUMED && t.until != null && t.until.getAsBoolean()) {
      r = RESUMED;
    }
    t.until = null;
    return r;
  }

  /** True when the running thread gave up the hart in the call being handled (it blocked). */
  boolean currentBlocked() {
    return current.state != State.RUNNABLE;
  }

  /** True when a thread of this process can run (or will once the others ran). */
  boolean anyRunnable() {
    wakeWaiting();
    return !runQueue.isEmpty() || current.state == State.RUNNABLE;
  }

  /**
   * Blocks the calling thread in the system call being handled until {@code until} holds; the call
   * (whose first argument was {@code a0}) then runs again from the start, as Linux restarts it.
   */
  void blockUntil(Cpu cpu, java.util.function.BooleanSupplier until, long a0) {
    ensureScheduling(cpu);
    current.state = State.WAITING;
    current.until = until;
    current.restartPc = cpu.pc - 4; // the ecall (the kernel sees the pc after it)
    current.restartA0 = a0;
    waiting++;
    cpu.requestSwitch();
  }

  /**
   * Blocks the calling thread until {@code until} holds; the call then returns what it returns now
   * (vfork's parent, which waits for its child to exec or end).
   */
  void blockThenReturn(Cpu cpu, java.util.function.BooleanSupplier until) {
    blockUntil(cpu, until, 0);
    current.restartPc = -1;
  }

  /**
   * With every thread blocked, a timed wait is what ends first: the one that blocked earliest
   * returns ETIMEDOUT (the guest's time is its instructions, so nothing else can happen first).
   */
  private GuestThread timeOutFirstTimedWaiter() {
    // (made runnable at once: the caller looks at the run queue again)
    GuestThread first = null;
    for (GuestThread t : live.values()) {
      if (t.state == State.FUTEX && t.timed && (first == null || t.blockedAt < first.blockedAt)) {
        first = t;
      }
    }
    if (first != null) {
      unqueue(first);
      first.ctx.x[10] = -ETIMEDOUT;
      runQueue.addLast(first);
      first.state = State.RUNNABLE;
    }
    return first;
  }

  private String describeDeadlock() {
    StringBuilder sb = new StringBuilder("deadlock: every thread of the guest is blocked");
    for (GuestThread t : live.values()) {
      String what =
          t.state == State.FUTEX
              ? String.format("futex wait on 0x%x", t.futexAddr)
              : "waiting in a system call (a pipe or a child)";
      sb.append(
          String.format("%n  thread %d: %s, at pc %s", t.tid, what, describe.apply(t.ctx.pc)));
    }
    return sb.toString();
  }

  private void block(Cpu cpu, long addr, int bitset, boolean timed) {
    ensureScheduling(cpu);
    current.restartPc = cpu.pc - 4; // a signal makes the wait run again from its ecall
    current.restartA0 = addr;
    current.until = null;
    current.state = State.FUTEX;
    current.futexAddr = addr;
    current.futexBitset = bitset;
    current.timed = timed;
    current.blockedAt = blockCounter++;
    waiters.computeIfAbsent(addr, a -> new ArrayDeque<>()).addLast(current);
    cpu.requestSwitch();
  }

  private void unqueue(GuestThread t) {
    ArrayDeque<GuestThread> q = waiters.get(t.futexAddr);
    if (q != null) {
      q.remove(t);
      if (q.isEmpty()) {
        waiters.remove(t.futexAddr);
      }
    }
  }

  // ---------------------------------------------------------------- system calls

  /**
   * clone with {@code CLONE_THREAD}: a new thread of this process starting after the ecall with a0
   * = 0 on {@code stack}, with {@code tls} in tp under {@code CLONE_SETTLS}. The caller goes on
   * running; the new thread is last in the run queue. Returns its id.
   */
  long cloneThread(Cpu cpu, long flags, long stack, long ptid, long tls, long ctid) {
    int needed = CLONE_VM | CLONE_SIGHAND;
    if ((flags & needed) != needed) {
      return -Errno.EINVAL; // Linux: CLONE_THREAD needs CLONE_SIGHAND, which needs CLONE_VM
    }
    GuestThread t = new GuestThread(ids.next);
    cpu.saveContext(t.ctx);
    if (signals != null) {
      t.sigmask = signals.blockedMask(); // a new thread starts with its creator's mask
    }
    t.ctx.pc = cpu.pc; // after the ecall (the kernel sees the pc after it)
    t.ctx.x[10] = 0;
    if (stack != 0) {
      t.ctx.x[2] = stack;
    }
    if ((flags & CLONE_SETTLS) != 0) {
      t.ctx.x[4] = tls;
    }
    if ((flags & CLONE_PARENT_SETTID) != 0) {
      mem.write32(ptid, t.tid);
    }
    if ((flags & CLONE_CHILD_SETTID) != 0) {
      mem.write32(ctid, t.tid);
    }
    if ((flags & CLONE_CHILD_CLEARTID) != 0) {
      t.clearChildTid = ctid;
    }
    ids.next++;
    live.put(t.tid, t);
    runQueue.addLast(t);
    ensureScheduling(cpu);
    return t.tid;
  }

  /**
   * exit: the calling thread ends; with {@code CLONE_CHILD_CLEARTID} its tid word is cleared and
   * one waiter woken (what pthread_join waits for). The last thread's exit ends the process.
   * Returns true when the process ended.
   */
  boolean exitThread(Cpu cpu, int status) {
    if (live.size() == 1) {
      cpu.halt(status);
      return true;
    }
    GuestThread t = current;
    t.state = State.EXITED;
    live.remove(t.tid);
    if (t.clearChildTid != 0) {
      try {
        mem.write32(t.clearChildTid, 0);
        wake(t.clearChildTid, 1, -1);
      } catch (MemoryFault e) {
        // Linux ignores a bad address here too
      }
    }
    cpu.requestSwitch();
    return false;
  }

  long setTidAddress(long addr) {
    current.clearChildTid = addr;
    return current.tid;
  }

  long setRobustList(long head, long len) {
    if (len != 24) { // sizeof(struct robust_list_head) on 64-bit
      return -Errno.EINVAL;
    }
    current.robustList = head;
    return 0;
  }

  /** sched_yield: the caller goes to the end of the run queue when another thread can run. */
  long yield(Cpu cpu) {
    if (!runQueue.isEmpty()) {
      cpu.requestSwitch();
    }
    return 0;
  }

  /** True when another thread of this process could run now (a blocking call should yield). */
  boolean othersRunnable() {
    return !runQueue.isEmpty();
  }

  /** True when {@code tid} is a live thread of this process. */
  boolean isLive(int tid) {
    return live.containsKey(tid);
  }

  /**
   * futex: the operations glibc uses (wait and wake, their bitset forms, requeue and cmp_requeue,
   * wake_op), private or shared alike (one process: one address space). Timeouts are not host time:
   * a timed wait times out when every thread is blocked (see {@link #timeOutFirstTimedWaiter}), so
   * a program's course never depends on the host's speed.
   */
  long futex(Cpu cpu, long uaddr, int op, long val, long timeout, long uaddr2, long val3) {
    int cmd = op & ~(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME);
    if ((op & FUTEX_CLOCK_REALTIME) != 0 && cmd != FUTEX_WAIT_BITSET && cmd != FUTEX_WAIT) {
      return -Errno.ENOSYS; // as Linux: only the waits take a clock
    }
    if ((uaddr & 3) != 0) {
      return -Errno.EINVAL;
    }
    switch (cmd) {
      case FUTEX_WAIT, FUTEX_WAIT_BITSET -> {
        int bitset = cmd == FUTEX_WAIT ? -1 : (int) val3;
        if (bitset == 0) {
          return -Errno.EINVAL;
        }
        if (mem.read32(uaddr) != (int) val) {
          return -Errno.EAGAIN;
        }
        if (timeout != 0) {
          long sec = mem.read64(timeout);
          long nsec = mem.read64(timeout + 8);
          if (sec < 0 || nsec < 0 || nsec >= 1_000_000_000L) {
            return -Errno.EINVAL;
          }
        }
        block(cpu, uaddr, bitset, timeout != 0);
        return 0; // what it returns once woken; a timeout rewrites it
      }
      case FUTEX_WAKE, FUTEX_WAKE_BITSET -> {
        int bitset = cmd == FUTEX_WAKE ? -1 : (int) val3;
        if (bitset == 0) {
          return -Errno.EINVAL;
        }
        return wake(uaddr, (int) val, bitset);
      }
      case FUTEX_REQUEUE, FUTEX_CMP_REQUEUE -> {
        if ((uaddr2 & 3) != 0) {
          return -Errno.EINVAL;
        }
        if (cmd == FUTEX_CMP_REQUEUE && mem.read32(uaddr) != (int) val3) {
          return -Errno.EAGAIN;
        }
        int woken = wake(uaddr, (int) val, -1);
        // val2 (the number to requeue) travels in the timeout argument.
        return woken + requeue(uaddr, uaddr2, (int) Math.min(Integer.MAX_VALUE, timeout));
      }
      case FUTEX_WAKE_OP -> {
        return wakeOp(uaddr, (int) val, (int) Math.min(Integer.MAX_VALUE, timeout), uaddr2, val3);
      }
      default -> {
        return Long.MIN_VALUE; // not one of these: the kernel reports it as unsupported
      }
    }
  }

  /** Wakes up to {@code n} waiters on {@code addr} whose bitset meets {@code bitset}, in order. */
  int wake(long addr, int n, int bitset) {
    ArrayDeque<GuestThread> q = waiters.get(addr);
    if (q == null || n <= 0) {
      return 0;
    }
    int woken = 0;
    for (Iterator<GuestThread> it = q.iterator(); it.hasNext() && woken < n; ) {
      GuestThread t = it.next();
      if ((t.futexBitset & bitset) != 0) {
        it.remove();
        t.state = State.RUNNABLE;
        runQueue.addLast(t);
        woken++;
      }
    }
    if (q.isEmpty()) {
      waiters.remove(addr);
    }
    return woken;
  }

  private int requeue(long from, long to, int n) {
    ArrayDeque<GuestThread> q = waiters.get(from);
    if (q == null || n <= 0 || from == to) {
      return 0;
    }
    ArrayDeque<GuestThread> dest = waiters.computeIfAbsent(to, a -> new ArrayDeque<>());
    int moved = 0;
    while (moved < n && !q.isEmpty()) {
      GuestThread t = q.pollFirst();
      t.futexAddr = to;
      dest.addLast(t);
      moved++;
    }
    if (q.isEmpty()) {
      waiters.remove(from);
    }
    return moved;
  }

  /**
   * FUTEX_WAKE_OP: update the word at uaddr2, wake on uaddr, and on uaddr2 if the old value passes.
   */
  private long wakeOp(long uaddr, int n, int n2, long uaddr2, long val3) {
    if ((uaddr2 & 3) != 0) {
      return -Errno.EINVAL;
    }
    int encoded = (int) val3;
    int op = (encoded >>> 28) & 7;
    boolean shift = ((encoded >>> 28) & 8) != 0;
    int cmp = (encoded >>> 24) & 15;
    int oparg = (encoded << 8) >> 20; // 12 bits, sign-extended
    int cmparg = (encoded << 20) >> 20;
    if (shift) {
      if (oparg < 0 || oparg > 31) {
        return -Errno.EINVAL;
      }
      oparg = 1 << oparg;
    }
    int old = mem.read32(uaddr2);
    int v =
        switch (op) {
          case 0 -> oparg; // SET
          case 1 -> old + oparg; // ADD
          case 2 -> old | oparg; // OR
          case 3 -> old & ~oparg; // ANDN
          case 4 -> old ^ oparg; // XOR
          default -> Integer.MIN_VALUE;
        };
    if (op > 4) {
      return -Errno.ENOSYS;
    }
    boolean pass =
        switch (cmp) {
          case 0 -> old == cmparg;
          case 1 -> old != cmparg;
          case 2 -> old < cmparg;
          case 3 -> old <= cmparg;
          case 4 -> old > cmparg;
          case 5 -> old >= cmparg;
          default -> false;
        };
    if (cmp > 5) {
      return -Errno.ENOSYS;
    }
    mem.write32(uaddr2, v);
    int woken = wake(uaddr, n, -1);
    if (pass) {
      woken += wake(uaddr2, n2, -1);
    }
    return woken;
  }
}
