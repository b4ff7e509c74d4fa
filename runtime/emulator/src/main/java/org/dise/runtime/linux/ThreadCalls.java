package org.dise.runtime.linux;

import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.mem.Memory;

/**
 * Threads: clone and clone3 with {@code CLONE_THREAD}, exit of one thread, futex, the thread id
 * calls and the scheduler's calls. The threads themselves and their deterministic scheduling are
 * {@link GuestThreads}.
 */
final class ThreadCalls {
  private final GuestProcess proc;
  private final Memory mem;
  private final GuestThreads threads;
  private final ChildCalls children;

  ThreadCalls(GuestProcess proc, ChildCalls children) {
    this.proc = proc;
    this.children = children;
    this.mem = proc.mem;
    this.threads = proc.threads;
  }

  void register(SyscallTable t) {
    t.implement(
        Syscall.EXIT,
        (cpu, a) -> {
          threads.exitThread(cpu, (int) a[0] & 0xff);
          return 0;
        });
    t.partial(
        Syscall.CLONE,
        "threads (CLONE_THREAD with CLONE_VM and CLONE_SIGHAND) and new processes (fork, vfork as"
            + " a fork whose parent waits); namespaces, CLONE_PIDFD and shared file tables are"
            + " unsupported",
        (cpu, a) -> clone(cpu, a[0], a[1], a[2], a[3], a[4]));
    t.partial(
        Syscall.CLONE3,
        "as clone; set_tid and CLONE_PIDFD are unsupported",
        (cpu, a) -> clone3(cpu, a[0], a[1]));
    t.partial(
        Syscall.FUTEX,
        "wait, wake, their bitset forms, requeue, cmp_requeue and wake_op, private or not; the"
            + " priority-inheritance operations are unsupported; a timeout expires only when"
            + " every thread is blocked (guest time is instructions)",
        (cpu, a) -> futex(cpu, a));
    t.implement(Syscall.SET_TID_ADDRESS, (cpu, a) -> threads.setTidAddress(a[0]));
    t.partial(
        Syscall.SET_ROBUST_LIST,
        "the list is kept but not walked when a thread dies holding a robust mutex",
        (cpu, a) -> threads.setRobustList(a[0], a[1]));
    t.implement(Syscall.GETTID, (cpu, a) -> threads.currentTid());
    t.implement(Syscall.SCHED_YIELD, (cpu, a) -> threads.yield(cpu));
    t.partial(
        Syscall.SCHED_SETAFFINITY,
        "one core: accepted and ignored",
        (cpu, a) -> a[1] < 8 ? -Errno.EINVAL : 0);
    t.implement(Syscall.SCHED_GETAFFINITY, (cpu, a) -> schedGetaffinity(a[1], a[2]));
    t.implement(Syscall.GETCPU, (cpu, a) -> getcpu(a[0], a[1]));
    t.implement(Syscall.MEMBARRIER, (cpu, a) -> membarrier((int) a[0]));
  }

  private long clone(Cpu cpu, long flags, long stack, long ptid, long tls, long ctid) {
    if ((flags & GuestThreads.CLONE_THREAD) == 0) {
      return children.fork(cpu, flags, stack, ptid, tls, ctid);
    }
    return threads.cloneThread(cpu, flags, stack, ptid, tls, ctid);
  }

  /** clone3: struct clone_args as Linux 5.3 laid it out. */
  private long clone3(Cpu cpu, long args, long size) {
    if (size < 64) {
      return -Errno.EINVAL;
    }
    long flags = mem.read64(args);
    long childTid = mem.read64(args + 16);
    long parentTid = mem.read64(args + 24);
    long stack = mem.read64(args + 40);
    long stackSize = mem.read64(args + 48);
    long tls = mem.read64(args + 56);
    if (size >= 80 && (mem.read64(args + 64) != 0 || mem.read64(args + 72) != 0)) {
      return proc.unsupported(cpu, Syscall.CLONE3, "set_tid");
    }
    if ((flags & 0x1000) != 0) {
      return proc.unsupported(cpu, Syscall.CLONE3, "CLONE_PIDFD");
    }
    long sp = stack == 0 ? 0 : stack + stackSize;
    if ((flags & GuestThreads.CLONE_THREAD) == 0) {
      long exitSignal = mem.read64(args + 32);
      return children.fork(
          cpu, (flags & ~0xffL) | (exitSignal & 0xff), sp, parentTid, tls, childTid);
    }
    return threads.cloneThread(cpu, flags, sp, parentTid, tls, childTid);
  }

  private long futex(Cpu cpu, long[] a) {
    long r = threads.futex(cpu, a[0], (int) a[1], a[2], a[3], a[4], a[5]);
    if (r == Long.MIN_VALUE) {
      return proc.unsupported(cpu, Syscall.FUTEX, "operation " + (a[1] & 127));
    }
    return r;
  }

  private long schedGetaffinity(long len, long mask) {
    // Linux copies the kernel's cpumask, a whole number of longs: 8 bytes for one core.
    if (len < 8 || (len & 7) != 0) {
      return -Errno.EINVAL;
    }
    mem.write64(mask, 1);
    return 8;
  }

  private long getcpu(long cpuAddr, long nodeAddr) {
    if (cpuAddr != 0) {
      mem.write32(cpuAddr, 0);
    }
    if (nodeAddr != 0) {
      mem.write32(nodeAddr, 0);
    }
    return 0;
  }

  private static long membarrier(int cmd) {
    int global = 1;
    int privateExpedited = 8;
    int registerPrivateExpedited = 16;
    return switch (cmd) {
      case 0 -> global | privateExpedited | registerPrivateExpedited; // MEMBARRIER_CMD_QUERY
      case 1, 8, 16 -> 0; // one core: every barrier already holds
      default -> -Errno.EINVAL;
    };
  }
}
