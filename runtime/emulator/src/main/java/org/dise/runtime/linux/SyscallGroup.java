package org.dise.runtime.linux;

import java.io.IOException;
import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.mem.Memory;

/**
 * One subsystem's system calls ({@link FileCalls}, {@link SignalCalls}, ...): it registers each
 * call's status in the {@link SyscallTable} and performs them all through one {@code switch} in
 * {@link #call}. One switch per subsystem rather than a lambda per call: JDK 17 links every
 * lambda's call site on first use, which cost each fresh run 16-30 ms for about a hundred calls
 * (docs/benchmarks.md), and a switch on the call costs nothing to link.
 */
abstract class SyscallGroup implements SyscallTable.Handler {
  /** The process whose calls these are. */
  final GuestProcess proc;

  /** Its memory. */
  final Memory mem;

  SyscallGroup(GuestProcess proc) {
    this.proc = proc;
    this.mem = proc.mem;
  }

  /** Registers this subsystem's calls, each with this group as its handler. */
  abstract void register(SyscallTable t);

  @Override
  public abstract long call(Syscall which, Cpu cpu, long[] a) throws IOException, Refused;

  /** A call the table routed to a group that has no case for it: a registration mistake. */
  final IllegalStateException notMine(Syscall which) {
    return new IllegalStateException(
        which.linuxName() + " is registered to " + getClass().getSimpleName() + " but not handled");
  }
}
