package org.dise.runtime.linux;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.dise.runtime.mem.Memory;

/**
 * The process and its identity: exit, ids, limits, the one thread's bookkeeping (futex,
 * set_tid_address, set_robust_list), randomness, and what the system says about itself (uname,
 * sysinfo). One process with one thread: pid and tid 1000, parent 999, uid and gid 0.
 */
final class ProcessCalls {
  static final int PID = 1000;
  static final int PPID = 999;

  private static final int RLIMIT_STACK = 3;
  private static final int RLIMIT_NOFILE = 7;
  private static final int RLIMIT_AS = 9;
  private static final int RLIM_NLIMITS = 16;

  private final GuestProcess proc;
  private final Memory mem;
  private final Random random;

  ProcessCalls(GuestProcess proc, long seed) {
    this.proc = proc;
    this.mem = proc.mem;
    this.random = new Random(seed);
  }

  void register(SyscallTable t) {
    t.partial(
        Syscall.EXIT,
        "ends the process (there is one thread)",
        (cpu, a) -> {
          cpu.halt((int) a[0] & 0xff);
          return 0;
        });
    t.implement(
        Syscall.EXIT_GROUP,
        (cpu, a) -> {
          cpu.halt((int) a[0] & 0xff);
          return 0;
        });
    t.partial(Syscall.SET_TID_ADDRESS, "the address is not kept (one thread)", (cpu, a) -> PID);
    t.partial(Syscall.SET_ROBUST_LIST, "the list is not kept (one thread)", (cpu, a) -> 0);
    t.partial(
        Syscall.FUTEX,
        "one thread: every operation returns 0 at once (a wait never blocks, a wake wakes nobody)",
        (cpu, a) -> 0);
    t.partial(Syscall.SCHED_YIELD, "one thread: returns at once", (cpu, a) -> 0);
    t.partial(
        Syscall.PRLIMIT64,
        "of the calling process only; RLIMIT_NOFILE and RLIMIT_AS are enforced, RLIMIT_STACK"
            + " reads as the loader's stack, the others as unlimited",
        (cpu, a) -> prlimit64((int) a[1], a[2], a[3]));
    t.partial(Syscall.GETRLIMIT, "as prlimit64", (cpu, a) -> prlimit64((int) a[0], 0, a[1]));
    t.implement(Syscall.GETRANDOM, (cpu, a) -> getrandom(a[0], a[1], a[2]));
    t.implement(Syscall.UNAME, (cpu, a) -> uname(a[0]));
    t.partial(
        Syscall.SYSINFO,
        "fixed figures: 4 GiB of RAM, 2 free, one process",
        (cpu, a) -> sysinfo(a[0]));
    t.partial(
        Syscall.GETRUSAGE,
        "every field reads 0",
        (cpu, a) -> {
          if (a[1] != 0) {
            mem.write(a[1], new byte[144], 0, 144);
          }
          return 0;
        });
    t.partial(Syscall.UMASK, "reports 022 and keeps nothing", (cpu, a) -> 022);
    t.implement(Syscall.GETPID, (cpu, a) -> PID);
    t.implement(Syscall.GETTID, (cpu, a) -> PID);
    t.implement(Syscall.GETPPID, (cpu, a) -> PPID);
    t.implement(Syscall.GETUID, (cpu, a) -> 0);
    t.implement(Syscall.GETEUID, (cpu, a) -> 0);
    t.implement(Syscall.GETGID, (cpu, a) -> 0);
    t.implement(Syscall.GETEGID, (cpu, a) -> 0);
    t.refuse(Syscall.RSEQ, Errno.ENOSYS, "ENOSYS: glibc then runs without restartable sequences");
    t.refuse(
        Syscall.RISCV_HWPROBE,
        Errno.ENOSYS,
        "ENOSYS: glibc then assumes the base ISA and picks generic string functions");
  }

  private long prlimit64(int resource, long newAddr, long oldAddr) {
    if (resource < 0 || resource >= RLIM_NLIMITS) {
      return -Errno.EINVAL;
    }
    if (oldAddr != 0) {
      long cur;
      long max;
      switch (resource) {
        case RLIMIT_STACK -> {
          cur = Loader.STACK_SIZE;
          max = -1;
        }
        case RLIMIT_NOFILE -> {
          cur = proc.limits.nofile();
          max = proc.limits.nofile();
        }
        case RLIMIT_AS -> {
          cur = proc.limits.addressSpace();
          max = proc.limits.addressSpace();
        }
        default -> {
          cur = -1;
          max = -1;
        }
      }
      mem.write64(oldAddr, cur);
      mem.write64(oldAddr + 8, max);
    }
    if (newAddr != 0) {
      long cur = mem.read64(newAddr);
      long max = mem.read64(newAddr + 8);
      if (Long.compareUnsigned(cur, max) > 0) {
        return -Errno.EINVAL;
      }
      // The limits are the tool's to set (--limit): raising one is refused as for a user
      // without CAP_SYS_RESOURCE; lowering one takes effect.
      if ((resource == RLIMIT_NOFILE && Long.compareUnsigned(max, proc.limits.nofile()) > 0)
          || (resource == RLIMIT_AS && Long.compareUnsigned(max, proc.limits.addressSpace()) > 0)) {
        return -Errno.EPERM;
      }
      if (resource == RLIMIT_NOFILE && cur >= 3) {
        proc.limits = new GuestLimits((int) cur, proc.limits.addressSpace());
      } else if (resource == RLIMIT_AS && cur >= GuestLimits.MIN_AS) {
        proc.limits = new GuestLimits(proc.limits.nofile(), cur);
      }
    }
    return 0;
  }

  private long getrandom(long buf, long len, long flags) {
    if ((flags & ~7L) != 0) {
      return -Errno.EINVAL;
    }
    if (len < 0) { // as qemu-riscv64: a count beyond the address space is EFAULT, nothing written
      return -Errno.EFAULT;
    }
    byte[] b = new byte[(int) Math.min(len, FileCalls.CHUNK)];
    random.nextBytes(b);
    mem.write(buf, b, 0, b.length);
    return b.length;
  }

  private long uname(long buf) {
    String[] fields = {"Linux", "acf", "6.1.0", "#1 SMP acf emulator", "riscv64", "(none)"};
    byte[] b = new byte[65 * 6];
    for (int i = 0; i < fields.length; i++) {
      byte[] s = fields[i].getBytes(StandardCharsets.UTF_8);
      System.arraycopy(s, 0, b, 65 * i, s.length);
    }
    mem.write(buf, b, 0, b.length);
    return 0;
  }

  private long sysinfo(long buf) {
    byte[] b = new byte[112];
    java.nio.ByteBuffer bb = java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    bb.putLong(0, 1000); // uptime
    bb.putLong(32, 4L << 30); // totalram
    bb.putLong(40, 2L << 30); // freeram
    bb.putShort(80, (short) 1); // procs
    bb.putInt(104, 1); // mem_unit
    mem.write(buf, b, 0, b.length);
    return 0;
  }
}
