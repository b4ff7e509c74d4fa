package org.dise.runtime.cpu;

/**
 * Chooses which guest thread runs on the hart (the kernel's scheduler): {@link Cpu#run} calls it
 * when the running thread's quantum ends or after the kernel {@linkplain Cpu#requestSwitch asked}
 * for a switch.
 */
public interface Scheduler {
  /**
   * The running thread leaves the hart: its quantum ended ({@code expired}), or it blocked, yielded
   * or ended. Saves its context if it can run again, loads the next runnable thread's (possibly the
   * same one), and returns null to go on, or why the run must stop (the process ended, or every
   * thread is blocked: {@link StopReason#DEADLOCK}).
   */
  StopReason reschedule(Cpu cpu, boolean expired);

  /** Instructions a thread runs before the hart switches to the next runnable one. */
  long quantum();
}
