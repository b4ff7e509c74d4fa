package org.dise.runtime.linux;

import static org.dise.runtime.linux.GuestThreads.CLONE_CHILD_CLEARTID;
import static org.dise.runtime.linux.GuestThreads.CLONE_CHILD_SETTID;
import static org.dise.runtime.linux.GuestThreads.CLONE_FILES;
import static org.dise.runtime.linux.GuestThreads.CLONE_FS;
import static org.dise.runtime.linux.GuestThreads.CLONE_PARENT_SETTID;
import static org.dise.runtime.linux.GuestThreads.CLONE_SETTLS;
import static org.dise.runtime.linux.GuestThreads.CLONE_VFORK;
import static org.dise.runtime.linux.GuestThreads.CLONE_VM;
import static org.dise.runtime.linux.SignalCalls.SIGCHLD;

import java.io.IOException;
import java.util.List;
import org.dise.runtime.cpu.Cpu;

/**
 * Child processes: fork (clone without {@code CLONE_THREAD}, vfork's {@code CLONE_VM|CLONE_VFORK}
 * included), wait4 and waitid. A child is a new guest process of the same {@link ProcessTree}, made
 * by the {@link Spawner}; the process limit (--limit nproc) makes a fork beyond it fail with
 * EAGAIN, as RLIMIT_NPROC does.
 */
final class ChildCalls extends SyscallGroup {
  /**
   * What fork copies regardless (one address space each, one file table each): accepted. The clone
   * flags are {@link GuestThreads}' (the exit signal in the low byte).
   */
  private static final long KNOWN =
      0xff
          | CLONE_VM
          | CLONE_FS
          | CLONE_FILES // a copy instead of a shared table
          | CLONE_VFORK
          | CLONE_SETTLS
          | CLONE_PARENT_SETTID
          | CLONE_CHILD_CLEARTID
          | CLONE_CHILD_SETTID;

  private static final int WNOHANG = 1;
  private static final int WEXITED = 4;
  private static final int WNOWAIT = 0x1000000;

  private static final int ENOEXEC = 8;

  private final FileCalls files;

  ChildCalls(GuestProcess proc, FileCalls files) {
    super(proc);
    this.files = files;
  }

  @Override
  void register(SyscallTable t) {
    t.partial(
        Syscall.EXECVE,
        "a RISC-V ELF program runs under acf, with the same confinement, limits and productions"
            + " (acf run --follow-exec); any other file is ENOEXEC (no host program ever runs, no"
            + " #! script is interpreted)",
        this);
    t.partial(
        Syscall.WAIT4,
        "process groups are not kept (0 and -pgid wait for any child); rusage reads as zeros;"
            + " stopped and continued children are never reported",
        this);
    t.partial(
        Syscall.WAITID,
        "as wait4: P_ALL and P_PID (P_PGID waits for any child); WEXITED only",
        this);
  }

  @Override
  public long call(Syscall which, Cpu cpu, long[] a) throws IOException, Refused {
    switch (which) {
      case EXECVE -> {
        return execve(cpu, a[0], a[1], a[2]);
      }
      case WAIT4 -> {
        return wait4(cpu, (int) a[0], a[1], (int) a[2], a[3], a[0]);
      }
      case WAITID -> {
        return waitid(cpu, (int) a[0], (int) a[1], a[2], (int) a[3], a[0]);
      }
      default -> throw notMine(which);
    }
  }

  private ProcessTree tree(Cpu cpu) {
    GuestThreads threads = proc.threads;
    if (threads.tree == null) {
      ProcessTree tree = new ProcessTree(proc.notices());
      threads.tree = tree;
      tree.add(new ProcessTree.Member(proc.pid, proc.ppid, cpu, proc, () -> {}, f -> null));
    }
    return threads.tree;
  }

