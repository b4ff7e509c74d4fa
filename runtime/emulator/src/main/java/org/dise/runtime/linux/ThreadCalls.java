package org.dise.runtime.linux;

import java.io.IOException;
import org.dise.runtime.cpu.Cpu;

/**
 * Threads: clone and clone3 with {@code CLONE_THREAD}, exit of one thread, futex, the thread id
 * calls and the scheduler's calls. The threads themselves and their deterministic scheduling are
 * {@link GuestThreads}.
 */
final class ThreadCalls extends SyscallGroup {
  private final GuestThreads threads;
  private final ChildCalls children;

  ThreadCalls(GuestProcess proc, ChildCalls children) {
    super(proc);
    this.children = children;
    this.threads = proc.threads;
  }

  @Override
  void register(SyscallTable t) {
    t.implement(this, Syscall.EXIT);
    t.partial(
        Syscall.CLONE,
        "threads (CLONE_THREAD with CLONE_VM and CLONE_SIGHAND) and new processes (fork, vfork as"
            + " a fork whose parent waits); namespaces, CLONE_PIDFD and shared file tables are"
            + " unsupported",
        this);
    t.partial(Syscall.CLONE3, "as clone; set_tid and CLONE_PIDFD are unsupported", this);
    t.partial(
        Syscall.FUTEX,
        "wait, wake, their bitset forms, requeue, cmp_requeue and wake_op, private or not; the"
            + " priority-inheritance operations are unsupported; a timeout expires only when"
            + " every thread is blocked (guest time is instructions)",
        this);
    t.implement(this, Syscall.SET_TID_ADDRESS);
    t.partial(
        Syscall.SET_ROBUST_LIST,
        "the list is kept but not walked when a thread dies holding a robust mutex",
        this);
    t.implement(this, Syscall.GETTID, Syscall.SCHED_YIELD);
    t.partial(Syscall.SCHED_SETAFFINITY, "one core: accepted and ignored", this);
    t.implement(this, Syscall.SCHED_GETAFFINITY, Syscall.GETCPU, Syscall.MEMBARRIER);
  }

  @Override
  public long call(Syscall which, Cpu cpu, long[] a) throws IOException, Refused {
    switch (which) {
      case EXIT -> {
        threads.exitThread(cpu, (int) a[0] & 0xff);
        return 0;
      }
      case CLONE -> {
        return clone(cpu, a[0], a[1], a[2], a[3], a[4]);
      }
      case CLONE3 -> {
        return clone3(cpu, a[0], a[1]);
      }
      case FUTEX -> {
        return futex(cpu, a);
      }
      case SET_TID_ADDRESS -> {
        return threads.setTidAddress(a[0]);
      }
      case SET_ROBUST_LIST -> {
        return threads.setRobustList(a[0], a[1]);
      }
      case GETTID -> {
        return threads.currentTid();
      }
      case SCHED_YIELD -> {
        return threads.yield(cpu);
      }
      case SCHED_SETAFFINITY -> {
        return a[1] < 8 ? -Errno.EINVAL : 0;
      }
      case SCHED_GETAFFINITY -> {
        return schedGetaffinity(a[1], a[2]);
      }
      case GETCPU -> {
        return getcpu(a[0], a[1]);
      }
      case MEMBARRIER -> {
        return membarrier((int) a[0]);
      }
      default -> throw notMine(which);
    }
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
