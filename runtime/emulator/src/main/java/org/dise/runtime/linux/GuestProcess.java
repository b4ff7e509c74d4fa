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

  /** The tool's limits (--limit), which the guest may lower with prlimit64. */
  GuestLimits limits;

  GuestProcess(Memory mem, PrintStream notices, String exePath, GuestLimits limits) {
    this.mem = mem;
    this.notices = notices;
    this.exePath = exePath;
    this.limits = limits;
  }

  /** Reports {@code message} once per {@code key}. */
  void notice(String key, String message) {
    if (reported.add(key)) {
      notices.println("acf: " + message);
    }
  }

  /** Reports {@code message} every time. */
  void say(String message) {
    notices.println("acf: " + message);
  }
}
