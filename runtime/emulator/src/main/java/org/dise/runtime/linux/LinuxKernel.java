package org.dise.runtime.linux;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.cpu.GuestFault;
import org.dise.runtime.cpu.SyscallHandler;
import org.dise.runtime.mem.Memory;
import org.dise.runtime.mem.MemoryFault;

/**
 * The Linux system calls that statically linked glibc programs make, emulated for one process with
 * one thread. The kernel is a {@link SyscallTable} of named entries over its subsystems: {@link
 * Descriptors} and {@link FileCalls}, {@link MemoryCalls}, {@link TimeCalls}, {@link SignalCalls}
 * and {@link ProcessCalls}. Unknown or denied calls return the proper errno and are reported once
 * on the notice stream (lines start with {@code acf:}), never silently.
 */
public final class LinuxKernel implements SyscallHandler {
  private final GuestProcess proc;
  private final Descriptors fds;
  private final MemoryCalls memory;
  private final SignalCalls signals;
  private final SyscallTable table = new SyscallTable();

  private OnUnsupported onUnsupported = OnUnsupported.FAIL;

  /** The arguments a0-a5 of the call being handled (one array, reused). */
  private final long[] args = new long[6];

  private final Sandbox sandbox;
  private final long seed;
  private final FileCalls files;

  public LinuxKernel(Memory mem, Sandbox sandbox, PrintStream notices, String exePath, long seed) {
    this(new GuestProcess(mem, notices, exePath, sandbox.limits()), sandbox, seed);
  }

  private LinuxKernel(GuestProcess proc, Sandbox sandbox, long seed) {
    this.proc = proc;
    this.sandbox = sandbox;
    this.seed = seed;
    this.fds = new Descriptors(proc);
    this.signals = new SignalCalls(proc);
    proc.signals = signals;
    proc.threads.setSignals(signals);
    this.memory = new MemoryCalls(proc, fds);
    this.files = new FileCalls(proc, sandbox, fds, signals);
    files.setMappings(memory);
    fds.register(table);
    files.register(table);
    memory.register(table);
    new TimeCalls(proc, signals).register(table);
    signals.register(table);
    new ProcessCalls(proc, seed).register(table);
    ChildCalls children = new ChildCalls(proc, files);
    children.register(table);
    new ThreadCalls(proc, children).register(table);
  }

  /**
   * The kernel of a process forked from this one, over {@code childMem} (a copy of this process's
   * memory): the same open files (shared, as Linux shares open file descriptions), working
   * directory, heap and mapping state, signal dispositions and limits, and process id {@code pid}.
   */
  public LinuxKernel forkChild(Memory childMem, int pid) {
    GuestProcess cp =
        new GuestProcess(
            childMem, proc.notices(), proc.exePath, proc.limits, pid, proc.pid, proc.threads.ids());
    LinuxKernel k = new LinuxKernel(cp, sandbox, seed ^ pid);
    k.setOnUnsupported(onUnsupported);
    fds.copyInto(k.fds);
    memory.copyInto(k.memory);
    files.copyInto(k.files);
    signals.copyInto(k.signals);
    cp.threads.setQuantum(proc.threads.quantum());
    return k;
  }

  GuestProcess process() {
    return proc;
  }

  /**
   * execve's reset of the kernel state: descriptors marked close-on-exec are closed, caught signals
   * go back to their default action, the other threads end, the heap starts at {@code brkStart}.
   */
  public void execReset(long brkStart, String exePath) {
    try {
      fds.closeOnExec();
    } catch (java.io.IOException e) {
      // a close that failed on the host: the guest's descriptor is gone either way
    }
    signals.execReset();
    memory.execReset(brkStart);
    proc.threads.execReset();
    proc.exePath = exePath;
  }

  /** Lets the guest fork: {@code s} makes the new processes (without one, fork is unsupported). */
  public void setSpawner(Spawner s) {
    proc.spawner = s;
  }

  public Spawner spawner() {
    return proc.spawner;
  }

  /** The process id. */
  public int pid() {
    return proc.pid;
  }

  /** The processes of this one's tree, or null while it has never forked nor been forked. */
  public ProcessTree processTree() {
    return proc.threads.tree;
  }

  /**
   * This process ended (its hart stopped: exit status or fault): a parent waiting in wait4 learns
   * it, and the other processes of the tree run to their end. Returns a report when some of them
   * could not (they were all blocked), else null.
   */
  public String processEnded(int wstatus) {
    return processEnded(wstatus, Long.MAX_VALUE);
  }

  /** As {@link #processEnded(int)}, the others running at most {@code budget} more instructions. */
  public String processEnded(int wstatus, long budget) {
    ProcessTree tree = proc.threads.tree;
    if (tree == null) {
      return null;
    }
    tree.ended(tree.member(proc), wstatus);
    return tree.runRest(budget);
  }

  /** The process's threads and their scheduler. */
  public GuestThreads threads() {
    return proc.threads;
  }

  /** What the kernel does with each system call (spec/emulator.md's table is made from it). */
  public SyscallTable table() {
    return table;
  }

  /**
   * Replaces a standard stream (for tests and the REPL). The guest sees it as not a terminal, and
   * fstat describes /dev/null (a character device), as for a program run with {@code </dev/null}.
   */
  public void setStdio(int fd, InputStream in, OutputStream out) {
    setStdio(fd, in, out, Path.of("/dev/null"));
  }

  /** Replaces a standard stream; fstat on it describes the host file {@code statAs}. */
  public void setStdio(int fd, InputStream in, OutputStream out, Path statAs) {
    fds.setStdio(fd, in, out, statAs);
  }

