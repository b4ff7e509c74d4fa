package org.dise.runtime.cpu;

/** The operating system below the hart: handles {@code ecall}. */
public interface SyscallHandler {
  /** Performs the system call in a7 with arguments a0-a5, writing the result to a0. */
  void ecall(Cpu cpu);
}
