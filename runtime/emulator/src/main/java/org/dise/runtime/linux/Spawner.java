package org.dise.runtime.linux;

import java.util.function.Function;
import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.cpu.GuestFault;

/**
 * Makes the process a fork creates (the machine that owns the kernel does: the kernel knows no
 * program, decode cache or engine): a copy of the parent's memory with a kernel made by {@link
 * LinuxKernel#forkChild} and a hart holding the parent's registers.
 */
public interface Spawner {
  /** What the kernel needs of a new process. */
  record Child(LinuxKernel kernel, Cpu cpu, Function<GuestFault, String> faultReport) {}

  /** A copy of the process running on {@code parent}, with process id {@code pid}. */
  Child spawn(Cpu parent, int pid);

  /**
   * execve: replaces the program of the process running on {@code cpu} by {@code program}, with the
   * kernel state reset by {@link LinuxKernel#execReset}; the hart starts at its entry.
   *
   * @throws org.dise.runtime.elf.ElfException when the file is not a program acf can run (the
   *     kernel then answers ENOEXEC, and the old program goes on)
   */
  void exec(
      Cpu cpu, java.nio.file.Path program, java.util.List<String> argv, java.util.List<String> env)
      throws org.dise.runtime.elf.ElfException, java.io.IOException;
}
