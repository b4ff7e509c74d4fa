package org.dise.runtime.linux;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.cpu.GuestFault;
import org.dise.runtime.cpu.StopReason;

/**
 * The guest processes one acf run holds: the first and everything it forked, each with its own
 * memory, kernel state and hart, all on one emulated core. The first process runs in its caller's
 * {@link Cpu#run}; the others run when its threads give up the core (a quantum ends, or every one
 * of them waits for something, such as a child to exit or a pipe to fill), one quantum each in
 * creation order, so the interleaving of a process tree is as deterministic as that of threads
 * (spec/emulator.md, "Processes").
 */
public final class ProcessTree {
  /** One process: its hart, its kernel state, and what its parent learns when it ends. */
  public static final class Member {
    public final int pid;
    int ppid;
    public final Cpu cpu;
    final GuestProcess proc;
    final Runnable releaseFiles;
    final Function<GuestFault, String> faultReport;
    boolean exited;
    boolean reaped;

    /** wait4's status word: the exit status in bits 8-15, or the signal that ended it. */
    int wstatus;

    /** A vfork child has exec'd or ended: its parent goes on. */
    boolean vforkDone;

    Member(
        int pid,
        int ppid,
        Cpu cpu,
        GuestProcess proc,
        Runnable releaseFiles,
        Function<GuestFault, String> faultReport) {
      this.pid = pid;
      this.ppid = ppid;
      this.cpu = cpu;
      this.proc = proc;
      this.releaseFiles = releaseFiles;
      this.faultReport = faultReport;
    }

    public boolean exited() {
      return exited;
    }

    /** How it ended, as a shell reports it: the exit status, or 128 + the signal. */
    public int shellStatus() {
      return (wstatus & 0x7f) != 0 ? 128 + (wstatus & 0x7f) : (wstatus >> 8) & 0xff;
    }
  }

  private final List<Member> members = new ArrayList<>();
  private final PrintStream notices;
  private boolean nested;

  ProcessTree(PrintStream notices) {
    this.notices = notices;
  }

  /** Every process so far, the first one first, in creation order. */
  public List<Member> members() {
    return List.copyOf(members);
  }

  void add(Member m) {
    members.add(m);
  }

  Member member(GuestProcess p) {
    for (Member m : members) {
      if (m.proc == p) {
        return m;
      }
    }
    return null;
  }

  /** Processes that count against RLIMIT_NPROC: running ones and unreaped zombies. */
  int count() {
    int n = 0;
    for (Member m : members) {
      if (!m.reaped) {
        n++;
      }
    }
    return n;
  }

  /** True while the tree runs processes other than the first (they must not run others). */
  boolean nested() {
    return nested;
  }

  /**
   * Gives every other process that has not ended one quantum, in creation order. Returns true if
   * any of them did something (ran an instruction or ended), so that a caller waiting for them can
   * tell progress from deadlock.
   */
  boolean runOthers(GuestThreads caller, Cpu leader) {
    boolean progress = false;
    nested = true;
    try {
      for (Member m : new ArrayList<>(members)) {
        if (m.exited || m.proc.threads == caller) {
          continue;
        }
        // One instruction budget for the tree (--max-insns): the first process's run call's.
        long cap = leader == null ? restBudget : leader.budgetLeft();
        if (cap <= 0) {
          break;
        }
        long before = m.cpu.instret();
        StopReason r = m.cpu.run(Math.min(m.proc.threads.quantum(), cap));
        long ran = m.cpu.instret() - before;
        if (leader != null) {
          leader.chargeCore(ran);
        } else {
          restBudget -= ran;
        }
        if (ran != 0) {
          progress = true;
        }
        switch (r) {
          case EXITED -> {
            ended(m, m.proc.killedBy != 0 ? m.proc.killedBy : (m.cpu.exitCode() & 0xff) << 8);
            progress = true;
          }
          case FAULT -> {
            GuestFault f = m.cpu.fault();
            notices.println("acf: process " + m.pid + ": " + m.faultReport.apply(f));
            ended(m, f.signal() & 0x7f);
            progress = true;
          }
          default -> {}
        }
      }
    } finally {
      nested = false;
    }
    return progress;
  }

  /** What the others may still run once the first process ended (--max-insns's rest). */
  private long restBudget = Long.MAX_VALUE;

  /**
   * The first process ended: the rest run to their end, or until none of them can go on, or until
   * they ran {@code budget} more instructions (the tree's instruction limit).
   */
  public String runRest(long budget) {
    restBudget = budget;
    while (true) {
      boolean any = false;
      for (Member m : members) {
        any |= !m.exited;
      }
      if (!any) {
        return null;
      }
      if (!runOthers(null, null)) {
        StringBuilder sb =
            new StringBuilder(
                restBudget <= 0
                    ? "the instruction limit (--max-insns, which bounds the whole process tree)"
                        + " stopped the processes still running"
                    : "deadlock: the first process ended and every other one is blocked");
        for (Member m : members) {
          if (!m.exited) {
            sb.append("\n  process ").append(m.pid);
            ended(m, 9); // as if killed: their host files are released
          }
        }
        return sb.toString();
      }
    }
  }

  /** A process ended with {@code wstatus}: its files go, its children are orphans. */
  void ended(Member m, int wstatus) {
    if (m.exited) {
      return;
    }
    m.exited = true;
    m.wstatus = wstatus;
    m.vforkDone = true;
    m.releaseFiles.run();
    for (Member c : members) {
      if (c.ppid == m.pid) {
        c.ppid = 1; // init adopts orphans and reaps them
        if (c.exited) {
          c.reaped = true;
        }
      }
    }
    Member parent = null;
    for (Member p : members) {
      if (p.pid == m.ppid) {
        parent = p;
      }
    }
    if (parent == null || parent.exited) {
      m.reaped = true;
    } else {
      parent.proc.signals.childEnded(m.pid, wstatus); // SIGCHLD, as Linux sends it
    }
  }

  /** The children of {@code ppid} that wait4's {@code pid} argument selects and are not reaped. */
  List<Member> children(int ppid, int pid) {
    List<Member> out = new ArrayList<>();
    for (Member m : members) {
      if (m.ppid == ppid && !m.reaped && (pid <= 0 || m.pid == pid)) {
        out.add(m);
      }
    }
    return out;
  }
}
