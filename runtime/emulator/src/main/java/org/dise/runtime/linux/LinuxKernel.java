package org.dise.runtime.linux;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import org.dise.runtime.cpu.Cpu;
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
  private final SyscallTable table = new SyscallTable();

  /** The arguments a0-a5 of the call being handled (one array, reused). */
  private final long[] args = new long[6];

  public LinuxKernel(Memory mem, Sandbox sandbox, PrintStream notices, String exePath, long seed) {
    this.proc = new GuestProcess(mem, notices, exePath, sandbox.limits());
    this.fds = new Descriptors(proc);
    SignalCalls signals = new SignalCalls(proc);
    this.memory = new MemoryCalls(proc, fds);
    fds.register(table);
    new FileCalls(proc, sandbox, fds, signals).register(table);
    memory.register(table);
    new TimeCalls(proc).register(table);
    signals.register(table);
    new ProcessCalls(proc, seed).register(table);
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
    fds.releaseAll();
  }

  public void setBrkStart(long start) {
    memory.setBrkStart(start);
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
    SyscallTable.Entry e = table.lookup(nr);
    long r;
    if (e == null) {
      r = unsupported(nr);
    } else {
      try {
        r = e.handler().call(cpu, a);
      } catch (MemoryFault ex) {
        r = -Errno.EFAULT;
      } catch (Refused ex) {
        r = -ex.errno;
      } catch (IOException ex) {
        r = -HostErrors.errno(ex);
      }
    }
    x[10] = r;
  }

  private long unsupported(long nr) {
    proc.notice(
        "syscall:" + nr,
        "guest made unsupported system call "
            + nr
            + " ("
            + Syscall.name(nr)
            + "); it returned ENOSYS");
    return -Errno.ENOSYS;
  }
}
