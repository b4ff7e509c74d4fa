package org.dise.runtime.elf;

/** A file that cannot be loaded as a static RISC-V Linux program; the message says why. */
public final class ElfException extends Exception {
  public ElfException(String message) {
    super(message, null, false, false);
  }
}
