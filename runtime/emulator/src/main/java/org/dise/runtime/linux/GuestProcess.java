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

  /** The executable's path as the guest names it (/proc/self/exe); execve changes it. */
  String exePath;

  private final PrintStream notices;
  private final Set<String> reported = new HashSet<>();

  /** The hart of the call being handled. */
  Cpu cpu;

  /** The process's threads and their scheduler; the first thread's id is the pid. */
  final GuestThreads threads;

  /** The tool's limits (--limit), which the guest may lower with prlimit64. */
  GuestLimits limits;

  /** The process id and its parent's. */
  final int pid;

  int ppid;

  /** The process's signals (a kill from another process of the tree reaches them). */
  SignalCalls signals;

  /** The signal that ended the process, or 0 (it exited, or runs). */
  int killedBy;

  /** kill to another process of the tree: ESRCH for a pid that is not one, or has been reaped. */
  long killOther(int pid, int sig) {
    ProcessTree tree = threads.tree;
    if (tree != null) {
      for (ProcessTree.Member m : tree.members()) {
        if (m.pid == pid && !m.reaped) {
          if (sig != 0 && !m.exited && m.proc.signals.fromOutside(m.cpu, sig, this.pid)) {
            tree.ended(m, sig);
          }
          return 0;
        }
      }
    }
    return -Errno.ESRCH;
  }

  /** rt_sigqueueinfo to another process of the tree. */
  long queueOther(int pid, int sig, int code, long w16, long w24) {
    ProcessTree tree = threads.tree;
    if (tree != null) {
      for (ProcessTree.Member m : tree.members()) {
        if (m.pid == pid && !m.reaped) {
          return sig == 0 || m.exited
              ? 0
              : m.proc.signals.queuedFromOutside(m.cpu, sig, code, w16, w24);
        }
      }
    }
    return -Errno.ESRCH;
  }

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
   * A form of a call that acf does not implement ({@code what}, e.g. clone with a namespace flag):
   * the kernel treats it as an unsupported call, under the run's --on-unsupported policy.
   */
  long unsupported(Cpu cpu, Syscall call, String what) {
    throw new Unimplemented(what);
  }

  /** Reports {@code message} every time. */
  void say(String message) {
    notices.println("acf: " + message);
  }
}
