package org.dise.runtime.linux;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.dise.runtime.cpu.Cpu;

/**
 * The process and its identity: exit_group, ids, limits, randomness, and what the system says about
 * itself (uname, sysinfo). Its threads are {@link ThreadCalls}'. The first process is pid 1000, its
 * parent 999, uid and gid 0.
 */
final class ProcessCalls extends SyscallGroup {
  static final int PID = 1000;
  static final int PPID = 999;

  private static final int RLIMIT_STACK = 3;
  private static final int RLIMIT_NOFILE = 7;
  private static final int RLIMIT_AS = 9;
  private static final int RLIM_NLIMITS = 16;

  private final Random random;

  ProcessCalls(GuestProcess proc, long seed) {
    super(proc);
    this.random = new Random(seed);
  }

  @Override
  void register(SyscallTable t) {
    t.implement(this, Syscall.EXIT_GROUP);
    t.partial(
        Syscall.PRLIMIT64,
        "of the calling process only; RLIMIT_NOFILE and RLIMIT_AS are enforced, RLIMIT_STACK"
            + " reads as the loader's stack, the others as unlimited",
        this);
    t.partial(Syscall.GETRLIMIT, "as prlimit64", this);
    t.implement(this, Syscall.GETRANDOM, Syscall.UNAME);
    t.partial(Syscall.SYSINFO, "fixed figures: 4 GiB of RAM, 2 free, one process", this);
    t.partial(Syscall.GETRUSAGE, "every field reads 0", this);
    t.partial(Syscall.UMASK, "reports 022 and keeps nothing", this);
    t.implement(
        this,
        Syscall.GETPID,
        Syscall.GETPPID,
        Syscall.GETUID,
        Syscall.GETEUID,
        Syscall.GETGID,
        Syscall.GETEGID);
    t.refuse(Syscall.RSEQ, Errno.ENOSYS, "ENOSYS: glibc then runs without restartable sequences");
    t.refuse(
        Syscall.RISCV_HWPROBE,
        Errno.ENOSYS,
        "ENOSYS: glibc then assumes the base ISA and picks generic string functions");
  }

  @Override
  public long call(Syscall which, Cpu cpu, long[] a) throws IOException, Refused {
    switch (which) {
      case EXIT_GROUP -> {
        cpu.halt((int) a[0] & 0xff);
        return 0;
      }
      case PRLIMIT64 -> {
        return prlimit64((int) a[1], a[2], a[3]);
      }
      case GETRLIMIT -> {
        return prlimit64((int) a[0], 0, a[1]);
      }
      case GETRANDOM -> {
        return getrandom(a[0], a[1], a[2]);
      }
      case UNAME -> {
        return uname(a[0]);
      }
      case SYSINFO -> {
        return sysinfo(a[0]);
      }
      case GETRUSAGE -> {
        if (a[1] != 0) {
          mem.write(a[1], new byte[144], 0, 144);
        }
        return 0;
      }
      case UMASK -> {
        return 022;
      }
      case GETPID -> {
        return proc.pid;
      }
      case GETPPID -> {
        return proc.ppid;
      }
      case GETUID -> {
        return 0;
      }
      case GETEUID -> {
        return 0;
      }
      case GETGID -> {
        return 0;
      }
      case GETEGID -> {
        return 0;
      }
      default -> throw notMine(which);
    }
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
        proc.limits = new GuestLimits((int) cur, proc.limits.addressSpace(), proc.limits.nproc());
      } else if (resource == RLIMIT_AS && cur >= GuestLimits.MIN_AS) {
        proc.limits = new GuestLimits(proc.limits.nofile(), cur, proc.limits.nproc());
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