  /**
   * fork, and clone of a new process: the child is a copy of the caller (memory, open files,
   * working directory), one thread, starting after the ecall with a0 = 0. The parent goes on (a
   * vfork parent waits until the child exec'd or ended); the child runs when the parent gives up
   * the core. Returns the child's pid.
   */
  long fork(Cpu cpu, long flags, long stack, long ptid, long tls, long ctid) {
    if ((flags & ~KNOWN) != 0) {
      return proc.unsupported(
          cpu, Syscall.CLONE, String.format("flags 0x%x for a new process", flags & ~KNOWN));
    }
    if ((flags & CLONE_VM) != 0 && (flags & CLONE_VFORK) == 0) {
      return proc.unsupported(cpu, Syscall.CLONE, "CLONE_VM without CLONE_THREAD or CLONE_VFORK");
    }
    if (proc.spawner == null) {
      return proc.unsupported(cpu, Syscall.CLONE, "a new process (this run has no process tree)");
    }
    ProcessTree tree = tree(cpu);
    if (tree.count() >= proc.limits.nproc()) {
      return -Errno.EAGAIN;
    }
    int pid = proc.threads.ids().next++;
    Spawner.Child c = proc.spawner.spawn(cpu, pid);
    Cpu child = c.cpu();
    child.pc = cpu.pc; // after the ecall (the kernel sees the pc after it)
    child.x[10] = 0;
    if (stack != 0) {
      child.x[2] = stack;
    }
    if ((flags & CLONE_SETTLS) != 0) {
      child.x[4] = tls;
    }
    GuestProcess cp = c.kernel().process();
    if ((flags & CLONE_CHILD_SETTID) != 0) {
      cp.mem.write32(ctid, pid);
    }
    if ((flags & CLONE_CHILD_CLEARTID) != 0) {
      cp.threads.setTidAddress(ctid);
    }
    if ((flags & CLONE_PARENT_SETTID) != 0) {
      mem.write32(ptid, pid);
    }
    cp.threads.tree = tree;
    ProcessTree.Member m =
        new ProcessTree.Member(pid, proc.pid, child, cp, c.kernel()::releaseFiles, c.faultReport());
    tree.add(m);
    proc.threads.ensureScheduling(cpu); // so that the parent's quanta let the child run
    if ((flags & CLONE_VFORK) != 0) {
      proc.threads.blockThenReturn(cpu, () -> m.vforkDone);
    }
    return pid;
  }

  /** The children of this process that pid selects (-1: all). */
  private List<ProcessTree.Member> children(int pid) {
    ProcessTree tree = proc.threads.tree;
    return tree == null ? List.of() : tree.children(proc.pid, pid);
  }

  private static ProcessTree.Member firstExited(List<ProcessTree.Member> kids) {
    for (ProcessTree.Member m : kids) {
      if (m.exited) {
        return m;
      }
    }
    return null;
  }

  private long wait4(Cpu cpu, int pid, long status, int options, long rusage, long a0) {
    if ((options & ~(WNOHANG | 0x2 | 0x8 | 0x40000000 | 0x80000000)) != 0) {
      return -Errno.EINVAL;
    }
    List<ProcessTree.Member> kids = children(pid);
    if (kids.isEmpty()) {
      return -Errno.ECHILD;
    }
    ProcessTree.Member m = firstExited(kids);
    if (m != null) {
      if (status != 0) {
        mem.write32(status, m.wstatus);
      }
      if (rusage != 0) {
        mem.write(rusage, new byte[144], 0, 144);
      }
      m.reaped = true;
      return m.pid;
    }
    if ((options & WNOHANG) != 0) {
      return 0;
    }
    ProcessTree tree = proc.threads.tree;
    proc.threads.blockUntil(cpu, () -> anyExited(tree, pid), a0);
    return a0;
  }

