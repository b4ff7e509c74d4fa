package org.dise.runtime.linux;

import java.nio.file.Path;

/**
 * Told when the guest maps part of a host file with execute permission (the dynamic linker mapping
 * a library's code), so that the library's symbols can name its PCs.
 */
@FunctionalInterface
public interface FileMapListener {
  /**
   * {@code file} (a resolved host path) from file offset {@code offset} now lies at {@code addr}.
   */
  void mapped(Path file, long addr, long offset);
}