  /**
   * Closes every host file the guest still has open (after it ended): a guest that exhausted its
   * descriptors must not keep the tool from writing its profiles.
   */
  public void releaseFiles() {
    memory.releaseShared();
    fds.releaseAll();
  }

  /** What a system call acf does not implement does to the run. */
  public void setOnUnsupported(OnUnsupported policy) {
    this.onUnsupported = policy;
  }

  public void setBrkStart(long start) {
    memory.setBrkStart(start);
  }

  /** Where mmap allocates from, downwards (below a dynamically linked program's dynamic linker). */
  public void setMmapTop(long top) {
    memory.setMmapTop(top);
  }

  /** Told of every file mapping with execute permission (null: nobody). */
  public void setFileMapListener(FileMapListener l) {
    memory.setFileMapListener(l);
  }

  @Override
  public void ecall(Cpu cpu) {
    proc.cpu = cpu;
    long[] x = cpu.x;
    long nr = x[17];
    long[] a = args;
    a[0] = x[10];
    a[1] = x[11];
    a[2] = x[12];
    a[3] = x[13];
    a[4] = x[14];
    a[5] = x[15];
    int resumed = proc.threads.takeResume();
    if (resumed != 0) {
      // A call that blocked runs again from its ecall, which retired when it first ran.
      cpu.unretireEcall();
      if (resumed != GuestThreads.RESUMED && interrupted(cpu, resumed)) {
        return;
      }
    }
    SyscallTable.Entry e = table.lookup(nr);
    long r;
    if (e == null) {
      r = unsupported(cpu, nr, a);
    } else {
      try {
        r = e.handler().call(e.call(), cpu, a);
      } catch (MemoryFault ex) {
        r = -Errno.EFAULT;
      } catch (Refused ex) {
        r = -ex.errno;
      } catch (IOException ex) {
        r = -HostErrors.errno(ex);
      } catch (Unimplemented ex) {
        r = unimplemented(e.call(), a, ex.what);
      }
    }
    x[10] = r;
    if (!cpu.halted() && !proc.threads.currentBlocked()) {
      signals.deliver(cpu); // a signal raised or unblocked by the call runs its handler now
    }
    if (cpu.halted()) {
      memory.releaseShared(); // exit, or a signal's default action: shared mappings reach files
    }
  }

  /**
   * A signal woke the thread out of its blocked call, which is back at its ecall: with a signal to
   * act on, the call returns EINTR, or (SA_RESTART, for the calls Linux restarts) its ecall runs
   * again after the handler, and the signal is delivered; returns false when the signal went
   * elsewhere meanwhile (the call simply runs again).
   */
  private boolean interrupted(Cpu cpu, int how) {
    int sig = signals.deliverable();
    if (sig == 0) {
      return false;
    }
    if (how == GuestThreads.INTERRUPTED && signals.restarts(sig)) {
      cpu.pc -= 4; // back to the ecall, a0 still its first argument: the handler returns to it
    } else {
      cpu.x[10] = -Errno.EINTR;
    }
    signals.deliver(cpu);
    if (cpu.halted()) {
      memory.releaseShared();
    }
    return true;
  }

  @Override
  public void event(Cpu cpu) {
    proc.cpu = cpu;
    signals.timerEvent(cpu);
    if (cpu.halted()) {
      memory.releaseShared();
    }
  }

  @Override
  public boolean fault(Cpu cpu, GuestFault f) {
    proc.cpu = cpu;
    return signals.fault(cpu, f);
  }

  /**
   * A call with no entry. A number riscv64 does not have is ENOSYS, as Linux answers it. A real
   * call acf does not implement follows {@link #onUnsupported}: stop the run (the default), or
   * return ENOSYS with a report once or every time.
   */
  private long unsupported(Cpu cpu, long nr, long[] a) {
    Syscall s = Syscall.of(nr);
    if (s == null) {
      proc.notice(
          "syscall:" + nr,
          "guest made system call "
              + nr
              + ", which riscv64 Linux does not have; it returned ENOSYS");
      return -Errno.ENOSYS;
    }
    return unimplemented(s, a, null);
  }

  /** An unsupported call, or ({@code form} not null) an unsupported form of a partial one. */
  private long unimplemented(Syscall s, long[] a, String form) {
    String call = describe(s, a) + (form == null ? "" : " (" + form + ")");
    switch (onUnsupported) {
      case FAIL ->
          throw new Cpu.TrapException(
              "system call "
                  + call
                  + " is not implemented by acf, so the run stops here rather than profile a"
                  + " different execution (--on-unsupported=enosys returns ENOSYS to the guest"
                  + " instead)",
              GuestFault.SIGSYS);
      case ENOSYS ->
          proc.notice(
              "syscall:" + s.number + (form == null ? "" : ":" + form),
              "guest made system call "
                  + call
                  + ", which acf does not implement; it returned"
                  + " ENOSYS (reported once)");
      case WARN ->
          proc.say(
              "guest made system call "
                  + call
                  + ", which acf does not implement; it returned"
                  + " ENOSYS");
    }
    return -Errno.ENOSYS;
  }

  /**
   * A call as a report names it: {@code setitimer(0x0, 0x3ffffff5a0, 0x0, ...)} with its number.
   */
  static String describe(Syscall s, long[] a) {
    StringBuilder sb = new StringBuilder(s.linuxName()).append('(');
    for (int i = 0; i < a.length; i++) {
      sb.append(i == 0 ? "" : ", ").append("0x").append(Long.toHexString(a[i]));
    }
    return sb.append(") [").append(s.number).append(']').toString();
  }
}
