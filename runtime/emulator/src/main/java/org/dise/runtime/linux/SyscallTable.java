package org.dise.runtime.linux;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.dise.runtime.cpu.Cpu;

/**
 * What acf does with each system call: an entry per {@link Syscall} that says whether it is
 * implemented, partly implemented (and what is missing), refused on purpose with an errno the guest
 * copes with, or unsupported (no entry). Each subsystem registers its own entries beside its code;
 * the kernel dispatches through the table by number, and spec/emulator.md's table of system calls
 * is generated from it.
 */
public final class SyscallTable {
  /** How far acf implements a call. */
  public enum Status {
    IMPLEMENTED("implemented"),
    PARTIAL("partial"),
    /** Answered with an errno on purpose, because the guest's libc copes: not unsupported. */
    REFUSED("refused"),
    UNSUPPORTED("unsupported");

    public final String label;

    Status(String label) {
      this.label = label;
    }
  }

  /**
   * Performs the calls registered to it (one subsystem's, {@link SyscallGroup}); {@code a} holds
   * the call's arguments a0-a5. Returns the value for a0.
   */
  interface Handler {
    long call(Syscall which, Cpu cpu, long[] a) throws IOException, Refused;
  }

  /** A refused call's handler: the errno, whatever the arguments. */
  private record Refusal(long result) implements Handler {
    @Override
    public long call(Syscall which, Cpu cpu, long[] a) {
      return result;
    }
  }

  /** One call's entry: its status, what is missing or why it is refused, and its handler. */
  public record Entry(Syscall call, Status status, String note, Handler handler) {}

  private final Entry[] entries = new Entry[Syscall.limit()];

  /** Registers calls acf implements as Linux does, all performed by {@code h}. */
  void implement(Handler h, Syscall... calls) {
    for (Syscall s : calls) {
      put(new Entry(s, Status.IMPLEMENTED, "", h));
    }
  }

  /** Registers a call acf implements in part; {@code missing} says what it does not do. */
  void partial(Syscall s, String missing, Handler h) {
    put(new Entry(s, Status.PARTIAL, missing, h));
  }

  /** Registers a call refused on purpose with {@code errno}; {@code why} says why that is safe. */
  void refuse(Syscall s, int errno, String why) {
    put(new Entry(s, Status.REFUSED, why, new Refusal(-errno)));
  }

  private void put(Entry e) {
    if (entries[e.call().number] != null) {
      throw new IllegalStateException("system call registered twice: " + e.call().linuxName());
    }
    entries[e.call().number] = e;
  }

  /** The entry for a number, or null for an unsupported call or a number riscv64 does not have. */
  Entry lookup(long nr) {
    return nr >= 0 && nr < entries.length ? entries[(int) nr] : null;
  }

  /** Every RV64 system call in number order, unsupported ones with an entry of their own. */
  public List<Entry> all() {
    List<Entry> out = new ArrayList<>();
    for (Syscall s : Syscall.values()) {
      Entry e = entries[s.number];
      out.add(e != null ? e : new Entry(s, Status.UNSUPPORTED, "", null));
    }
    return out;
  }

  /**
   * spec/emulator.md's table of every system call: number, name, status and what is missing or why
   * a call is refused (a test keeps the spec equal to it).
   */
  public String markdownTable() {
    StringBuilder sb = new StringBuilder();
    sb.append("| nr | call | status | what is missing, or why refused |\n");
    sb.append("|---:|---|---|---|\n");
    for (Entry e : all()) {
      sb.append("| ")
          .append(e.call().number)
          .append(" | `")
          .append(e.call().linuxName())
          .append("` | ")
          .append(e.status().label)
          .append(" | ")
          .append(e.note().replace("|", "\\|"))
          .append(" |\n");
    }
    return sb.toString();
  }
}
