package org.dise.runtime.linux;

import java.io.PrintStream;
import java.util.HashSet;
import java.util.Set;
import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.mem.Memory;

/**
 * What the kernel's subsystems share about the one guest process: its memory, its limits, its
 * executable's name, and the notice stream where acf reports what the guest was refused (each
 * notice once, lines starting {@code acf:}).
 */
final class GuestProcess {
  final Memory mem;
  final String exePath;
  private final PrintStream notices;
  private final Set<String> reported = new HashSet<>();

  /** The hart of the call being handled. */
  Cpu cpu;

  /** The process's threads and their scheduler; the first thread's id is the pid. */
  final GuestThreads threads;

  /** What a call acf does not implement does (set by the kernel). */
  OnUnsupported onUnsupported = OnUnsupported.FAIL;

  /** The tool's limits (--limit), which the guest may lower with prlimit64. */
  GuestLimits limits;

  /** The process id and its parent's. */
  final int pid;

  int ppid;

  /** Makes forked children (null: fork is unsupported where nothing can run a second process). */
  Spawner spawner;

  GuestProcess(Memory mem, PrintStream notices, String exePath, GuestLimits limits) {
    this(mem, notices, exePath, limits, ProcessCalls.PID, ProcessCalls.PPID, null);
  }

  /** A process with id {@code pid} whose threads take their ids from {@code ids} (null: fresh). */
  GuestProcess(
      Memory mem,
      PrintStream notices,
      String exePath,
      GuestLimits limits,
      int pid,
      int ppid,
      GuestThreads.Ids ids) {
    this.mem = mem;
    this.notices = notices;
    this.exePath = exePath;
    this.limits = limits;
    this.pid = pid;
    this.ppid = ppid;
    this.threads = ids == null ? new GuestThreads(mem, pid) : new GuestThreads(mem, pid, ids);
  }

  PrintStream notices() {
    return notices;
  }

  /** Reports {@code message} once per {@code key}. */
  void notice(String key, String message) {
    if (reported.add(key)) {
      notices.println("acf: " + message);
    }
  }

  /**
   * A form of a call that acf does not implement ({@code what}, e.g. clone without CLONE_THREAD),
   * under the same policy as a call with no entry at all: stop the run, or return ENOSYS with a
   * report once or every time.
   */
  long unsupported(Cpu cpu, Syscall call, String what) {
    String text = call.linuxName() + " [" + call.number + "] with " + what;
    switch (onUnsupported) {
      case FAIL ->
          throw new Cpu.TrapException(
              "system call "
                  + text
                  + " is not implemented by acf, so the run stops here rather than profile a"
                  + " different execution (--on-unsupported=enosys returns ENOSYS to the guest"
                  + " instead)",
              org.dise.runtime.cpu.GuestFault.SIGSYS);
      case ENOSYS ->
          notice(
              "syscall:" + text,
              "guest made system call "
                  + text
                  + ", which acf does not implement; it returned"
                  + " ENOSYS (reported once)");
      case WARN ->
          say(
              "guest made system call "
                  + text
                  + ", which acf does not implement; it returned ENOSYS");
    }
    return -Errno.ENOSYS;
  }

  /** Reports {@code message} every time. */
  void say(String message) {
    notices.println("acf: " + message);
  }
}