  private long waitid(Cpu cpu, int idtype, int id, long info, int options, long a0) {
    if ((options & WEXITED) == 0 || idtype < 0 || idtype > 2) {
      return -Errno.EINVAL;
    }
    int pid = idtype == 1 ? id : -1; // P_PID, else P_ALL (P_PGID as any child)
    List<ProcessTree.Member> kids = children(pid);
    if (kids.isEmpty()) {
      return -Errno.ECHILD;
    }
    ProcessTree.Member m = firstExited(kids);
    if (m != null) {
      if (info != 0) {
        byte[] si = new byte[128];
        java.nio.ByteBuffer b =
            java.nio.ByteBuffer.wrap(si).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        boolean killed = (m.wstatus & 0x7f) != 0;
        b.putInt(0, SIGCHLD);
        b.putInt(8, killed ? 2 : 1); // CLD_KILLED, CLD_EXITED
        b.putInt(16, m.pid);
        b.putInt(24, killed ? m.wstatus & 0x7f : (m.wstatus >> 8) & 0xff);
        mem.write(info, si, 0, si.length);
      }
      if ((options & WNOWAIT) == 0) {
        m.reaped = true;
      }
      return 0;
    }
    if ((options & WNOHANG) != 0) {
      if (info != 0) {
        mem.write(info, new byte[128], 0, 128); // si_pid 0: nobody has ended
      }
      return 0;
    }
    ProcessTree tree = proc.threads.tree;
    proc.threads.blockUntil(cpu, () -> anyExited(tree, pid), a0);
    return a0;
  }

  /**
   * execve: the named file must be a RISC-V ELF program acf runs; it replaces the calling process's
   * program (same pid, open files but the close-on-exec ones, working directory). Anything else
   * fails as Linux fails it (ENOENT, EACCES, ENOEXEC) and the old program goes on.
   */
  private long execve(Cpu cpu, long pathAddr, long argvAddr, long envpAddr) throws Refused {
    String guestPath = files.string(pathAddr);
    java.nio.file.Path p;
    if (guestPath.equals("/bin/sh")) {
      p = sysrootShell();
      if (p == null) {
        proc.notice(
            "binsh",
            "the guest ran /bin/sh (system(), popen()), but there is no RISC-V shell: acf runs no"
                + " host program, and neither ACF_SYSROOT nor /usr/riscv64-linux-gnu holds a"
                + " bin/sh; execve returned ENOENT, as for a system without /bin/sh");
        return -Errno.ENOENT;
      }
    } else {
      p = files.executable(pathAddr);
    }
    List<String> argv = strings(argvAddr);
    List<String> env = strings(envpAddr);
    if (proc.spawner == null) {
      return proc.unsupported(cpu, Syscall.EXECVE, "a new program (this run cannot load one)");
    }
    try {
      proc.spawner.exec(cpu, p, argv, env);
    } catch (org.dise.runtime.elf.ElfException e) {
      proc.say(
          "execve of "
              + guestPath
              + ": not a program acf can run ("
              + e.getMessage()
              + "); it returned ENOEXEC, as Linux does for a file it cannot execute");
      return -ENOEXEC;
    } catch (java.io.IOException e) {
      return -HostErrors.errno(e);
    }
    ProcessTree tree = proc.threads.tree;
    if (tree != null) {
      ProcessTree.Member m = tree.member(proc);
      if (m != null) {
        m.vforkDone = true; // a vfork parent goes on
      }
    }
    return 0; // a0 of the new program (Linux starts it with zeroed registers)
  }

  /**
   * A RISC-V /bin/sh from the sysroot (ACF_SYSROOT, else /usr/riscv64-linux-gnu), or null: the
   * host's own shell is never run.
   */
  private static java.nio.file.Path sysrootShell() {
    String env = System.getenv("ACF_SYSROOT");
    for (String root : new String[] {env, "/usr/riscv64-linux-gnu"}) {
      if (root != null && !root.isEmpty()) {
        java.nio.file.Path sh = java.nio.file.Path.of(root, "bin", "sh");
        if (java.nio.file.Files.isRegularFile(sh)) {
          return sh;
        }
      }
    }
    return null;
  }

  /** A NULL-terminated array of guest strings (argv, envp); a null array is empty. */
  private List<String> strings(long addr) throws Refused {
    List<String> out = new java.util.ArrayList<>();
    if (addr == 0) {
      return out;
    }
    for (long a = addr; ; a += 8) {
      long s = mem.read64(a);
      if (s == 0) {
        return out;
      }
      if (out.size() >= 1 << 16) {
        throw new Refused(Errno.E2BIG);
      }
      out.add(files.string(s));
    }
  }

  private boolean anyExited(ProcessTree tree, int pid) {
    for (ProcessTree.Member m : tree.children(proc.pid, pid)) {
      if (m.exited) {
        return true;
      }
    }
    return tree.children(proc.pid, pid).isEmpty();
  }
}
