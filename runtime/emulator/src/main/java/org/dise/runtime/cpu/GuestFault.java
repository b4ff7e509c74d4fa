package org.dise.runtime.cpu;

/**
 * A fault that stops the guest: where it happened, the instruction's bytes, and why. The report
 * text is built by the machine, which knows the symbols.
 */
public record GuestFault(long pc, int raw, int size, String reason, int signal) {
  public static final int SIGILL = 4;
  public static final int SIGTRAP = 5;
  public static final int SIGBUS = 7;
  public static final int SIGKILL = 9;
  public static final int SIGSEGV = 11;

  /** Bad system call: what acf stops a guest with when it makes a call acf does not implement. */
  public static final int SIGSYS = 31;

  public String signalName() {
    return switch (signal) {
      case SIGILL -> "SIGILL";
      case SIGTRAP -> "SIGTRAP";
      case SIGBUS -> "SIGBUS";
      case SIGKILL -> "SIGKILL";
      case SIGSEGV -> "SIGSEGV";
      case SIGSYS -> "SIGSYS";
      default -> "signal " + signal;
    };
  }
}
