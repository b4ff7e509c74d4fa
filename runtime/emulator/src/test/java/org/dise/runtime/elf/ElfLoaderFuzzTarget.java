package org.dise.runtime.elf;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.List;
import org.dise.runtime.linux.Loader;
import org.dise.runtime.mem.Memory;

/**
 * Fuzz target: the ELF reader and the loader on arbitrary bytes (seeded with real programs and
 * damaged ones). Any outcome but a loaded image or an {@link ElfException} is a finding.
 */
class ElfLoaderFuzzTarget {
  @FuzzTest(maxDuration = "10s")
  void elfFilesAreLoadedOrRefusedCleanly(byte[] data) {
    fuzzerTestOneInput(data);
  }

  /** The entry point of the standalone Jazzer driver (longer runs: scripts/fuzz). */
  public static void fuzzerTestOneInput(byte[] data) {
    ElfFile elf;
    try {
      elf = ElfFile.parse(data);
    } catch (ElfException e) {
      return;
    }
    elf.symbols();
    try {
      Loader.load(elf, new Memory(), List.of("prog"), List.of("A=1"), 1);
    } catch (ElfException e) {
      // refused with a reason: fine
    }
  }
}
