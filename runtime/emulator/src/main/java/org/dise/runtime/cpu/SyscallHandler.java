package org.dise.runtime.cpu;

/** The operating system below the hart: handles {@code ecall}, timers and faults. */
public interface SyscallHandler {
  /** Performs the system call in a7 with arguments a0-a5, writing the result to a0. */
  void ecall(Cpu cpu);

  /** {@link Cpu#instret()} reached {@link Cpu#eventAt()}: a timer expired. */
  default void event(Cpu cpu) {
    cpu.setEventAt(Long.MAX_VALUE);
  }

  /**
   * The guest faulted: returns true if the kernel delivered the fault as a signal to a guest
   * handler (the hart then goes on at the handler), false to stop with the fault.
   */
  default boolean fault(Cpu cpu, GuestFault f) {
    return false;
  }
}
